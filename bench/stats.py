"""Benchmark: /stats for a user with two years of daily history (figures, chart, end to end).

Simulates 730 days of drilling on the real question bank (a few reviews most days, some days
missed, FSRS states from real reviews, scores that improve with practice, interviews logged with
/review), then times: the figures alone (compute_progress), the chart alone (the matplotlib
renderer, after one warm-up render that loads the fonts), and the whole /stats reply on an SQLite
store (read the history, compute, render). Not a test: figures depend on the machine.

    .venv/bin/python bench/stats.py [--days 730] [--samples 60] [--out progress.png] [--quick]

`--quick`: 60 days, 3 samples (seconds; the figures are not the real ones).
"""

from __future__ import annotations

import sys
from pathlib import Path

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bench.report import final_line, verdict_of
from bot.charts import MatplotlibChartRenderer
from bot.content.loader import DEFAULT_CONTENT_DIR, load_bank
from bot.features.deps import Deps, Limits
from bot.features.stats import report
from bot.features.stats.chart_data import ProgressData
from bot.features.stats.progress import compute_progress
from bot.grading.chain import GradingChain
from bot.grading.offline import OfflineGrader
from bot.kernel import srs
from bot.kernel.bank import Bank
from bot.kernel.inject import build
from bot.kernel.models import DIMENSIONS, Attempt, Card, Grade, InterviewLog, Question, ReviewItem, User
from bot.kernel.scoring import rating_from_score
from bot.shipped_bank import use_shipped_weights
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
TARGET_MS = 300
RETENTION = 0.9  # the default desired retention (DESIGN.md 5)
COMPANIES = ("ByteDance", "Moonshot", "Alibaba", "DeepSeek", "Zhipu")


class FixedClock:
    def now(self) -> datetime:
        return NOW


class History:
    def __init__(self) -> None:
        self.user = User(id=1, language="zh", timezone="Asia/Shanghai", onboarded=True, created_at=NOW)
        self.cards: dict[str, Card] = {}
        self.attempts: list[Attempt] = []
        self.interviews: list[InterviewLog] = []
        self.items: list[ReviewItem] = []


def simulate(questions: list[Question], days: int, seed: int = 7) -> History:
    """`days` of drilling: due cards first, two new a day, 1 day in 8 missed; skill grows with practice."""
    rng = random.Random(seed)
    h = History()
    skill = {q.subtopic: rng.uniform(35, 60) for q in questions}
    pool = list(questions)
    rng.shuffle(pool)
    start = NOW - timedelta(days=days)
    for day in range(days):
        if rng.random() < 0.125:
            continue
        when = start + timedelta(days=day, hours=rng.uniform(0, 12))
        due = sorted((c for c in h.cards.values() if c.due <= when), key=lambda c: c.due)[:6]
        for _ in range(2):
            if pool:
                q = pool.pop()
                card = Card(id=len(h.cards) + 1, user_id=1, question_id=q.id, fsrs=srs.new_state(when), due=when,
                            created_at=when)  # fmt: skip
                h.cards[q.id] = card
                due.append(card)
        for card in due:
            q = next(x for x in questions if x.id == card.question_id)
            score = max(0, min(100, round(rng.gauss(skill[q.subtopic], 12))))
            skill[q.subtopic] = min(92.0, skill[q.subtopic] + 0.4)
            rating = rating_from_score(score)
            state, next_due = srs.review(dict(card.fsrs), rating, when, RETENTION, fuzz=False)
            h.cards[q.id] = card.model_copy(update={"fsrs": state, "due": next_due, "is_new": False})
            grade = Grade(score=score, dimensions={d: score for d in DIMENSIONS}, grader="offline")
            h.attempts.append(
                Attempt(id=len(h.attempts) + 1, user_id=1, card_id=card.id, question_id=q.id, answer="...",
                        status="graded", grade=grade, rating=int(rating), created_at=when, graded_at=when)
            )  # fmt: skip
            when += timedelta(minutes=rng.uniform(3, 15))
        if day % 70 == 35:
            company = rng.choice(COMPANIES)
            h.interviews.append(InterviewLog(id=len(h.interviews) + 1, user_id=1, company=company, at=when,
                                             created_at=when))  # fmt: skip
            for q in rng.sample(questions, 3):
                h.items.append(
                    ReviewItem(id=len(h.items) + 1, user_id=1, company=company, question_text=q.prompt.zh,
                               question_id=q.id, matched_bank=True, topic=q.topic, subtopic=q.subtopic,
                               created_at=when)
                )  # fmt: skip
    return h


