"""`python -m bot run`: every configured platform in one event loop; the terminal chat when none is.

The bot owns the event loop: each platform is started and stopped by hand (no run_polling() or
bot.run()), so Telegram, Discord and background work (the scheduler: pushes, LLM regrade rounds)
share one asyncio loop. If the SQLite file is deleted or replaced under it, the bot stops (DatabaseFileGone)
rather than go on acknowledging writes that are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path

from bot import heap
from bot.bootstrap import App, WarmUp, build_app, build_scheduler, warm_up
from bot.config import Settings
from bot.delivery import NotifierRouter
from bot.platforms.base import PlatformRuntime
from bot.platforms.console.chat import run_console
from bot.scheduling.scheduler import Scheduler
from bot.storage.engine import Engines

log = logging.getLogger(__name__)


def platform_runtimes(app: App, settings: Settings) -> list[PlatformRuntime]:
    runtimes: list[PlatformRuntime] = []
    if settings.telegram.token:
        from bot.platforms.telegram.runtime import TelegramRuntime

        runtimes.append(TelegramRuntime(app.service, settings.telegram))
    if settings.discord.token:
        from bot.platforms.discord.runtime import DiscordRuntime

        runtimes.append(DiscordRuntime(app.service, settings.discord))
    return runtimes


async def wait_for_stop_signal() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def until_database_lost(work: Coroutine[object, object, None], engines: Engines) -> None:
    """Run `work` (the platforms' lifetime, or the terminal chat) until it ends or the SQLite file is
    deleted or replaced; then raise DatabaseFileGone, so the bot stops instead of losing every later write."""
    guard = engines.file_guard
    if guard is None:
        await work
        return
    main = asyncio.ensure_future(work)
    lost = asyncio.ensure_future(guard.lost.wait())
    try:
        await asyncio.wait({main, lost}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        main.cancel()  # a no-op when it has ended
        lost.cancel()
        await asyncio.gather(main, lost, return_exceptions=True)
    if guard.gone is not None:
        raise guard.gone
    main.result()


async def serve(
    settings: Settings, console_only: bool = False, console_user: str = "local", console_lang: str | None = None
) -> None:
    serving = not console_only and bool(settings.telegram.token or settings.discord.token)
    mode = settings.worker_mode if settings.worker_mode != "auto" else ("process" if serving else "thread")
    app = await build_app(settings, worker_mode=mode)
    heap.settle()  # after the bank, the grader and the libraries are loaded
    router = NotifierRouter(app.store)
    scheduler: Scheduler | None = None
    started: list[PlatformRuntime] = []
    warming: list[WarmUp] = []

    def warm() -> None:
        warming.append(warm_up(app))

    try:
        runtimes = [] if console_only else platform_runtimes(app, settings)
        for runtime in runtimes:
            await runtime.start()
            started.append(runtime)
            router.add(runtime.notifier, runtime.channels)
            log.info("%s is up", runtime.name)
        scheduler = build_scheduler(
            app, router, settings, pushes=settings.scheduler_enabled, only_reachable=not started
        )
        if started:
            scheduler.start()
            warm()  # the encoder loads while the platforms already answer
            await until_database_lost(wait_for_stop_signal(), app.engines)
        else:
            ticking = scheduler

            async def ready() -> None:
                """The terminal shows its pushes: first what came due while it was closed, then as they come."""
                await ticking.tick()
                ticking.start()

            exports = Path("data") / "exports"
            chat = run_console(
                app.service, console_user, sys.stdin, sys.stdout, exports, console_lang, router, warm, ready
            )
            await until_database_lost(chat, app.engines)
    finally:
        for warming_up in warming:
            warming_up.stop()  # the step under way ends (joined below, before the interpreter exits); no other begins
        if scheduler is not None:
            await scheduler.stop()  # before the platforms: sends under way finish and are marked
        for runtime in reversed(started):
            try:
                await runtime.stop()
            except Exception:
                log.exception("stopping %s failed", runtime.name)
        for warming_up in warming:
            await asyncio.to_thread(warming_up.join)
        await app.close()
