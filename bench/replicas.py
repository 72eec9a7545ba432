"""Benchmark: replicas of `python -m bot run` in webhook mode over one PostgreSQL.

A fake Bot API (tests/platforms/telegram/fake_bot_api.py) takes the replicas' sends, and a deliverer plays
Telegram's side of the webhook: each update is POSTed to the next replica in turn (round robin), a
chat's next update only once the previous was answered 200, and an update answered otherwise (503,
a refused connection, a dropped request) is delivered again, to the next replica, after a back-off.
Each of N users first gets a question (/drill, not timed), then sends three messages in quick
succession: an answer, /help, and /drill. Reported per run:

- order violations: chats whose replies did not come as grade, help, next question;
- duplicate grades: graded attempts beyond one per user (from the database);
- lost answers: users whose answer has no graded attempt;
- throughput: the three messages of all users over the time they took (updates/s).

Runs: 1 replica; 2 replicas; 2 replicas with one killed by SIGKILL half-way (its unanswered updates
are redelivered to the other, which takes them over once their claims are stale (UPDATE_STALE_SECONDS,
and grades an interrupted answer once it is older than any grading, STUCK_AFTER: this run takes
some minutes by design).

    TEST_POSTGRES_URL=postgresql+asyncpg://... .venv/bin/python bench/replicas.py [--users 1000] [--no-kill] [--quick]

`--quick`: 20 users, the same three runs, with claims and gradings stale after 30 s instead of three minutes
(UPDATE_STALE_SECONDS, GRADING_STUCK_SECONDS), so the kill run waits seconds, not minutes; the throughput is
not the real one. The database is emptied first: give it one of its own. Not a test: figures depend on the machine (here 2 cores shared by the
replicas, PostgreSQL, the fake server and the deliverer). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

import aiohttp  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402

from bench.report import final_line, verdict_of  # noqa: E402
from bot.platforms.telegram.webhook import SECRET_HEADER, shared_secret  # noqa: E402
from tests.conftest import reset_postgres  # noqa: E402
from tests.platforms.telegram import updates  # noqa: E402
from tests.platforms.telegram.fake_bot_api import TOKEN, FakeBotApi, Sent  # noqa: E402

CHAT0 = 20_000_000
ANSWER = "clip the global gradient norm to 1.0, warm up the learning rate, check for NaN in the loss scale"
MAX_CONNECTIONS = 40  # per replica, as setWebhook's default
_ids = itertools.count(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Replica:
    def __init__(self, db_url: str, api: FakeBotApi, n: int, stale_seconds: float = 180) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM", "DISCORD", "LLM", "OPENAI"))}
        env |= {
            "ENV_FILE": "", "DATABASE_URL": db_url, "TELEGRAM_TOKEN": TOKEN, "TELEGRAM_BASE_URL": api.base_url,
            "TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{self.port}/hook", "TELEGRAM_WEBHOOK_PORT": str(self.port),
            "TELEGRAM__RATE_LIMIT": "0", "TELEGRAM__TYPING_AFTER": "30", "TELEGRAM__PROGRESS_AFTER": "60",
            "RATE_PER_MINUTE": "0", "SCHEDULER_ENABLED": "false", "LOG_LEVEL": "WARNING",
            "UPDATE_STALE_SECONDS": str(stale_seconds), "GRADING_STUCK_SECONDS": str(stale_seconds * 5 / 6),
        }  # fmt: skip
        self.log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-replica-{n}.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=ROOT, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT)  # fmt: skip
        self.url = f"http://127.0.0.1:{self.port}/hook"

    async def ready(self, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"replica exited with {self.proc.returncode}: see {self.log.name}")
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            except OSError:
                await asyncio.sleep(0.3)
        raise TimeoutError("replica did not start")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


class Telegram:
    """Telegram's side: round robin over the replicas, a chat's updates one at a time, redelivery."""

    def __init__(self, replicas: list[Replica]) -> None:
        self.replicas, self.turn = replicas, itertools.count()
        self.slots = asyncio.Semaphore(MAX_CONNECTIONS * len(replicas))
        self.redelivered = 0
        self.session: aiohttp.ClientSession | None = None

    async def deliver(self, update: dict[str, Any]) -> None:
        assert self.session is not None
        wait, headers = 0.2, {SECRET_HEADER: shared_secret(TOKEN)}
        while True:
            replica = self.replicas[next(self.turn) % len(self.replicas)]
            try:
                async with self.slots, self.session.post(replica.url, json=update, headers=headers) as resp:
                    if resp.status == 200:
                        return
            except (TimeoutError, aiohttp.ClientError):
                pass
            self.redelivered += 1
            await asyncio.sleep(wait)
            wait = min(wait * 2, 5.0)

    async def chat(self, chat_id: int, bodies: list[str], done: list[int]) -> None:
        for body in bodies:
            await self.deliver(updates.text(chat_id, body) | {"update_id": next(_ids)})
            done[0] += 1


def classify(sent: Sent) -> str | None:
    data = [d for row in sent.buttons for _, d in row]
    if any(d.startswith(("ref:", "rate:")) for d in data):  # an LLM grade, or the offline check's rating prompt
        return "grade"
    if sent.text.startswith("Commands:"):
        return "help"
    if "skip" in data:
        return "question"
    return None


async def outcome(api: FakeBotApi, db_url: str, users: int, since: int) -> dict[str, int]:
    violations = 0
    for n in range(users):
        kinds = [k for s in api.sent[since:] if s.chat_id == CHAT0 + n and (k := classify(s))]
        firsts = [kinds.index(k) if k in kinds else -1 for k in ("grade", "help", "question")]
        if not (0 <= firsts[0] < firsts[1] < firsts[2]):
            violations += 1
            texts = [s.text[:60] for s in api.sent[since:] if s.chat_id == CHAT0 + n]
            print(f"  order violation in chat {CHAT0 + n}: {kinds} <- {texts}")
    engine = create_async_engine(db_url)
    async with engine.connect() as conn:
        graded = (await conn.execute(sa.text(
            "SELECT user_id, count(*) FROM attempts WHERE status = 'graded' AND answer = :a GROUP BY user_id"
        ), {"a": ANSWER})).all()  # fmt: skip
    await engine.dispose()
    return {
        "order_violations": violations,
        "duplicate_grades": sum(c - 1 for _, c in graded),
        "lost_answers": users - len(graded),
    }


async def run(db_url: str, users: int, replicas_n: int, kill: bool, stale: float = 180) -> dict[str, Any]:
    await reset_postgres(db_url)
    api = await FakeBotApi().start()
    replicas: list[Replica] = []
    try:
        first = Replica(db_url, api, 0, stale)
        await first.ready()  # the first one migrates the empty database; then the others start
        replicas = [first] + [Replica(db_url, api, n, stale) for n in range(1, replicas_n)]
        for r in replicas[1:]:
            await r.ready()
        tg = Telegram(replicas)
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as tg.session:
            for n, r in enumerate(replicas):  # warm-up, not counted: the first grading loads the grader's models
                alone = Telegram([r])
                alone.session = tg.session
                await alone.chat(CHAT0 - 1 - n, ["/drill", "a warm-up answer"], [0])
            setup = [0]
            await asyncio.gather(*(tg.chat(CHAT0 + n, ["/drill"], setup) for n in range(users)))
            since, done = len(api.sent), [0]
            start = time.monotonic()
            chats = [asyncio.create_task(tg.chat(CHAT0 + n, [ANSWER, "/help", "/drill"], done)) for n in range(users)]
            killed_at = None
            if kill:
                while done[0] < users * 3 // 2:
                    await asyncio.sleep(0.01)
                replicas[0].kill()
                killed_at = done[0]
            await asyncio.gather(*chats)
            elapsed = time.monotonic() - start
        result = await outcome(api, db_url, users, since)
        return {
            "replicas": replicas_n, "killed": kill, "killed_after_updates": killed_at, **result,
            "seconds": round(elapsed, 2), "updates_per_s": round(users * 3 / elapsed, 1),
            "redeliveries": tg.redelivered,
        }  # fmt: skip
    finally:
        for r in replicas:
            r.stop()
        await api.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--no-kill", action="store_true", help="skip the run with a replica killed half-way")
    parser.add_argument("--database-url", default=os.environ.get("TEST_POSTGRES_URL"))
    parser.add_argument("--quick", action="store_true", help="20 users, the same runs, claims stale after 30 s")
    args = parser.parse_args()
    stale = 180.0  # the replicas' own default: a claim or a grading left this long by a replica now gone
    if args.quick:
        args.users, stale = 20, 30.0
    targets = {"order_violations": 0, "duplicate_grades": 0, "lost_answers": 0}
    if not args.database_url or not args.database_url.startswith("postgresql"):
        reason = "needs a PostgreSQL database to empty: --database-url or TEST_POSTGRES_URL"
        print(f"not run: {reason}")
        print(final_line("replicas", {}, targets, f"skipped: {reason}", quick=args.quick, users=args.users))
        return
    runs = [await run(args.database_url, args.users, n, False, stale) for n in (1, 2)]
    if not args.no_kill:
        runs.append(await run(args.database_url, args.users, 2, True, stale))
    for r in runs:
        print(f"{r['replicas']} replica(s){' (one killed half-way)' if r['killed'] else ''}: order violations "
              f"{r['order_violations']}, duplicate grades {r['duplicate_grades']}, lost answers {r['lost_answers']}; "
              f"{r['updates_per_s']} updates/s over {r['seconds']} s, {r['redeliveries']} redeliveries")  # fmt: skip
    ok = all(r["order_violations"] == r["duplicate_grades"] == r["lost_answers"] == 0 for r in runs)
    ratio = runs[1]["updates_per_s"] / runs[0]["updates_per_s"] if runs[0]["updates_per_s"] else None
    totals = {k: sum(r[k] for r in runs) for k in targets}  # over every run: the targets hold in each
    figures = {**totals, "throughput_2_vs_1": ratio and round(ratio, 2), "runs": runs}
    print(final_line("replicas", figures, targets, verdict_of(ok), quick=args.quick, users=args.users))


if __name__ == "__main__":
    asyncio.run(main())
