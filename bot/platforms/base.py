"""What every chat platform provides to the runner: start, stop, and a Notifier for pushes."""

from __future__ import annotations

from typing import Protocol

from bot.kernel.ports import ChannelPoster, Notifier

UPLOAD_LIMITS: dict[str, int] = {
    "discord": 8_000_000,  # a bot's upload where the server has no boost (10 MiB today; 8 MB leaves room)
    "telegram": 50_000_000,  # the Bot API's limit on a document a bot sends
}
"""The largest file each chat platform takes from a bot, in bytes: a larger /export is zipped or split."""


class PlatformRuntime(Protocol):
    name: str

    @property
    def notifier(self) -> Notifier: ...

    @property
    def channels(self) -> ChannelPoster | None:
        """Posts in study-server channels, where the platform has them (Discord)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...
