"""Benchmark: grader prompt size across the whole bank, and our own grading overhead.

Prompt tokens are estimated without a tokenizer download (none is reachable offline): one token
per CJK character and one per four other characters, which over-counts for modern BPE
vocabularies (they merge common Chinese words), so the figures are an upper-side estimate.
Each question is graded with a typical chat answer (the first 150 words of its English reference
answer, or the first 300 characters of the Chinese one) and, for the maximum, with the whole
reference answer as the candidate answer (a long, complete answer), in both languages; and once without
the reference answer, to show what sending it costs. Overhead is the time our code spends around the
model call: building the schema and the messages, validating a reply against the schema, and deriving
the grade.

    .venv/bin/python bench/llm_prompt.py [--quick]

`--quick`: the bank's first 10 questions (the figures are not the real ones).
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.report import final_line, verdict_of
from bot.content.loader import load_bank
from bot.grading.delimiters import new_tag
from bot.grading.llm import LLMGrader
from bot.grading.llm_reply import parse_reply, reply_schema
from bot.grading.prompts import load_prompts
from bot.shipped_bank import use_shipped_weights

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)


def tokens(text: str) -> int:
    cjk = len(re.findall(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]", text))
    return cjk + (len(text) - cjk + 3) // 4


def reply_for(question_ids: list[str], answer: str) -> str:
    quote = " ".join(answer.split()[:6])[:30]
    return json.dumps(
        {
            "key_points": {k: {"quote": quote, "verdict": "hit"} for k in question_ids},
            "mistakes": [{"claim": "calls the bias correction a variance fix", "severity": "minor"}],
            "structure": "strong", "specificity": "fair", "evidence": "weak",
            "feedback": "Clear and layered. Name the clipping threshold you used. Add the measured result.",
            "follow_up": "f1",
        }
    )  # fmt: skip


def main() -> None:
    quick = "--quick" in sys.argv
    prompts = load_prompts()
    questions = load_bank().questions[: 10 if quick else None]
    grader = LLMGrader(client=None, model="bench")  # type: ignore[arg-type]  # no calls are made
    sizes, full_sizes, bare_sizes, static_shares, overhead_ms = [], [], [], [], []
    for q in questions:
        for lang in ("en", "zh"):
            full = q.reference_answer.get(lang)  # type: ignore[arg-type]
            typical = " ".join(full.split()[:150]) if lang == "en" else full[:300]
            t0 = time.perf_counter()
            ids = [k.id for k in q.rubric.key_points]
            schema = reply_schema(ids, [f"f{i + 1}" for i in range(len(q.follow_ups))], lang)  # type: ignore[arg-type]
            messages = prompts.messages(q, typical, lang, "engineer", new_tag())  # type: ignore[arg-type]
            reply = parse_reply(reply_for(ids, typical), schema)
            grader.to_grade([reply], q, typical, lang, None, 0)  # type: ignore[arg-type]
            overhead_ms.append((time.perf_counter() - t0) * 1000)
            bare = prompts.messages(q, typical, lang, "engineer", new_tag(), send_reference=False)  # type: ignore[arg-type]
            bare_sizes.append(sum(tokens(m["content"]) for m in bare))
            total = sum(tokens(m["content"]) for m in messages)
            sizes.append(total)
            static_shares.append(tokens(messages[0]["content"]) / total)
            long_messages = prompts.messages(q, full, lang, "engineer", new_tag())  # type: ignore[arg-type]
            full_sizes.append(sum(tokens(m["content"]) for m in long_messages))
    overhead_ms.sort()
    figures = {
        "questions": len(questions),
        "prompt_tokens_median": int(statistics.median(sizes)),
        "prompt_tokens_max": max(sizes),
        "prompt_tokens_without_reference_median": int(statistics.median(bare_sizes)),
        "reference_cost_tokens_median": int(statistics.median(a - b for a, b in zip(sizes, bare_sizes, strict=True))),
        "prompt_tokens_full_answer_median": int(statistics.median(full_sizes)),
        "prompt_tokens_full_answer_max": max(full_sizes),
        "static_prefix_share_median": round(statistics.median(static_shares), 3),
        "overhead_median_ms": round(statistics.median(overhead_ms), 3),
        "overhead_p99_ms": round(overhead_ms[int(0.99 * (len(overhead_ms) - 1))], 3),
    }
    for k, v in figures.items():
        print(f"{k}: {v}")
    targets = {"prompt_tokens_median": 2500, "overhead_p99_ms": 5}
    ok = all(figures[k] < target for k, target in targets.items())
    print(final_line("llm_prompt", figures, targets, verdict_of(ok), quick=quick))


if __name__ == "__main__":
    main()
