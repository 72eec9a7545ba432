"""`python -m bot run`: every configured platform in one event loop; the terminal chat when none is.

Background work (the LLM regrade worker) runs as tasks in the same loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.bootstrap import App, build_app
from bot.config import Settings
from bot.core.regrade import regrade_pending
from bot.core.replies import Reply
from bot.delivery import NotifierRouter
from bot.platforms.console.chat import ConsoleChat, run_console

log = logging.getLogger(__name__)
REGRADE_EVERY_S = 60.0


class ConsoleNotifier:
    """Pushes to the terminal user by printing (the console's identity is 'local')."""

    platform = "console"

    def __init__(self, chat: ConsoleChat) -> None:
        self.chat = chat

    async def send(self, external_id: str, replies: Sequence[Reply]) -> None:
        self.chat.render(list(replies))


async def regrade_loop(app: App, router: NotifierRouter, every: float = REGRADE_EVERY_S) -> None:
    deps = app.service.deps
    if deps.estimator is None:
        return  # no LLM configured: nothing is ever queued for an LLM regrade
    while True:
        try:
            await regrade_pending(deps, router)
        except Exception:
            log.exception("regrade round failed")
        await asyncio.sleep(every)


async def serve(
    settings: Settings, console_only: bool = False, console_user: str = "local", console_lang: str | None = None
) -> None:
    app = await build_app(settings)
    router = NotifierRouter(app.store)
    tasks: list[asyncio.Task[None]] = []
    try:
        platforms = [name for name, token in (("telegram", settings.telegram.token),
                                              ("discord", settings.discord.token)) if token]  # fmt: skip
        if platforms and not console_only:
            log.error("platform adapters not available in this build yet: %s", ", ".join(platforms))
        tasks.append(asyncio.create_task(regrade_loop(app, router)))
        logging.getLogger().setLevel(logging.WARNING)
        exports = Path("data") / "exports"
        await run_console(app.service, console_user, sys.stdin, sys.stdout, exports, console_lang, router)
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await app.close()
