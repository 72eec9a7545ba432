"""Benchmark: what the /jd focus adds to picking a new question, on SQLite: SqlStore.active_jd (the one extra
read /drill and the daily push make, only when a new question is picked) beside SqlStore.next_due_card,
10,000 users x 300 cards, each user with 3 job descriptions of which one is active. Not a test: figures
depend on the machine.

    .venv/bin/python bench/focus_read.py [--users 10000] [--cards 300] [--samples 2000] [--quick]

Target: active_jd's p99 under 5 ms, the card queue's bar for the next-question query it is read beside.
`--quick`: 200 users x 30 cards, 100 samples (seconds; the figures are not the real ones).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.report import final_line, verdict_of
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore

HERE = Path(__file__).resolve().parent
TARGET_P99_MS = 5.0
_spec = importlib.util.spec_from_file_location("card_queue_bench", HERE / "card_queue.py")
assert _spec is not None and _spec.loader is not None
card_queue = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(card_queue)
NOW = card_queue.NOW


def add_jds(path: Path, users: int) -> None:
    con = sqlite3.connect(path)
    fmt = "%Y-%m-%d %H:%M:%S.%f"
    created = (NOW - timedelta(days=30)).replace(tzinfo=None).strftime(fmt)
    active = (NOW + timedelta(days=14)).replace(tzinfo=None).strftime(fmt)
    data = json.dumps({"text": "x" * 3000, "subtopics": ["rlhf", "memory", "parallelism"], "skills": ["RLHF"] * 8})
    rows = [(u, data, active if k == 2 else None, created) for u in range(1, users + 1) for k in range(3)]
    con.executemany("INSERT INTO job_descriptions (user_id, data, active_until, created_at) VALUES (?, ?, ?, ?)", rows)
    con.commit()
    con.execute("ANALYZE")
    con.close()


async def measure(url: str, users: int, samples: int) -> dict[str, float]:
    engines = make_engines(url)
    store = SqlStore(engines)
    rng = random.Random(11)
    due_ms, jd_ms = [], []
    for i in range(samples + 50):
        uid = rng.randint(1, users)
        t0 = time.perf_counter()
        await store.next_due_card(uid, NOW)
        t1 = time.perf_counter()
        jd = await store.active_jd(uid, NOW)
        t2 = time.perf_counter()
        assert jd is not None and jd.subtopics
        if i >= 50:  # warm-up excluded
            due_ms.append((t1 - t0) * 1000)
            jd_ms.append((t2 - t1) * 1000)
    await engines.dispose()
    return {
        "next_due_median_ms": round(statistics.median(due_ms), 3),
        "next_due_p99_ms": round(card_queue.pct(due_ms, 0.99), 3),
        "active_jd_median_ms": round(statistics.median(jd_ms), 3),
        "active_jd_p99_ms": round(card_queue.pct(jd_ms, 0.99), 3),
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
        card_queue.populate(path, args.users, args.cards)
        add_jds(path, args.users)
        figures = await measure(url, args.users, args.samples)
    figures["active_jd_over_next_due_p99"] = round(
        figures["active_jd_p99_ms"] / max(figures["next_due_p99_ms"], 1e-9), 2
    )
    targets = {"active_jd_p99_ms": TARGET_P99_MS}
    context = {"quick": args.quick, "users": args.users, "cards_per_user": args.cards}
    ok = figures["active_jd_p99_ms"] < TARGET_P99_MS
    print(final_line("focus_read", figures, targets, verdict_of(ok), **context))


if __name__ == "__main__":
    asyncio.run(main())
