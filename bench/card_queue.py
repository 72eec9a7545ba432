"""Benchmark: the next-question query and the answer write on SQLite, 10,000 users x 300 cards.

Populates a fresh SQLite file (schema from the Alembic migrations, rows bulk-inserted with
sqlite3), then times SqlStore.next_due_card and the answer write (store the attempt, then write
the grade and the rescheduled card) for random users. Not a test: figures depend on the machine.

    .venv/bin/python bench/card_queue.py [--users 10000] [--cards 300] [--samples 2000] [--quick]

`--quick`: 200 users x 30 cards, 100 samples (seconds; the figures are not the real ones).
"""

from __future__ import annotations

import sys
from pathlib import Path

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta

from bench.report import final_line, verdict_of
from bot.kernel import srs
from bot.kernel.models import Attempt, Grade, Rating
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def populate(path: Path, users: int, cards: int) -> None:
    rng = random.Random(7)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    fmt = "%Y-%m-%d %H:%M:%S.%f"
    created = (NOW - timedelta(days=200)).replace(tzinfo=None).strftime(fmt)
    con.executemany(
        "INSERT INTO users (id, language, timezone, daily_time, level, topics, new_per_day, desired_retention,"
        " paused, onboarded, created_at) VALUES (?, 'en', 'UTC', '09:00', 'engineer', '[\"stability\"]', 5, 0.9,"
        " 0, 1, ?)",
        [(u, created) for u in range(1, users + 1)],
    )
    state = json.dumps(srs.new_state(NOW))
    for u in range(1, users + 1):
        rows = []
        for c in range(cards):
            due = (NOW + timedelta(days=rng.uniform(-30, 60))).replace(tzinfo=None).strftime(fmt)
            rows.append((u, f"q-{c:04d}", state, due, 0, 0, 0, created))
        con.executemany(
            "INSERT INTO cards (user_id, question_id, fsrs, due, suspended, is_new, personal, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        if u % 1000 == 0:
            con.commit()
    con.commit()
    con.execute("ANALYZE")
    con.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(url: str, users: int, samples: int) -> dict[str, float]:
    engines = make_engines(url)
    store = SqlStore(engines)
    rng = random.Random(11)
    query_ms, write_ms = [], []
    grade = Grade(score=72, dimensions={"coverage": 72, "structure": 70}, feedback="ok", grader="offline")
    for i in range(samples + 50):
        uid = rng.randint(1, users)
        t0 = time.perf_counter()
        card = await store.next_due_card(uid, NOW)
        t1 = time.perf_counter()
        assert card is not None
        state, due = srs.review(card.fsrs, Rating.GOOD, NOW, 0.9, False)
        t2 = time.perf_counter()
        attempt = await store.add_attempt(
            Attempt(id=0, user_id=uid, card_id=card.id, question_id=card.question_id, answer="x" * 800,
                    card_before=card.fsrs, created_at=NOW)
        )  # fmt: skip
        await store.finish_attempt(
            attempt.model_copy(update={"status": "graded", "grade": grade, "rating": 3, "graded_at": NOW}),
            card.model_copy(update={"fsrs": state, "due": due, "is_new": False}),
        )
        t3 = time.perf_counter()
        if i >= 50:  # warm-up excluded
            query_ms.append((t1 - t0) * 1000)
            write_ms.append((t3 - t2) * 1000)
    await engines.dispose()
    return {
        "query_median_ms": round(statistics.median(query_ms), 3),
        "query_p99_ms": round(pct(query_ms, 0.99), 3),
        "write_median_ms": round(statistics.median(write_ms), 3),
        "write_p99_ms": round(pct(write_ms, 0.99), 3),
    }


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--cards", type=int, default=300)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="200 users x 30 cards, 100 samples: seconds")
    args = parser.parse_args()
    if args.quick:
        args.users, args.cards, args.samples = 200, 30, 100
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        url = f"sqlite+aiosqlite:///{path}"
        engines = make_engines(url)
        await upgrade(engines)
        await engines.dispose()
        t0 = time.perf_counter()
        populate(path, args.users, args.cards)
        print(f"populated {args.users} users x {args.cards} cards in {time.perf_counter() - t0:.1f} s "
              f"({path.stat().st_size / 1e6:.0f} MB)")  # fmt: skip
        figures = await measure(url, args.users, args.samples)
    for k, v in figures.items():
        print(f"{k}: {v}")
    targets = {"query_p99_ms": 5, "write_p99_ms": 20}
    ok = all(figures[k] < target for k, target in targets.items())
    context = {"quick": args.quick, "users": args.users, "cards_per_user": args.cards}
    print(final_line("queue", figures, targets, verdict_of(ok), **context))


if __name__ == "__main__":
    asyncio.run(main())
