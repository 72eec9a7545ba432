"""The webhook server: each update is answered only once it has been handled.

python-telegram-bot's own webhook server answers 200 as soon as an update is queued, so a replica that
dies (or is stopped) with updates queued loses them: Telegram saw them acknowledged. Here a POST is
answered after the update ran through the per-chat processor and the handler, so:

- a replica that dies mid-update never answers; Telegram delivers the update again (through the load
  balancer, to any replica), which takes the stale claim over (`TelegramHandlers.handle`);
- an update another replica is still handling is answered 503, so Telegram asks again later;
- Telegram sends a chat's next update only once the previous one was answered, so a chat's updates
  stay in order across replicas (the per-user advisory lock, bot/storage/user_lock.py, covers the rest).

Telegram opens up to `max_connections` requests at once (setWebhook), which bounds the updates in flight.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from telegram import Bot, Update
from telegram.ext import BaseUpdateProcessor

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
Handle = Callable[[Update], Awaitable[bool]]


def shared_secret(token: str) -> str:
    """The webhook's secret when none is set: derived from the bot token, so every replica expects the same
    (a random one per replica would lock all but the last out). Telegram allows [A-Za-z0-9_-], 1-256."""
    return hashlib.sha256(b"drill-bot webhook:" + token.encode()).hexdigest()


class WebhookServer:
    def __init__(
        self, bot: Bot, processor: BaseUpdateProcessor, handle: Handle, path: str, secret: str, listen: str, port: int
    ) -> None:
        self.bot, self.processor, self.handle = bot, processor, handle
        self.path = "/" + path.strip("/")
        self.secret, self.listen, self.port = secret, listen, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application(client_max_size=1 << 20)
        app.router.add_post(self.path, self._post)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.listen, self.port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()  # in-flight requests are cancelled: their updates come again
            self._runner = None

    async def _post(self, request: web.Request) -> web.Response:
        if not hmac.compare_digest(request.headers.get(SECRET_HEADER, ""), self.secret):
            return web.Response(status=403)
        try:
            update = Update.de_json(json.loads(await request.read()), self.bot)
        except (ValueError, TypeError, KeyError) as err:
            log.warning("telegram webhook: unreadable update (%s)", type(err).__name__)
            return web.Response(status=400)
        handled: list[bool] = []

        async def work() -> None:
            handled.append(await self.handle(update))

        await self.processor.process_update(update, work())  # per-chat order, bounded concurrency
        # not run at all (the chat's queue was full, and the user told): acknowledged, as when polling
        return web.Response(status=200 if not handled or handled[0] else 503)
