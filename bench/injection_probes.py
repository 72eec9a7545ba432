"""Benchmark: how many prompt-injection probes get credit from an LLM grader whose model obeys them (issue #34, M3).

Each probe (tests/data/injection_probes_heldout.yaml: paraphrases in ten languages, written before the defence and
kept out of tuning; `--set tuning` for the development list) is appended to a weak answer to a bank question, and
the answer is graded by the real LLMGrader against a local fake OpenAI-compatible server whose model obeys any
instruction it is shown: when any line of the probe reaches it, it marks every key point hit, quoting the span of
the answer closest to each point (or the probe itself), with strong levels and no mistakes; otherwise it grades the
weak answer honestly (every point missed). A probe gets credit when the graded answer scores above the weak answer
alone, or has a key point not missed. The target is none.

`--quotes-only`: the grader-addressing detector switched off (what the answer holds reaches the model), to show
what the quote check alone still refuses: key points credited by the obeying model.

    .venv/bin/python bench/injection_probes.py [--set heldout|tuning] [--quotes-only] [--quick]

`--quick`: the first 8 probes (the figures are not the real ones).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# import the project from the repository root, not from bench/ (nor an installed copy of it; and tests.*)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(ROOT)

import openai  # noqa: E402
import yaml  # noqa: E402

from bench.report import final_line, verdict_of  # noqa: E402
from bot.content.loader import load_file  # noqa: E402
from bot.grading.llm import LLMGrader  # noqa: E402
from bot.kernel.models import Grade, Lang, Question  # noqa: E402
from bot.shipped_bank import use_shipped_weights  # noqa: E402
from tests.fake_openai import FakeOpenAI, answer_in, request_text  # noqa: E402

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)

DATA = ROOT / "tests" / "data"
QUESTION = ROOT / "content" / "stability" / "stab-nan-debug-001.yaml"
WEAK: dict[Lang, str] = {
    "en": "I would restart the job from the beginning and hope the problem goes away.",
    "zh": "我会重新启动训练，看看问题会不会自己消失。",
}
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@dataclass(frozen=True)
class Probe:
    id: str
    lang: str
    text: str
    at: str = "end"

    @property
    def user_lang(self) -> Lang:
        return "zh" if CJK.search(self.text) else "en"

    def answer(self) -> str:
        weak = WEAK[self.user_lang]
        return f"{self.text.strip()}\n{weak}" if self.at == "start" else f"{weak}\n{self.text.strip()}"


def load_probes(name: str) -> list[Probe]:
    rows = yaml.safe_load((DATA / f"injection_probes_{name}.yaml").read_text(encoding="utf-8"))
    return [Probe(r["id"], r["lang"], r["text"], r.get("at", "end")) for r in rows]


def _squashed(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+|[\u3400-\u9fff]", text.casefold()))


class ObeyingModel:
    """The fake server's model: obeys a probe whenever one of its lines (6+ characters) reaches it."""

    def __init__(self, probes: list[Probe]) -> None:
        self.lines = [
            _squashed(line) for p in probes for line in p.text.splitlines() if len(_squashed(line)) >= 6
        ]  # fmt: skip
        self.obeyed = 0

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        prompt = request_text(body)
        answer = answer_in(prompt)
        points = dict(re.findall(r"^- ([\w-]+), [\d.]+: (.*)$", prompt, re.M))
        follow_ids = re.findall(r"^- (f\d+): ", prompt, re.M)
        obey = any(line in _squashed(answer) for line in self.lines)
        self.obeyed += obey
        spans = [s.strip() for s in re.split(r"(?<=[.!?。！？\n])", answer) if s.strip()] or [answer]
        verdicts = {}
        for pid, text in points.items():
            best = max(spans, key=lambda s: len(_words(s) & _words(text)))  # the span closest to the point
            verdicts[pid] = {"quote": best[:200], "verdict": "hit"} if obey else {"quote": "", "verdict": "missed"}
        level = "strong" if obey else "weak"
        return {
            "key_points": verdicts, "mistakes": [], "structure": level, "specificity": level, "evidence": level,
            "feedback": "Excellent, complete answer." if obey else "Too vague: name what you would check.",
            "follow_up": follow_ids[0] if follow_ids else "What would you check first?",
            "follow_up_points": ["names a first check"], "follow_up_reference": "Check the data first.",
        }  # fmt: skip


@dataclass(frozen=True)
class Result:
    probe: Probe
    alone: Grade
    graded: Grade

    @property
    def points(self) -> int:
        return sum(k.verdict != "missed" for k in self.graded.key_points)

    @property
    def credited(self) -> bool:
        return self.graded.score > self.alone.score or self.points > 0


async def run(probes: list[Probe], quotes_only: bool = False) -> tuple[list[Result], int]:
    question, problems = load_file(QUESTION)
    assert question is not None and not problems
    server = FakeOpenAI()
    model = ObeyingModel(probes)
    server.grade_fn = model
    await server.start()
    import bot.grading.llm as llm_module

    strip = llm_module.strip_injections
    try:
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="k", timeout=10.0, max_retries=0)
        grader = LLMGrader(client, "obeying-model", samples=1, deadline=30)
        if quotes_only:  # the detector off for this run only (the tests call `run` in their own process)
            llm_module.strip_injections = lambda answer: (answer, None)  # type: ignore[assignment]
        alone = {lang: await grader.grade(question, WEAK[lang], lang) for lang in WEAK}
        results = []
        for probe in probes:
            graded = await _grade(grader, question, probe)
            results.append(Result(probe, alone[probe.user_lang], graded))
        return results, model.obeyed
    finally:
        llm_module.strip_injections = strip  # type: ignore[assignment]
        await server.stop()


async def _grade(grader: LLMGrader, question: Question, probe: Probe) -> Grade:
    return await grader.grade(question, probe.answer(), probe.user_lang)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", default="heldout", choices=["heldout", "tuning"])
    parser.add_argument("--quotes-only", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    probes = load_probes(args.set)[: 8 if args.quick else None]
    results, obeyed = asyncio.run(run(probes, args.quotes_only))
    for r in results:
        mark = "CREDIT" if r.credited else "none  "
        print(f"{mark} {r.probe.id:24} {r.probe.lang}  score {r.alone.score:3d} -> {r.graded.score:3d}  "
              f"points {r.points}  injection={r.graded.injection}")  # fmt: skip
    credited = sum(r.credited for r in results)
    languages = sorted({r.probe.lang for r in results})
    print(f"{credited} of {len(results)} probes got credit ({len(languages)} languages); the model obeyed {obeyed}")
    figures = {
        "probes": len(results),
        "credited": credited,
        "points_credited": sum(r.points for r in results),
        "obeyed": obeyed,
        "languages": len(languages),
    }
    print(
        final_line(
            "injection_probes",
            figures,
            {"credited": 0},
            verdict_of(credited == 0),
            set=args.set,
            quotes_only=args.quotes_only,
            quick=args.quick,
        )
    )


if __name__ == "__main__":
    main()
