"""Group commit for SQLite: concurrent write units share one transaction.

SQLite has one writer at a time, and each transaction costs a round of BEGIN IMMEDIATE / COMMIT
through aiosqlite's thread. Under load (a thousand users answering at once) that serial cost
dominates, so write units queue here and a single worker runs whatever is waiting in one
transaction. A unit is a function of the connection; its future resolves only after the commit,
so a caller's write is durable (and visible to readers) when it returns. If any unit fails, the
batch is rolled back and every unit is run again in a transaction of its own, so one bad unit
never fails or loses another's write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger(__name__)
T = TypeVar("T")
Unit = Callable[[AsyncConnection], Awaitable[Any]]


class WriteBatcher:
    def __init__(self, engine: AsyncEngine, max_batch: int = 200) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._pending: list[tuple[Unit, asyncio.Future[Any]]] = []
        self._wake: asyncio.Event | None = None
        self._worker: asyncio.Task[None] | None = None

    async def run(self, unit: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((unit, future))
        if self._worker is None or self._worker.done():
            self._wake = asyncio.Event()
            self._worker = loop.create_task(self._drain())
        assert self._wake is not None
        self._wake.set()
        return await asyncio.shield(future)  # type: ignore[no-any-return]

    async def _drain(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch, self._pending = self._pending[: self.max_batch], self._pending[self.max_batch :]
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

    async def close(self) -> None:
        if self._worker is not None:
            while self._pending:
                await asyncio.sleep(0)
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None
