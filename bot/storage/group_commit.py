"""Queues in front of SQLite's connections: group commit for writes, one warm connection for reads.

SQLite has one writer at a time, and each transaction costs a round of BEGIN IMMEDIATE / COMMIT
through aiosqlite's thread. Under load (a thousand users answering at once) that serial cost
dominates, so write units queue here and a single worker runs whatever is waiting in one
transaction. A unit is a function of the connection; its future resolves only after the commit,
so a caller's write is durable (and visible to readers) when it returns. If any unit fails, the
batch is rolled back and every unit is run again in a transaction of its own, so one bad unit
never fails or loses another's write.

Reads queue the same way (`ReadQueue`): one worker keeps a reader connection checked out while
there is work and runs the waiting reads on it back to back, in autocommit, so each read sees
every write committed before it started. That skips the pool checkout and return per read (a
large share of a read's CPU through SQLAlchemy's async pool), and one connection's thread is as fast
as several here: the event loop, not SQLite, is the bottleneck.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger(__name__)
T = TypeVar("T")
Unit = Callable[[AsyncConnection], Awaitable[Any]]


class _UnitQueue:
    """Units wait in order; one worker task runs them while any are waiting, then ends."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._pending: deque[tuple[Unit, asyncio.Future[Any]]] = deque()
        self._worker: asyncio.Task[None] | None = None

    async def run(self, unit: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((unit, future))
        if self._worker is None or self._worker.done():  # a worker that is not done re-checks the queue
            self._worker = loop.create_task(self._drain())
        return await asyncio.shield(future)  # type: ignore[no-any-return]

    async def _drain(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        """Wait for the units already queued."""
        if self._worker is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None


class WriteBatcher(_UnitQueue):
    def __init__(self, engine: AsyncEngine, max_batch: int = 200) -> None:
        super().__init__(engine)
        self.max_batch = max_batch

    async def _drain(self) -> None:
        while self._pending:
            batch = [self._pending.popleft() for _ in range(min(self.max_batch, len(self._pending)))]
            await self._commit(batch)

    async def _commit(self, batch: list[tuple[Unit, asyncio.Future[Any]]]) -> None:
        try:
            async with self.engine.begin() as conn:
                results = [await unit(conn) for unit, _ in batch]
        except Exception:
            if len(batch) > 1:
                log.debug("a batch of %d writes failed; running them one by one", len(batch))
            for unit, future in batch:
                await self._alone(unit, future)
            return
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)

    async def _alone(self, unit: Unit, future: asyncio.Future[Any]) -> None:
        try:
            async with self.engine.begin() as conn:
                result = await unit(conn)
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(result)


class ReadQueue(_UnitQueue):
    """Reads run one after another on a connection held while reads are waiting (see above)."""

    async def _drain(self) -> None:
        while self._pending:
            try:
                async with self.engine.connect() as conn:
                    while self._pending:
                        unit, future = self._pending.popleft()
                        try:
                            result = await unit(conn)
                        except Exception as exc:
                            if not future.done():
                                future.set_exception(exc)
                            if conn.invalidated:
                                break  # the connection broke: the next round opens another
                            continue
                        if not future.done():
                            future.set_result(result)
            except Exception:  # could not connect (or close): fail what waits, never hang it
                log.exception("reader connection failed")
                while self._pending:
                    _, future = self._pending.popleft()
                    if not future.done():
                        future.set_exception(RuntimeError("the database reader is unavailable"))
