"""`python -m bot run`: every configured platform in one event loop; the terminal chat when none is.

The bot owns the event loop: each platform is started and stopped by hand (no run_polling() or
bot.run()), so Telegram, Discord and background work (the LLM regrade worker, the scheduler)
share one asyncio loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from bot.bootstrap import App, build_app
from bot.config import Settings
from bot.core.regrade import regrade_pending
from bot.core.replies import Reply
from bot.delivery import NotifierRouter
from bot.platforms.base import PlatformRuntime
from bot.platforms.console.chat import ConsoleChat, run_console
from bot.scheduling.dispatcher import Dispatcher
from bot.scheduling.scheduler import Scheduler
from bot.storage.pushes import PushStore

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


def build_scheduler(app: App, router: NotifierRouter, settings: Settings) -> Scheduler:
    """Daily drills, reminders, nudges and weekly summaries, pushed through the platforms' notifiers."""

    async def pause(user_id: int) -> None:
        await app.service.set_paused(user_id, True)

    discord = router.notifiers.get("discord")
    dispatcher = Dispatcher(
        app.service.deps,
        PushStore(app.engines),
        router,
        pause,
        skip_if_practised=settings.skip_push_if_practised,
        stale_after=timedelta(seconds=settings.scheduler_stale_seconds),
        post_channel=getattr(discord, "post_channel", None),
    )
    return Scheduler(dispatcher, settings.scheduler_tick_seconds)


def platform_runtimes(app: App, settings: Settings) -> list[PlatformRuntime]:
    runtimes: list[PlatformRuntime] = []
    if settings.telegram.token:
        from bot.platforms.telegram.runtime import TelegramRuntime

        runtimes.append(TelegramRuntime(app, settings.telegram))
    if settings.discord.token:
        from bot.platforms.discord.runtime import DiscordRuntime

        runtimes.append(DiscordRuntime(app, settings.discord))
    return runtimes


async def wait_for_stop_signal() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def serve(
    settings: Settings, console_only: bool = False, console_user: str = "local", console_lang: str | None = None
) -> None:
    app = await build_app(settings)
    router = NotifierRouter(app.store)
    tasks: list[asyncio.Task[None]] = []
    scheduler: Scheduler | None = None
    started: list[PlatformRuntime] = []
    try:
        runtimes = [] if console_only else platform_runtimes(app, settings)
        for runtime in runtimes:
            await runtime.start()
            started.append(runtime)
            router.add(runtime.notifier)
            log.info("%s is up", runtime.name)
        tasks.append(asyncio.create_task(regrade_loop(app, router)))
        if started and settings.scheduler_enabled:
            scheduler = build_scheduler(app, router, settings)
            scheduler.start()
        if started:
            await wait_for_stop_signal()
        else:
            logging.getLogger().setLevel(logging.WARNING)
            exports = Path("data") / "exports"
            await run_console(app.service, console_user, sys.stdin, sys.stdout, exports, console_lang, router)
    finally:
        if scheduler is not None:
            await scheduler.stop()  # before the platforms: sends under way finish and are marked
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for runtime in reversed(started):
            try:
                await runtime.stop()
            except Exception:
                log.exception("stopping %s failed", runtime.name)
        await app.close()
