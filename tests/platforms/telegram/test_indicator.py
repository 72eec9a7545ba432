"""The typing indicator on its own (bot/platforms/telegram/handlers.Indicator), with a hand-written sender."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.platforms.telegram.handlers import Indicator


class Sender:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.progressed = asyncio.Event()

    async def typing(self, chat_id: int) -> None:
        self.calls.append("typing")

    async def progress(self, chat_id: int, text: str) -> int | None:
        self.calls.append(f"progress:{text}")
        self.progressed.set()
        return 77


def indicator(sender: Sender, typing_after: float, progress_after: float) -> Indicator:
    fake: Any = sender
    return Indicator(fake, 1, "Grading…", typing_after, progress_after)


async def test_work_done_before_typing_after_shows_nothing() -> None:
    sender = Sender()
    shown = indicator(sender, typing_after=3600, progress_after=3600)
    shown.start()
    await asyncio.sleep(0)
    await shown.stop()
    assert sender.calls == [] and shown.message_id is None


async def test_slow_work_shows_typing_then_a_progress_message_whose_id_is_kept() -> None:
    sender = Sender()
    shown = indicator(sender, typing_after=0, progress_after=0)
    shown.start()
    await asyncio.wait_for(sender.progressed.wait(), 10)
    await shown.stop()
    assert sender.calls == ["typing", "progress:Grading…"] and shown.message_id == 77


async def test_work_done_just_as_the_timer_fired_sends_no_typing() -> None:
    sender = Sender()
    shown = indicator(sender, typing_after=0, progress_after=3600)
    shown._begin()  # the timer fired: the task is made but has not run yet
    await shown.stop()
    assert sender.calls == []
