"""Benchmark: a mock interview end to end on SQLite with a simulated slow LLM (issue #19).

A 5-question mock (the real bank, SqlStore on a fresh SQLite file, the real offline grader as the estimate
beside a simulated LLM that answers after `--llm-seconds`, the matplotlib debrief chart) answered turn by
turn. Prints: the time from the last grading completing to the debrief text and to its chart (targets:
text within 1 s, the PNG within 300 ms more), database statements per answer (each is one round trip),
and the debrief's message sizes against Telegram's and Discord's limits. Not a test: figures depend on
the machine.

    .venv/bin/python bench/mock.py [--questions 5] [--llm-seconds 2.0] [--lang en|zh] [--quick]

`--quick`: 3 questions, an LLM of 0.1 s (seconds; the figures are not the real ones).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.report import final_line, verdict_of
from bot.charts import MatplotlibMockChart
from bot.content.loader import load_bank
from bot.features.deps import Deps, Limits
from bot.features.mock.chart_data import MockChartData
from bot.features.routes import ROUTES
from bot.grading.chain import GradingChain
from bot.grading.feedback import follow_up_for_points
from bot.grading.offline import OfflineGrader
from bot.kernel.bank import Bank
from bot.kernel.models import Grade, Lang, Level, Question
from bot.kernel.service import Service
from bot.shipped_bank import use_shipped_weights
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)

TELEGRAM_TEXT, TELEGRAM_CAPTION, DISCORD_TEXT = 4096, 1024, 2000


class Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class Timed:
    """Wraps a grader and records when its last grading returned."""

    def __init__(self, inner: Any, marks: dict[str, float], delay: float = 0.0, llm: bool = False) -> None:
        self.inner, self.marks, self.delay, self.llm = inner, marks, delay, llm
        self.id = "llm:simulated" if llm else inner.id

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        grade: Grade = await self.inner.grade(question, answer, lang, level)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.llm:
            grade = grade.model_copy(update={"grader": self.id, "estimate": False, "tokens": 900})
        self.marks["graded"] = time.perf_counter()
        return grade


class TimedChart:
    def __init__(self, marks: dict[str, float]) -> None:
        self.inner, self.marks = MatplotlibMockChart(), marks

    def render_mock(self, data: MockChartData) -> bytes:
        self.marks["chart_start"] = time.perf_counter()
        png = self.inner.render_mock(data)
        self.marks["chart_end"] = time.perf_counter()
        return png


async def run(questions: int, llm_seconds: float, lang: Lang) -> dict[str, Any]:
    bank = Bank(load_bank().questions)
    offline = OfflineGrader()
    offline.grade_sync(bank.all()[0], "warm up the embedding model", "en")
    marks: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        engines = make_engines(f"sqlite+aiosqlite:///{Path(tmp) / 'bot.db'}")
        await upgrade(engines)
        statements = [0]

        def count(*_: Any) -> None:
            statements[0] += 1

        for engine in engines.sync_engines():
            event.listen(engine, "before_cursor_execute", count)
        deps = Deps(
            store=SqlStore(engines), bank=bank, clock=Clock(), limits=Limits(),
            grader=GradingChain(
                Timed(offline, marks, llm_seconds, llm=True), Timed(offline, marks)  # type: ignore[arg-type]
            ),
            mock_charts=TimedChart(marks), follow_up_chooser=follow_up_for_points,
        )  # fmt: skip
        service = Service(deps, routes=ROUTES)
        user = await service.user_for("console", "bench", lang)
        await service.handle_text(user.id, f"/mock stability engineer {questions}")
        per_answer, turns, replies = [], 0, []
        while True:
            mock = await deps.store.running_mock(user.id)
            assert mock is not None
            item = mock.current()
            assert item is not None
            q = bank.get(item.question_id)
            text = (
                "I would check it step by step."
                if item.attempt_id
                else (q.reference_answer.get(lang)[:500] if q else "")
            )
            before = statements[0]
            replies = await service.handle_text(user.id, text)
            ended = time.perf_counter()
            per_answer.append(statements[0] - before)
            turns += 1
            if any(r.kind == "report" for r in replies):
                break
        await engines.dispose()
    report = [r for r in replies if r.kind == "report"]
    sizes = [len(r.text) for r in report]
    first = report[0]
    return {
        "bench": "mock",
        "questions": questions,
        "answers": turns,
        "llm_seconds": llm_seconds,
        "report_text_ms": round((marks["chart_start"] - marks["graded"]) * 1000, 1),
        "report_png_ms": round((marks["chart_end"] - marks["chart_start"]) * 1000, 1),
        "after_png_ms": round((ended - marks["chart_end"]) * 1000, 1),
        "statements_per_answer_median": statistics.median(per_answer[:-1]),
        "statements_per_answer_max": max(per_answer[:-1]),
        "statements_last_answer": per_answer[-1],
        "report_messages": len(report),
        "report_chars_max": max(sizes),
        "fits_telegram": all(s <= TELEGRAM_TEXT for s in sizes),
        "first_fits_caption": len(first.text) <= TELEGRAM_CAPTION,
        "fits_discord": all(s <= DISCORD_TEXT for s in sizes),
        "png_bytes": len(first.image.data) if first.image else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--llm-seconds", type=float, default=2.0)
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--quick", action="store_true", help="3 questions, an LLM of 0.1 s: seconds")
    args = parser.parse_args()
    if args.quick:
        args.questions, args.llm_seconds = 3, 0.1
    result = asyncio.run(run(args.questions, args.llm_seconds, args.lang))
    targets = {"report_text_ms": 1000, "report_png_ms": 300, "fits": "Telegram 4,096 and Discord 2,000"}
    met = result["report_text_ms"] <= 1000 and result["report_png_ms"] <= 300
    ok = bool(met and result["fits_telegram"] and result["fits_discord"])
    print(f"mock of {result['questions']} questions, {result['answers']} answers, LLM {args.llm_seconds} s each")
    print(f"debrief text {result['report_text_ms']} ms after the last grading (target 1000 ms); "
          f"PNG {result['report_png_ms']} ms more (target 300 ms)")  # fmt: skip
    print(f"database statements per answer: median {result['statements_per_answer_median']}, "
          f"max {result['statements_per_answer_max']}, the last (with the debrief) {result['statements_last_answer']}")  # fmt: skip
    print(f"debrief: {result['report_messages']} messages, longest {result['report_chars_max']} characters; "
          f"fits Telegram {result['fits_telegram']}, Discord {result['fits_discord']}; PNG {result['png_bytes']} bytes")  # fmt: skip
    result.pop("bench", None)
    context = {"quick": args.quick, "llm_seconds": result.pop("llm_seconds"), "lang": args.lang}
    print(final_line("mock", result, targets, verdict_of(ok), **context))


if __name__ == "__main__":
    main()
