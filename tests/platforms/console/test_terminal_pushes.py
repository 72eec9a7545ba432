"""Pushes in the terminal chat (issue #36, item 1): the replies that promise a push say where it arrives, and the
push arrives: printed between prompts while the chat is open, and at the next start when it came due while the
chat was closed, once, with the time it was due. The real console adapter, the real dispatcher and scheduler (as
bot/runner.py wires them for the terminal), a real SQLite file and an injected clock."""

from __future__ import annotations

import asyncio
import queue
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app, build_scheduler
from bot.delivery import NotifierRouter
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from bot.platforms.console.chat import run_console
from bot.scheduling.scheduler import Scheduler
from tests.bot_env import bot_env
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for
from tests.sqlite_template import sqlite_url

START = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)  # 09:00 on Monday 2 March in Shanghai
CAVEAT = {
    "en": "arrive while this chat is open; one due while it is closed comes when you next start it. On Telegram/Discord",
    "zh": "只在聊天开着时送达；关着时到期的，会在你下次启动时送达。在 Telegram/Discord 上随时送达",
}
INTERVIEW_PUSH = {"en": "How did your interview at Acme go?", "zh": "Acme 的面试怎么样？"}
APPS_PUSH = {"en": "Time to follow up on #1 Acme", "zh": "该跟进 #1 Acme 了"}
DAILY_PUSH = {"en": "Your daily drill:", "zh": "今日练习："}
LATE = {"en": "(This was due at 2026-03-03 16:00.)", "zh": "（这条原定 2026-03-03 16:00 送达。）"}


class Keyboard:
    """Standard input as a terminal someone types at: a read waits until the test types the next line."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str] = queue.Queue()

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.lines.get(timeout=60)

    def type(self, line: str) -> None:
        self.lines.put(line + "\n")


class Screen(StringIO):
    """The terminal's output; `prompted` is set each time the prompt is written (the chat waits for a line)."""

    def __init__(self) -> None:
        super().__init__()
        self.prompted = asyncio.Event()

    def write(self, text: str) -> int:
        if text.endswith("> "):
            self.prompted.set()
        return super().write(text)

    async def next_prompt(self) -> str:
        """Everything printed up to the next prompt."""
        await asyncio.wait_for(self.prompted.wait(), 60)
        self.prompted.clear()
        return self.getvalue()


class Terminal:
    """An interactive terminal chat with the scheduler the runner gives it; the test types and ticks."""

    def __init__(self, app: App, exports: Path) -> None:
        self.app, self.keyboard, self.screen = app, Keyboard(), Screen()
        router = NotifierRouter(app.store)
        self.scheduler: Scheduler = build_scheduler(app, router, app.settings, pushes=True, only_reachable=True)
        chat = run_console(app.service, "local", self.keyboard, self.screen, exports, None, router)  # type: ignore[arg-type]
        self.task = asyncio.ensure_future(chat)

    async def send(self, line: str) -> str:
        """Type a line; what was printed for it (up to the next prompt)."""
        before = len(self.screen.getvalue())
        self.keyboard.type(line)
        return (await self.screen.next_prompt())[before:]

    async def tick(self) -> str:
        """One scheduler round while the prompt waits; what it printed."""
        before = len(self.screen.getvalue())
        await self.scheduler.tick()
        self.screen.prompted.clear()  # the prompt a push shows again is the one already waiting
        return self.screen.getvalue()[before:]

    async def quit(self) -> None:
        self.keyboard.type("/quit")
        await asyncio.wait_for(self.task, 60)


@pytest.fixture
async def app(tmp_path: Path, bank: Bank) -> AsyncIterator[App]:
    a = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(START), bank=bank, fuzz=False)
    yield a
    await a.close()


def clock(app: App) -> FakeClock:
    c = app.service.deps.clock
    assert isinstance(c, FakeClock)
    return c


