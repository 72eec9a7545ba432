"""APScheduler (3.x, AsyncIOScheduler) in the bot's event loop: the bot's one background loop.

Interval jobs: the dispatcher's tick (pushes, with a chat platform), the regrade round (answers that
got only the offline estimate while the LLM was down, with an LLM: a kernel command, `c.RegradeRound`, sent
through the service, so the scheduler knows no feature) and housekeeping (old update and interaction ids,
which only guard against redelivery). The database is the source of truth for what is due; there are no
per-user jobs in a job store.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.kernel import commands as c
from bot.kernel.ports import Notify
from bot.scheduling.dispatcher import Dispatcher

log = logging.getLogger(__name__)
JOB_ID = "dispatch"
REGRADE_JOB_ID = "regrade"
HOUSEKEEPING_JOB_ID = "housekeeping"
CountingJob = Callable[[], Awaitable[int]]  # one round of a periodic job; returns how many things it did
Housekeeping = CountingJob


class Jobs(Protocol):
    """Where the scheduler sends its jobs: the service (bot/kernel/service.py), which hands each to its handler."""

    async def run_job(self, job: c.Job, notify: Notify | None = None) -> int: ...


class Scheduler:
    def __init__(
        self,
        dispatcher: Dispatcher | None,
        every_s: float = 30.0,
        jobs: Jobs | None = None,
        regrade_every_s: float = 60.0,
        housekeeping: Housekeeping | None = None,
        housekeeping_every_s: float = 3600.0,
        notify: Notify | None = None,
    ) -> None:
        self.dispatcher = dispatcher
        self.every_s = every_s
        self.jobs = jobs
        """Where the regrade round is sent; None: no regrade round (without an LLM nothing is queued for one)."""
        self.regrade_every_s = regrade_every_s
        self.housekeeping = housekeeping
        self.housekeeping_every_s = housekeeping_every_s
        self.notify = notify
        """How a job reaches the users it tells (the notifier router); None: it tells no one."""
        self.aps = AsyncIOScheduler(timezone=UTC)

    async def regrade_tick(self) -> None:
        """Send one regrade round; a failure is logged and the next round tries again."""
        jobs = self.jobs
        if jobs is None:
            return

        async def regrade() -> int:
            return await jobs.run_job(c.RegradeRound(), self.notify)

        await _round(regrade, "regrade round failed", "regraded %d answers with the LLM")

    async def housekeeping_tick(self) -> None:
        """Delete what is only kept for a while; a failure is logged and the next round tries again."""
        await _round(self.housekeeping, "housekeeping failed", "housekeeping: forgot %d old update ids and usage rows")

    async def tick(self) -> None:
        if self.dispatcher is None or self.dispatcher.busy:
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
        if self.dispatcher is not None:
            self.aps.add_job(
                self.tick,
                "interval",
                seconds=self.every_s,
                id=JOB_ID,
                max_instances=2,  # a second instance returns at once while a round runs (no overlap, no log spam)
                coalesce=True,
                next_run_time=datetime.now(UTC),
            )
        if self.jobs is not None:
            self.aps.add_job(
                self.regrade_tick,
                "interval",
                seconds=self.regrade_every_s,
                id=REGRADE_JOB_ID,
                max_instances=1,  # a slow round (the LLM just came back) is never run twice at once
                coalesce=True,
            )
        if self.housekeeping is not None:
            self.aps.add_job(
                self.housekeeping_tick,
                "interval",
                seconds=self.housekeeping_every_s,
                id=HOUSEKEEPING_JOB_ID,
                max_instances=1,
                coalesce=True,
                next_run_time=datetime.now(UTC),  # a process restarted every hour still cleans up
            )
        self.aps.start()

    def shutdown(self) -> None:
        if self.aps.running:
            self.aps.shutdown(wait=False)

    async def stop(self, timeout: float = 15.0) -> None:
        """No more ticks; the round in progress finishes the pushes already being sent (so a normal
        restart leaves none in doubt) and claims nothing more, within `timeout` seconds."""
        self.shutdown()
        if self.dispatcher is None:
            return
        self.dispatcher.stop()
        try:
            await asyncio.wait_for(self.dispatcher.wait_idle(), timeout)
        except TimeoutError:
            log.warning("scheduler: the round in progress did not finish within %.0f s", timeout)


async def _round(job: CountingJob | None, failed: str, done: str) -> None:
    """Run a counting job once: a failure is logged (the next round tries again), a count above 0 too."""
    if job is None:
        return
    try:
        count = await job()
    except Exception:
        log.exception(failed)
        return
    if count:
        log.info(done, count)
