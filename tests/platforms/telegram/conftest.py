"""The Telegram harness: a fake Bot API server, the real app on SQLite, and the real TelegramRuntime
(python-telegram-bot unmodified) polling the fake server through TELEGRAM_BASE_URL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from telegram.ext import TypeHandler

from bot.bootstrap import App, build_app
from bot.config import Settings
from bot.kernel.bank import Bank
from bot.kernel.models import Grade, Lang, Level, Question
from bot.platforms.telegram.runtime import TelegramRuntime
from bot.platforms.telegram.settings import TelegramSettings
from tests.fakes import FakeClock, FakeGrader
from tests.platforms.telegram import updates
from tests.platforms.telegram.fake_bot_api import TOKEN, FakeBotApi, Sent
from tests.sqlite_template import sqlite_url


class GateGrader(FakeGrader):
    """FakeGrader whose answers containing 'slow' wait for `gate`; feedback can be replaced."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.started = asyncio.Event()
        self.feedback: str | None = None

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        if "slow" in answer:
            self.started.set()
            await self.gate.wait()
        grade = await super().grade(question, answer, lang, level)
        if self.feedback is not None:
            grade = grade.model_copy(update={"feedback": self.feedback, "follow_up": self.feedback[:200]})
        return grade


class Harness:
    def __init__(self, server: FakeBotApi, app: App, runtime: TelegramRuntime, grader: GateGrader) -> None:
        self.server, self.app, self.runtime, self.grader = server, app, runtime, grader
        self.done: dict[int, asyncio.Event] = {}
        handler = runtime.application.handlers[0][0]
        assert isinstance(handler, TypeHandler)
        inner = handler.callback

        async def recorded(update: Any, context: Any) -> None:
            try:
                await inner(update, context)
            finally:
                self._event(update.update_id).set()

        handler.callback = recorded

    def _event(self, update_id: int) -> asyncio.Event:
        return self.done.setdefault(update_id, asyncio.Event())

    async def deliver(self, *payloads: dict[str, Any], within: float = 10) -> list[Sent]:
        """Push updates and wait until the bot has handled each (a failure after `within` seconds, a bound
        rather than a pause: a real transcription on a busy machine takes longer); returns what it sent."""
        before = len(self.server.sent)
        ids = self.server.push(*payloads)
        for update_id in ids:
            await asyncio.wait_for(self._event(update_id).wait(), within)
        return [s for s in self.server.sent[before:] if s.method != "sendChatAction"]

    async def say(self, chat_id: int, body: str, language_code: str = "en") -> list[Sent]:
        return await self.deliver(updates.text(chat_id, body, language_code))

    async def press(self, chat_id: int, action: str) -> list[Sent]:
        return await self.deliver(updates.button(chat_id, action))

    async def user_id(self, chat_id: int) -> int:
        return (await self.app.service.user_for("telegram", str(chat_id))).id


MakeHarness = Callable[..., Awaitable[Harness]]


@pytest.fixture
async def make_telegram(tmp_path: Path, bank: Bank) -> AsyncIterator[MakeHarness]:
    """Builds a running harness; keyword arguments override TelegramSettings (`grader`: another grader,
    `database_url`: another database than a fresh SQLite file, `config`: Settings fields by name)."""
    started: list[Harness] = []

    async def make(
        grader: Any = None, database_url: str | None = None, config: dict[str, Any] | None = None, **overrides: Any
    ) -> Harness:
        server = await FakeBotApi().start()
        url = database_url or sqlite_url(tmp_path)
        settings = Settings(database_url=url, _env_file=None, **(config or {}))  # type: ignore[call-arg]
        options: dict[str, Any] = {
            "token": SecretStr(TOKEN),
            "base_url": server.base_url,
            "base_file_url": server.base_file_url,
            "typing_after": 30.0,
            "progress_after": 60.0,
            "concurrent_updates": 16,
            "rate_limit": 1000.0,
            "max_retries": 2,
            **overrides,
        }
        settings.telegram = TelegramSettings(**options)
        grader = grader or GateGrader()
        app = await build_app(settings, grader=grader, clock=FakeClock(), bank=bank, fuzz=False)
        runtime = TelegramRuntime(app.service, settings.telegram)
        harness = Harness(server, app, runtime, grader)
        started.append(harness)
        await runtime.start()
        return harness

    yield make
    for h in started:
        if isinstance(h.grader, GateGrader):
            h.grader.gate.set()
        await h.runtime.stop()
        await h.app.close()
        await h.server.stop()


@pytest.fixture
async def tg(make_telegram: MakeHarness) -> Harness:
    return await make_telegram()
