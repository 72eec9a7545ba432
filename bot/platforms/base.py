"""What every chat platform provides to the runner: start, stop, and a Notifier for pushes."""

from __future__ import annotations

from typing import Protocol

from bot.core.ports import Notifier


class PlatformRuntime(Protocol):
    name: str
    notifier: Notifier

    async def start(self) -> None: ...

    async def stop(self) -> None: ...
