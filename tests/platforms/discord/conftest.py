"""The Discord adapter on the real app (SQLite file, offline fakes for grading) against a fake
Discord REST server; events are fed in as raw gateway payloads."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from pydantic import SecretStr

from bot.bootstrap import App, build_app
from bot.config import Settings
from bot.kernel.bank import Bank
from bot.platforms.discord.runtime import DiscordRuntime
from bot.platforms.discord.settings import DiscordSettings
from tests.fakes import FakeClock, FakeGrader
from tests.platforms.discord.fake_discord import FakeDiscord, Recorded
from tests.sqlite_template import sqlite_url

DEV_GUILD = 700


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    url = await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{url}/api/v10")
    yield server
    await server.close()


@pytest.fixture
async def app(tmp_path: Path, bank: Bank, grader: FakeGrader, clock: FakeClock) -> AsyncIterator[App]:
    settings = Settings(database_url=sqlite_url(tmp_path), _env_file=None)  # type: ignore[call-arg]
    built = await build_app(settings, grader=grader, clock=clock, bank=bank, fuzz=False)
    yield built
    await built.close()


class Harness:
    """One logged-in bot: feed it raw events, get back the requests it made while handling them."""

    def __init__(self, runtime: DiscordRuntime, fake: FakeDiscord) -> None:
        self.runtime = runtime
        self.fake = fake
        self.client = runtime.client
        self.service = runtime.bridge.service

    async def _handled(self, feed: Callable[[], None]) -> list[Recorded]:
        """Run a parser synchronously, then wait for exactly the tasks it scheduled."""
        start = len(self.fake.requests)
        before = asyncio.all_tasks()
        feed()
        scheduled = asyncio.all_tasks() - before
        results = await asyncio.gather(*scheduled, return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        assert not errors, errors
        return self.fake.requests[start:]

    async def interact(self, payload: dict[str, Any]) -> list[Recorded]:
        return await self._handled(lambda: self.client._connection.parse_interaction_create(payload))  # type: ignore[arg-type]

    async def message(self, payload: dict[str, Any]) -> list[Recorded]:
        return await self._handled(lambda: self.client._connection.parse_message_create(payload))  # type: ignore[arg-type]

    async def user_id(self, discord_id: int) -> int:
        return (await self.service.user_for("discord", str(discord_id))).id

    async def close(self) -> None:
        await self.client.close()


Start = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def start_bot(fake: FakeDiscord, app: App) -> AsyncIterator[Start]:
    """Log a bot in (which syncs its commands); call again to simulate a restart."""
    started: list[Harness] = []

    async def start(guild_id: int | None = DEV_GUILD, sync: bool = True) -> Harness:
        settings = DiscordSettings(token=SecretStr("test-token"), guild_id=guild_id, sync_commands=sync)
        runtime = DiscordRuntime(app.service, settings)
        await runtime.client.login("test-token")
        harness = Harness(runtime, fake)
        started.append(harness)
        return harness

    yield start
    for harness in started:
        await harness.close()


@pytest.fixture
async def bot(start_bot: Start) -> Harness:
    return await start_bot()
