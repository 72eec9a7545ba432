"""Benchmark: N Discord members answer at the same moment; grading takes L seconds.

The bot is the real app (SQLite file, Alembic schema) with the real DiscordRuntime and discord.py,
logged in to the fake Discord REST server of tests/discord (same process, on 127.0.0.1); events
are fed as raw gateway payloads, as the gateway would deliver them. Each member first gets a
question (/drill, not timed); then all N /answer interactions arrive at once. Reported: the time
to acknowledge (defer) each interaction, which Discord requires within 3 s, and the added latency
of the graded follow-up (arrival minus L), at p50 / p99, and the total time / L.

    .venv/bin/python bench/discord_interactions.py [--users 500] [--latency 2]

Not a test: figures depend on the machine. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# import the project from the repository root, not from bench/
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

import discord  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from bot.bootstrap import build_app  # noqa: E402
from bot.config import DiscordSettings, Settings  # noqa: E402
from bot.core.models import Grade, Lang, Level, Question  # noqa: E402
from bot.platforms.discord.runtime import DiscordRuntime  # noqa: E402
from tests.discord import payloads  # noqa: E402
from tests.discord.fake_discord import FakeDiscord  # noqa: E402
from tests.fakes import FakeGrader  # noqa: E402

DEADLINE_S = 3.0


class SlowGrader(FakeGrader):
    """An LLM grader's latency without the LLM."""

    def __init__(self, latency: float) -> None:
        super().__init__()
        self.latency = latency

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        await asyncio.sleep(self.latency)
        return await super().grade(question, answer, lang, level)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(users: int, latency: float) -> dict[str, object]:
    fake = FakeDiscord()
    url = await fake.start()
    discord.http.Route.BASE = f"{url}/api/v10"
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp}/bot.db", _env_file=None)  # type: ignore[call-arg]
        app = await build_app(settings, grader=SlowGrader(latency))
        runtime = DiscordRuntime(app.service, DiscordSettings(token=SecretStr("bench"), sync_commands=False))
        await runtime.client.login("bench")
        state = runtime.client._connection

        async def feed(batch: list[dict[str, object]]) -> None:
            before = asyncio.all_tasks()
            for payload in batch:
                state.parse_interaction_create(payload)  # type: ignore[arg-type]
            await asyncio.gather(*(asyncio.all_tasks() - before))

        await feed([payloads.command("drill", user_id=10_000 + i) for i in range(users)])
        answers = [
            payloads.command(
                "answer", user_id=10_000 + i, text="I check the data, then the gradient norm, then the LR."
            )
            for i in range(users)
        ]
        start_requests = len(fake.requests)
        t0 = time.perf_counter()
        await feed(answers)
        total = time.perf_counter() - t0
        done = fake.requests[start_requests:]
        acks = [r.at - t0 for r in done if r.path.endswith("/callback")]
        replies = [r.at - t0 - latency for r in done if "/webhooks/" in r.path]
        await runtime.client.close()
        await app.close()
    await fake.close()
    graded = sum(1 for r in done if "/webhooks/" in r.path and "/100" in r.content)
    return {
        "users": users,
        "grading_latency_s": latency,
        "graded": graded,
        "ack_p50_s": round(statistics.median(acks), 3),
        "ack_p99_s": round(pct(acks, 0.99), 3),
        "reply_added_p50_s": round(statistics.median(replies), 3),
        "reply_added_p99_s": round(pct(replies, 0.99), 3),
        "total_over_latency": round(total / latency, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=500)
    parser.add_argument("--latency", type=float, default=2.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    figures = asyncio.run(run(args.users, args.latency))
    for key, value in figures.items():
        print(f"{key:>22}: {value}")
    targets = {"ack_p99_s": DEADLINE_S, "graded": args.users}
    ok = figures["ack_p99_s"] < DEADLINE_S and figures["graded"] == args.users  # type: ignore[operator]
    print(
        json.dumps({"bench": "discord_interactions", **figures, "targets": targets, "verdict": "ok" if ok else "fail"})
    )


if __name__ == "__main__":
    main()
