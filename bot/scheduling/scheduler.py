"""APScheduler (3.x, AsyncIOScheduler) in the bot's event loop: it only ticks the dispatcher.

The database is the source of truth for what is due; there are no per-user jobs in a job store.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.scheduling.dispatcher import Dispatcher

log = logging.getLogger(__name__)
JOB_ID = "dispatch"


class Scheduler:
    def __init__(self, dispatcher: Dispatcher, every_s: float = 30.0) -> None:
        self.dispatcher = dispatcher
        self.every_s = every_s
        self.aps = AsyncIOScheduler(timezone=UTC)

    async def tick(self) -> None:
        if self.dispatcher.busy:
            return  # a long round (a big fan-out) is still running: this tick has nothing to add
        try:
            report = await self.dispatcher.tick()
        except Exception:
            log.exception("scheduler tick failed")
            return
        if report.sent or report.failed or report.retried:
            log.info("tick: sent %d %s, skipped %d, failed %d, retried %d", report.sent, report.kinds,
                     report.skipped, report.failed, report.retried)  # fmt: skip

    def start(self) -> None:
        self.aps.add_job(
            self.tick,
            "interval",
            seconds=self.every_s,
            id=JOB_ID,
            max_instances=2,  # a second instance returns at once while a round runs (no overlap, no log spam)
            coalesce=True,
            next_run_time=datetime.now(UTC),
        )
        self.aps.start()

    def shutdown(self) -> None:
        if self.aps.running:
            self.aps.shutdown(wait=False)

    async def stop(self, timeout: float = 15.0) -> None:
        """No more ticks; the round in progress finishes the pushes already being sent (so a normal
        restart leaves none in doubt) and claims nothing more, within `timeout` seconds."""
        self.shutdown()
        self.dispatcher.stop()
        try:
            await asyncio.wait_for(self.dispatcher.wait_idle(), timeout)
        except TimeoutError:
            log.warning("scheduler: the round in progress did not finish within %.0f s", timeout)