def timed(fn: Callable[[], object], samples: int) -> list[float]:
    out = []
    for _ in range(samples):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(name: str, ms: list[float]) -> dict[str, float]:
    return {f"{name}_median_ms": round(statistics.median(ms), 1), f"{name}_p99_ms": round(pct(ms, 0.99), 1)}


async def end_to_end(
    h: History, bank: Bank, charts: MatplotlibChartRenderer, samples: int
) -> tuple[list[float], list[float]]:
    """On an SQLite store holding the simulated history: reading it and computing the figures
    (build_progress), and the whole /stats reply (that, the text and the chart)."""
    with tempfile.TemporaryDirectory() as tmp:
        engines = make_engines(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        await upgrade(engines)
        store = SqlStore(engines)
        user = await store.get_or_create_user("bench", "1", h.user)
        ids = {}
        for card in h.cards.values():
            saved = await store.create_card(user.id, card.question_id, card.fsrs, card.due, False, card.created_at)
            ids[card.id] = saved.id
        for a in h.attempts:
            await store.add_attempt(a.model_copy(update={"user_id": user.id, "card_id": ids[a.card_id or 0]}))
        for log in h.interviews:
            await store.add_interview(log.model_copy(update={"user_id": user.id}))
        for item in h.items:
            await store.add_review_item(item.model_copy(update={"user_id": user.id}))
        deps = Deps(
            store=store,
            bank=bank,
            grader=GradingChain(OfflineGrader()),
            clock=FixedClock(),
            limits=Limits(),
            charts=charts,
        )
        history = build(report.History, deps.provided())
        read, whole = [], []
        for _ in range(samples):
            t0 = time.perf_counter()
            await report.build_progress(history, user)
            t1 = time.perf_counter()
            reply = await report.progress_reply(history, user)
            whole.append((time.perf_counter() - t1) * 1000)
            read.append((t1 - t0) * 1000)
            assert reply is not None and reply.image is not None
        await engines.dispose()
    return read, whole


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=730)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--out", type=Path, default=None, help="also save the chart here")
    parser.add_argument("--quick", action="store_true", help="60 days, 3 samples: seconds, not the real figures")
    args = parser.parse_args()
    if args.quick:
        args.days, args.samples = 60, 3
    bank = Bank(load_bank(DEFAULT_CONTENT_DIR).questions)
    t0 = time.perf_counter()
    h = simulate(bank.all(), args.days)
    print(f"simulated {args.days} days: {len(h.attempts)} reviews, {len(h.cards)} cards, "
          f"{len(h.interviews)} interviews, {len(h.items)} interview questions in {time.perf_counter() - t0:.1f} s")  # fmt: skip
    questions: dict[str, Question | None] = {q.id: q for q in bank.all()}
    cards = list(h.cards.values())

    def compute() -> ProgressData:
        return compute_progress(h.user, NOW, h.attempts, cards, questions, h.interviews, h.items)

    data = compute()
    charts = MatplotlibChartRenderer()
    t0 = time.perf_counter()
    png = charts.render(data, "zh")
    cold_ms = (time.perf_counter() - t0) * 1000
    if args.out:
        args.out.write_bytes(png)
        print(f"chart saved to {args.out} ({len(png) / 1000:.0f} kB)")
    figures = {
        **summary("compute", timed(compute, args.samples)),
        **summary("render", timed(lambda: charts.render(data, "zh"), args.samples)),
        "render_first_ms": round(cold_ms, 1),
    }
    read, whole = asyncio.run(end_to_end(h, bank, charts, max(3, args.samples // 3)))
    figures |= summary("sqlite_build_progress", read) | summary("stats_reply", whole)
    for k, v in figures.items():
        print(f"{k}: {v}")
    ok = figures["render_p99_ms"] < TARGET_MS
    context = {"quick": args.quick, "days": args.days, "reviews": len(h.attempts), "cards": len(cards)}
    print(final_line("stats", figures, {"render_p99_ms": TARGET_MS}, verdict_of(ok), **context))


if __name__ == "__main__":
    main()
