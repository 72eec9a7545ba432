"""Benchmark LLM grading on a real server: llama.cpp's llama-server with Qwen2.5-Coder-1.5B-Instruct
Q4_K_M from the `llm-real` extra, on the CPU, with the documented local settings (one slot, one
grading at a time, a 300 s deadline, no retries).

Usage: python bench/llm_real.py [--set twelve|dev] [--limit N] [--samples 1] [--no-reference] [--quick]
       python bench/llm_real.py --write-csv rows.csv   (the rows as a batch-CLI input, then exit)

- twelve: 4 bank questions x strong / partial / wrong-but-keyworded answers from the labelled
  development set (tests/data/grading_dev.yaml); dev: every answer of that set (56, about 40 min).
- Per answer: latency, prompt / completion / cached tokens, and the grade; then fallbacks with their
  reasons, Spearman against the labels (beside the offline grader's on the same rows) and the
  completion-token median against the target of 250.
`--quick` grades one row (a minute or two on 2 cores: the model's own time; the figures are not the real
ones). Without the extra it says so and exits at once. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import statistics
import sys
import time
from pathlib import Path

import openai
import yaml

sys.path[0] = str(Path(__file__).resolve().parents[1])  # import the project from the repository root

from bench.grade_offline import spearman  # noqa: E402
from bench.report import final_line, verdict_of  # noqa: E402
from bot.content.loader import load_bank  # noqa: E402
from bot.grading.llm import LLMGrader  # noqa: E402
from bot.grading.local_server import (  # noqa: E402
    LOCAL_SETTINGS,
    LocalModelMissing,
    llama_server,
    model_parts,
    server_binary,
)
from bot.grading.offline import OfflineGrader  # noqa: E402
from bot.shipped_bank import use_shipped_weights  # noqa: E402

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)

DEV_SET = Path(__file__).resolve().parents[1] / "tests" / "data" / "grading_dev.yaml"
TWELVE_QUESTIONS = (
    "stab-nan-debug-001",
    "pipe-lora-rank-alpha-001",
    "stab-clip-norm-value-001",
    "pipe-mem-activation-001",
)
TWELVE_KINDS = ("strong", "partial", "wrong_keyworded")
TARGET_MEDIAN_COMPLETION = 250


def rows_for(which: str, limit: int | None) -> list[dict[str, object]]:
    rows = yaml.safe_load(DEV_SET.read_text(encoding="utf-8"))
    if which == "twelve":
        picked = []
        for qid in TWELVE_QUESTIONS:
            for kind in TWELVE_KINDS:
                found = [r for r in rows if r["question_id"] == qid and r["kind"] == kind]
                picked.append(next((r for r in found if r["lang"] == "en"), found[0]))
        rows = picked
    return rows[:limit] if limit else rows


async def run(args: argparse.Namespace) -> dict[str, object]:
    bank = {q.id: q for q in load_bank().questions}
    rows = rows_for(args.set, args.limit)
    offline = OfflineGrader()
    results = []
    async with llama_server() as server:
        client = openai.AsyncOpenAI(
            base_url=server.base_url, api_key="not-needed", timeout=float(LOCAL_SETTINGS["LLM__TIMEOUT"]), max_retries=0
        )
        grader = LLMGrader(
            client, server.model, deadline=float(LOCAL_SETTINGS["LLM__DEADLINE"]), samples=args.samples,
            send_reference=not args.no_reference, concurrency=1, provider="llamacpp",
        )  # fmt: skip
        for i, row in enumerate(rows, 1):
            q = bank[str(row["question_id"])]
            lang = str(row.get("rubric_lang", row["lang"]))
            before = len(grader.calls)
            started = time.perf_counter()
            entry: dict[str, object] = {"question_id": q.id, "kind": row["kind"], "label": row["score"]}
            try:
                grade = await grader.grade(q, str(row["answer"]), lang)  # type: ignore[arg-type]
                entry.update(score=grade.score, verdicts=[k.verdict for k in grade.key_points])
            except Exception as exc:  # a fallback: the bot would show the offline estimate
                entry.update(score=None, fallback=f"{type(exc).__name__}: {exc}")
            calls = list(grader.calls)[before:]
            entry.update(
                seconds=round(time.perf_counter() - started, 1),
                prompt_tokens=sum(c.prompt_tokens for c in calls),
                completion_tokens=sum(c.completion_tokens for c in calls),
                cached_tokens=sum(c.cached_tokens for c in calls),
                calls=len(calls),
                offline=offline.grade_sync(q, str(row["answer"]), lang).score,  # type: ignore[arg-type]
            )
            results.append(entry)
            print(json.dumps({"row": i, **entry}, ensure_ascii=False), flush=True)
    graded = [r for r in results if r["score"] is not None]
    completion = [int(r["completion_tokens"]) for r in graded]  # type: ignore[call-overload]
    labels = [float(r["label"]) for r in graded]  # type: ignore[arg-type]
    fallbacks = [str(r["fallback"]) for r in results if r["score"] is None]
    median_completion = statistics.median(completion) if completion else None
    per_kind = {
        kind: round(statistics.fmean(float(r["score"]) for r in graded if r["kind"] == kind), 1)  # type: ignore[arg-type]
        for kind in sorted({str(r["kind"]) for r in graded})
    }
    return {
        "bench": "llm_real",
        "set": args.set,
        "rows": len(results),
        "samples": args.samples,
        "reference_sent": not args.no_reference,
        "fallbacks": len(fallbacks),
        "fallback_reasons": fallbacks,
        "median_s": round(statistics.median(float(r["seconds"]) for r in results), 1),  # type: ignore[arg-type]
        "max_s": max(float(r["seconds"]) for r in results),  # type: ignore[arg-type]
        "median_prompt_tokens": statistics.median(int(r["prompt_tokens"]) for r in results),  # type: ignore[call-overload]
        "median_cached_tokens": statistics.median(int(r["cached_tokens"]) for r in results),  # type: ignore[call-overload]
        "median_completion_tokens": median_completion,
        "max_completion_tokens": max(completion) if completion else None,
        "target_median_completion_tokens": TARGET_MEDIAN_COMPLETION,
        "spearman_llm": round(spearman([float(r["score"]) for r in graded], labels), 3) if len(graded) > 2 else None,  # type: ignore[arg-type]
        "spearman_offline": round(spearman([float(r["offline"]) for r in graded], labels), 3)
        if len(graded) > 2
        else None,  # type: ignore[arg-type]
        "mean_score_by_kind": per_kind,
        "ok": not fallbacks and median_completion is not None and median_completion <= TARGET_MEDIAN_COMPLETION,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=["twelve", "dev"], default="twelve")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--samples", type=int, default=1)
    parser.add_argument("--no-reference", action="store_true")
    parser.add_argument("--write-csv", type=Path, default=None)
    parser.add_argument("--quick", action="store_true", help="one row: a minute or two, the model's own time")
    args = parser.parse_args()
    if args.quick:
        args.limit = 1
    if args.write_csv:
        with args.write_csv.open("w", newline="", encoding="utf-8") as fh:
            out = csv.writer(fh)
            out.writerow(["id", "question_id", "kind", "label", "answer"])
            for i, row in enumerate(rows_for(args.set, args.limit), 1):
                out.writerow([f"r{i}", row["question_id"], row["kind"], row["score"], row["answer"]])
        return 0
    targets = {"fallbacks": 0, "median_completion_tokens": TARGET_MEDIAN_COMPLETION}
    try:
        server_binary()
        model_parts()
    except LocalModelMissing as err:
        print(f"not run: {err}")
        print(final_line("llm_real", {}, targets, f"skipped: {err}", quick=args.quick))
        return 0
    summary = asyncio.run(run(args))
    summary.pop("bench")
    summary.pop("target_median_completion_tokens")
    ok = bool(summary.pop("ok"))
    context = {k: summary.pop(k) for k in ("set", "rows", "samples", "reference_sent")}
    print(final_line("llm_real", summary, targets, verdict_of(ok), quick=args.quick, **context))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
