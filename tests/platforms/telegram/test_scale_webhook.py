"""Two replicas in webhook mode over one database (an SQLite file, and PostgreSQL when TEST_POSTGRES_URL is
set): a redelivered update is handled once whichever replica receives it; one still being handled by the
other replica is answered 503 (Telegram asks again later); one whose replica died is taken over."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from bot.bootstrap import App, build_app
from bot.config import Settings
from bot.kernel.bank import Bank
from bot.platforms.telegram.runtime import TelegramRuntime
from bot.platforms.telegram.settings import TelegramSettings
from bot.platforms.telegram.webhook import SECRET_HEADER, shared_secret
from tests.fakes import FakeClock
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import GateGrader
from tests.platforms.telegram.fake_bot_api import TOKEN, FakeBotApi
from tests.platforms.telegram.test_startup import free_port

CHAT = 4242


class Replica:
    def __init__(self, app: App, runtime: TelegramRuntime, grader: GateGrader, port: int) -> None:
        self.app, self.runtime, self.grader, self.port = app, runtime, grader, port

    async def post(self, update: dict[str, Any]) -> int:
        async with httpx.AsyncClient(timeout=20) as client:
            url, secret = f"http://127.0.0.1:{self.port}/hook", shared_secret(TOKEN)
            return (await client.post(url, json=update, headers={SECRET_HEADER: secret})).status_code


@pytest.fixture
async def two(db_url: str, bank: Bank) -> AsyncIterator[tuple[FakeBotApi, Replica, Replica, FakeClock]]:
    server, clock = await FakeBotApi().start(), FakeClock()
    replicas: list[Replica] = []
    for n in range(2):
        port = free_port()
        settings = Settings(database_url=db_url, _env_file=None)  # type: ignore[call-arg]
        settings.telegram = TelegramSettings(
            token=SecretStr(TOKEN), base_url=server.base_url, base_file_url=server.base_file_url,
            webhook_url="https://bot.example.com/hook", webhook_port=port, typing_after=30.0, progress_after=60.0,
            rate_limit=1000.0,
        )  # fmt: skip
        grader = GateGrader()
        app = await build_app(settings, grader=grader, clock=clock, bank=bank, fuzz=False, migrate=n == 0)
        runtime = TelegramRuntime(app.service, settings.telegram)
        await runtime.start()
        replicas.append(Replica(app, runtime, grader, port))
    yield server, replicas[0], replicas[1], clock
    for r in replicas:
        r.grader.gate.set()
        await r.runtime.stop()
        await r.app.close()
    await server.stop()


def _update(update_id: int, body: str) -> dict[str, Any]:
    return updates.text(CHAT, body) | {"update_id": update_id}


async def test_every_replica_sets_the_same_webhook_secret(two: tuple[FakeBotApi, Replica, Replica, FakeClock]) -> None:
    server, *_ = two
    assert server.webhook is not None and server.webhook["secret_token"] == shared_secret(TOKEN)
    assert int(server.webhook["max_connections"]) == 40


async def test_a_redelivered_update_is_handled_once_whichever_replica_gets_it(
    two: tuple[FakeBotApi, Replica, Replica, FakeClock],
) -> None:
    server, a, b, _ = two
    assert await a.post(_update(1, "/help")) == 200  # answered once handled: the reply is already sent
    assert len(server.to(CHAT)) == 1
    assert await b.post(_update(1, "/help")) == 200  # Telegram's redelivery, at the other replica: dropped
    assert await a.post(_update(1, "/help")) == 200
    assert len(server.to(CHAT)) == 1


async def test_an_update_still_being_handled_elsewhere_is_answered_503_and_graded_once(
    two: tuple[FakeBotApi, Replica, Replica, FakeClock],
) -> None:
    server, a, b, _ = two
    assert await a.post(_update(1, "/drill")) == 200
    first = asyncio.create_task(a.post(_update(2, "a slow answer")))  # replica a grades (held by its gate)
    await asyncio.wait_for(a.grader.started.wait(), 10)
    assert await b.post(_update(2, "a slow answer")) == 503  # a redelivery meanwhile: "ask again later"
    a.grader.gate.set()
    assert await asyncio.wait_for(first, 10) == 200
    assert await b.post(_update(2, "a slow answer")) == 200  # asked again: done, dropped
    user = await a.app.service.user_for("telegram", str(CHAT))
    (attempt,) = await b.app.store.list_attempts(user.id)
    assert attempt.status == "graded"
    assert sum("Score" in s.text or "score" in s.text.lower() for s in server.to(CHAT)) == 1


async def test_an_update_whose_replica_died_is_taken_over_by_the_other(
    two: tuple[FakeBotApi, Replica, Replica, FakeClock],
) -> None:
    server, a, b, clock = two
    from bot.kernel.store_ports import EventClaim

    assert await a.app.service.begin_update("telegram:5") is EventClaim.NEW  # replica a took it, then died
    assert await b.post(_update(5, "/help")) == 503  # not yet stale: it may still be at it
    assert server.to(CHAT) == []
    clock.advance(seconds=179)  # within the default three minutes
    assert await b.post(_update(5, "/help")) == 503 and server.to(CHAT) == []
    clock.advance(seconds=2)
    assert await b.post(_update(5, "/help")) == 200  # stale: taken over and handled
    assert len(server.to(CHAT)) == 1
    assert await a.post(_update(5, "/help")) == 200 and len(server.to(CHAT)) == 1
