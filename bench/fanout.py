"""Benchmark: N users due in the same minute, pushed through the real Telegram adapter.

The bot runs as its own process (`python -m bot run`) against the fake Bot API served here, with
python-telegram-bot's rate limiter at R messages/s and the scheduler ticking every second. Run A
measures the achieved rate against R, duplicates and missing pushes. Run B kills the bot with
SIGKILL half-way, starts it again on the same database, and counts duplicates and missing after
the restart (claims left by the killed process are taken over after SCHEDULER_STALE_SECONDS; a
push that was on the wire at the kill is "unconfirmed" and never resent: at most once, so a kill
inside that few-millisecond window shows as one missing push, never as a duplicate).

    .venv/bin/python bench/fanout.py [--users 10000] [--rate 200] [--quick]

`--quick`: 100 users at R = 100 (seconds, and two starts of the bot; the figures are not the real ones).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# import the project from the repository root, not from bench/
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bench.report import final_line, verdict_of  # noqa: E402
from bot.storage.engine import make_engines  # noqa: E402
from bot.storage.migrate import upgrade  # noqa: E402
from tests.platforms.telegram.fake_bot_api import TOKEN, FakeBotApi  # noqa: E402

CHAT0 = 50_000_000
DAILY_PREFIX = "Your daily drill"


async def make_db(path: Path, users: int) -> str:
    url = f"sqlite+aiosqlite:///{path}"
    engines = make_engines(url)
    await upgrade(engines)
    await engines.dispose()
    created = datetime(2026, 1, 1, tzinfo=UTC).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
    con = sqlite3.connect(path)
    con.executemany(
        "INSERT INTO users (id, language, timezone, daily_time, level, topics, new_per_day, desired_retention,"
        " paused, onboarded, created_at, weekly_day, dm_opt_in) VALUES (?, 'en', 'UTC', '00:00', 'engineer',"
        ' \'["stability", "pipeline"]\', 5, 0.9, 0, 1, ?, NULL, 1)',
        [(u, created) for u in range(1, users + 1)],
    )
    con.executemany(
        "INSERT INTO identities (platform, external_id, user_id) VALUES ('telegram', ?, ?)",
        [(str(CHAT0 + u), u) for u in range(1, users + 1)],
    )
    con.commit()
    con.close()
    return url


def bot_env(api: FakeBotApi, url: str, rate: float) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),  # this checkout's bot
        "DATABASE_URL": url,
        "TELEGRAM_TOKEN": TOKEN,
        "TELEGRAM_BASE_URL": api.base_url,
        "TELEGRAM_BASE_FILE_URL": api.base_file_url,
        "TELEGRAM__RATE_LIMIT": str(rate),
        "SCHEDULER_TICK_SECONDS": "1",
        "SCHEDULER_STALE_SECONDS": "3",
        "LOG_LEVEL": "WARNING",
        "LLM_MODEL": "",
        "TRANSCRIBE_BACKEND": "none",
    }


async def start_bot(env: dict[str, str], workdir: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=workdir, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=open(workdir / "bot.log", "ab"),
    )  # fmt: skip


def daily_counts(api: FakeBotApi) -> Counter[int]:
    return Counter(s.chat_id for s in api.sent if s.method == "sendMessage" and s.text.startswith(DAILY_PREFIX))


async def wait_until(check, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        await asyncio.sleep(0.2)
    return False


async def stop(proc: asyncio.subprocess.Process, sig: int = signal.SIGTERM) -> None:
    if proc.returncode is None:
        proc.send_signal(sig)
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()


async def run_a(users: int, rate: float, tmp: Path) -> dict[str, float]:
    api = await FakeBotApi().start()
    url = await make_db(tmp / "a.db", users)
    proc = await start_bot(bot_env(api, url, rate), tmp)
    budget = users / rate * 3 + 60
    await wait_until(lambda: len(daily_counts(api)) >= users, budget)
    await asyncio.sleep(2)  # let any late duplicate show up
    await stop(proc)
    counts = daily_counts(api)
    times = sorted(s.at for s in api.sent if s.method == "sendMessage")
    span = times[-1] - times[0] if len(times) > 1 else float("inf")
    achieved = (len(times) - 1) / span
    await api.stop()
    return {
        "achieved_rate": round(achieved, 1),
        "rate_ratio": round(achieved / rate, 3),
        "duplicates": sum(n - 1 for n in counts.values()),
        "missing": users - len(counts),
    }


async def run_b(users: int, rate: float, tmp: Path) -> dict[str, float]:
    api = await FakeBotApi().start()
    url = await make_db(tmp / "b.db", users)
    env = bot_env(api, url, rate)
    proc = await start_bot(env, tmp)
    await wait_until(lambda: len(daily_counts(api)) >= users // 2, users / rate * 3 + 60)
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    at_kill = len(daily_counts(api))
    proc = await start_bot(env, tmp)
    await wait_until(lambda: len(daily_counts(api)) >= users, users / rate * 3 + 60)
    await asyncio.sleep(5)  # past the stale timeout: a duplicate would show up now
    await stop(proc)
    counts = daily_counts(api)
    await api.stop()
    return {
        "delivered_before_kill": at_kill,
        "duplicates_after_restart": sum(n - 1 for n in counts.values()),
        "missing_after_restart": users - len(counts),
        "push_states_after_restart": push_states(tmp / "b.db"),
    }


def push_states(path: Path) -> dict[str, int]:
    """How the pushes ended: 'unconfirmed' ones were in flight at the SIGKILL (never resent)."""
    con = sqlite3.connect(path)
    try:
        return dict(con.execute("SELECT state, count(*) FROM pushes WHERE kind = 'daily' GROUP BY state").fetchall())
    finally:
        con.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=200.0, help="the limiter's messages per second (R)")
    parser.add_argument("--keep", default=None, help="a folder to keep the databases and the bot's log in")
    parser.add_argument("--quick", action="store_true", help="100 users at R = 100: seconds")
    args = parser.parse_args()
    if args.quick:
        args.users, args.rate = 100, 100.0
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        a = await run_a(args.users, args.rate, Path(tmp))
        print(f"run A (no crash): {a}")
        b = await run_b(args.users, args.rate, Path(tmp))
        print(f"run B (SIGKILL half-way, restart): {b}")
    ok = (
        a["rate_ratio"] >= 0.9
        and a["duplicates"] == 0
        and a["missing"] == 0
        and b["duplicates_after_restart"] == 0
        and b["missing_after_restart"] == 0
    )
    targets = {
        "rate_ratio": 0.9,
        "duplicates": 0,
        "missing": 0,
        "duplicates_after_restart": 0,
        "missing_after_restart": 0,
    }
    context = {"quick": args.quick, "users": args.users, "rate_limit": args.rate}
    print(final_line("fanout", {**a, **b}, targets, verdict_of(ok), **context))


if __name__ == "__main__":
    asyncio.run(main())