ONBOARD = {"en": ["/start", "1", "2", "3", "Asia/Shanghai", "20:00"], "zh": ["/start", "2", "2", "3", "上海", "20:00"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_terminal_session_gets_its_interview_and_apps_reminders_when_they_come(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    term = Terminal(app, tmp_path / "exports")
    await term.screen.next_prompt()
    for line in ONBOARD[lang][:-1]:
        await term.send(line)
    onboarded = await term.send(ONBOARD[lang][-1])
    assert CAVEAT[lang] in onboarded  # the daily drill's promise says where it is kept
    logged = await term.send("/interview Acme | MLE | 2026-03-03 14:00")
    assert CAVEAT[lang] in logged
    await term.send("/apps add Acme | MLE")
    reminded = await term.send("/apps 1 remind 2")
    assert CAVEAT[lang] in reminded and "2026-03-04 20:00" in reminded
    assert await term.tick() == ""  # nothing due yet (today's 20:00 drill is hours away)

    clock(app).current = datetime(2026, 3, 3, 8, 1, tzinfo=UTC)  # 16:01 in Shanghai: two hours after the interview
    pushed = await term.tick()
    assert pushed.startswith("\n") and INTERVIEW_PUSH[lang] in pushed  # a fresh line under the waiting prompt
    assert pushed.endswith("> ") and LATE[lang] not in pushed  # the prompt again; on time, so no "was due"
    assert await term.tick() == ""  # once

    clock(app).current = datetime(2026, 3, 4, 12, 0, 30, tzinfo=UTC)  # 20:00:30 on 4 March in Shanghai
    pushed = await term.tick()
    assert APPS_PUSH[lang] in pushed and DAILY_PUSH[lang] in pushed and pushed.endswith("> ")
    assert await term.tick() == ""
    skipped = await term.send("#1")  # the daily drill's buttons are the menu now: [#1] presses Skip
    assert ("Skipped" if lang == "en" else "已跳过") in skipped
    await term.quit()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_push_due_while_the_chat_was_closed_comes_at_the_next_start_once_with_its_time(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    user = await app.service.user_for("console", "local", lang)
    await app.store.save_user(user.model_copy(update={"timezone": "Asia/Shanghai", "onboarded": True}))

    async def session(*lines: str) -> str:
        """A piped chat, started the way the runner starts it: one round of pushes, then the scheduler."""
        router = NotifierRouter(app.store)
        scheduler = build_scheduler(app, router, app.settings, pushes=True, only_reachable=True)
        out = StringIO()
        await run_console(app.service, "local", StringIO("\n".join(lines) + "\n"), out, tmp_path, None, router,
                          on_ready=scheduler.tick)  # fmt: skip
        return out.getvalue()

    first = await session("/interview Acme | MLE | 2026-03-03 14:00")
    assert INTERVIEW_PUSH[lang] not in first
    clock(app).current = datetime(2026, 3, 4, 0, 30, tzinfo=UTC)  # 08:30 the next day: the chat was closed at 16:00
    second = await session("/help")
    before, _, after = second.partition("> /help")
    assert INTERVIEW_PUSH[lang] in before and LATE[lang] in before  # before the first message, with its time
    assert INTERVIEW_PUSH[lang] not in after
    third = await session("/help")
    assert INTERVIEW_PUSH[lang] not in third  # once


async def test_another_terminal_users_pushes_wait_for_them(app: App, tmp_path: Path) -> None:
    """The terminal pushes only to the user chatting: someone else's reminder (another `chat --user`, or a
    Telegram user on the same file) is neither shown here nor used up."""
    for name in ("local", "bob"):
        user = await app.service.user_for("console", name)
        await app.store.save_user(user.model_copy(update={"onboarded": True, "daily_time": "23:59"}))
        await app.service.handle_text(user.id, "/interview Acme | MLE | 2026-03-02 10:00")
    clock(app).advance(hours=12)  # 13:00: an hour past both reminders
    router = NotifierRouter(app.store)
    scheduler = build_scheduler(app, router, app.settings, pushes=True, only_reachable=True)
    out = StringIO()
    await run_console(app.service, "local", StringIO("/help\n"), out, tmp_path, None, router, on_ready=scheduler.tick)
    assert out.getvalue().count(INTERVIEW_PUSH["en"]) == 1
    bob = await app.service.user_for("console", "bob")
    (waiting,) = [r for r in await app.store.list_reminders(bob.id) if r.kind == "post_interview"]
    assert waiting.state == "pending"


def test_the_terminal_command_shows_a_reminder_that_came_due_while_it_was_closed(tmp_path: Path, bank: Bank) -> None:
    """`python -m bot chat`, as a user runs it: a reminder that came due while no chat was open is shown when the
    next one starts, with its time, and not again at the start after."""
    db = sqlite_url(tmp_path)

    async def log_interview() -> None:  # two days ago by the wall clock, logged while it was ahead
        a = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(datetime.now(UTC) -
                            timedelta(days=3)), bank=bank, fuzz=False)  # fmt: skip
        uid = (await a.service.user_for("console", "local")).id
        await a.store.save_user((await a.store.get_user(uid)).model_copy(update={"onboarded": True}))  # type: ignore[union-attr]
        when = (datetime.now(UTC) - timedelta(days=2)).strftime("%Y-%m-%d %H:%M")
        await a.service.handle_text(uid, f"/interview Acme | MLE | {when}")
        await a.close()

    asyncio.run(log_interview())
    env = bot_env(DATABASE_URL=db, LOG_LEVEL="WARNING")
    command = [sys.executable, "-m", "bot", "chat"]
    runs = [subprocess.run(command, input="/help\n", capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
            for _ in range(2)]  # fmt: skip
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    first, _, _ = runs[0].stdout.partition("> /help")
    assert INTERVIEW_PUSH["en"] in first and "(This was due at " in first
    assert INTERVIEW_PUSH["en"] not in runs[1].stdout
