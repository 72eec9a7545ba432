"""Discord in the bot's own event loop: log in (which syncs the commands), then keep the gateway
connection in a task, so start() returns while Telegram, the scheduler and the rest run alongside."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.kernel.service import Service
from bot.platforms.discord.bridge import Bridge
from bot.platforms.discord.client import make_client
from bot.platforms.discord.notifier import DiscordNotifier
from bot.platforms.discord.settings import DiscordSettings

log = logging.getLogger(__name__)


class DiscordRuntime:
    name = "discord"

    def __init__(self, service: Service, settings: DiscordSettings) -> None:
        self.settings = settings
        self.bridge = Bridge(service)
        self.client = make_client(self.bridge, settings)
        self.notifier = DiscordNotifier(self.client)
        self.channels = self.notifier
        self._gateway: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.settings.token is None:
            raise ValueError("DISCORD_TOKEN is not set")
        try:
            await self.client.login(self.settings.token.get_secret_value())
        except BaseException:
            await self.client.close()
            raise
        self._gateway = asyncio.create_task(self.client.connect(reconnect=True), name="discord-gateway")
        self._gateway.add_done_callback(_report)

    async def stop(self) -> None:
        await self.client.close()
        if self._gateway is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._gateway


def _report(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the discord gateway connection ended", exc_info=task.exception())
