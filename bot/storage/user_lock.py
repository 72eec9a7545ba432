"""Per-user order across replicas: a PostgreSQL advisory lock per user around each command.

Every replica holds its users' locks on ONE dedicated autocommit connection (session-level advisory
locks, no transaction left open): a connection per waiting command would exhaust the pool (and
PostgreSQL's max_connections) long before the bot's concurrency. Taking a lock is therefore
`pg_try_advisory_lock`, retried with a short back-off while another replica holds it; contention is
rare (Telegram sends a chat's next update once the previous webhook request was answered), so the
retry costs nothing in the usual case. The in-process FIFO lock is taken first, so within a replica a
user's commands keep their arrival order and only one of them polls.

If the replica dies, PostgreSQL drops its connection and with it every lock it held. If the lock
connection breaks while the replica lives, it is reopened on the next use (a command holding a lock
then runs unguarded across replicas until it ends; the in-process order still holds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from bot.kernel.user_lock import LocalUserLocks

log = logging.getLogger(__name__)
NAMESPACE = 0x64726C  # the first key of the two-key advisory lock: this bot's users ("drl")
_TRY = sa.text("SELECT pg_try_advisory_lock(:ns, :key)")
_UNLOCK = sa.text("SELECT pg_advisory_unlock(:ns, :key)")
FIRST_WAIT_S, LONGEST_WAIT_S = 0.005, 0.1


def lock_key(user_id: int) -> int:
    """The second key (int4): the user id; a collision of huge ids only serialises two users, never breaks."""
    return user_id % 2_147_483_647


class PgUserLocks:
    """The UserLock port (bot/kernel/user_lock.py) over PostgreSQL advisory locks."""

    def __init__(self, url: str, on_wait: Callable[[int], None] | None = None) -> None:
        self._engine = create_async_engine(
            url, pool_size=1, max_overflow=0, isolation_level="AUTOCOMMIT", hide_parameters=True
        )
        self._local = LocalUserLocks()
        self._conn: AsyncConnection | None = None
        self._io = asyncio.Lock()  # one statement at a time on the shared connection
        self.on_wait = on_wait
        """Called with the user id each time the lock is found held by another session (tests, metrics)."""

    async def _ask(self, statement: sa.TextClause, user_id: int) -> bool:
        async with self._io:
            if self._conn is None or self._conn.closed:
                self._conn = await self._engine.connect()
            try:
                result = await self._conn.execute(statement, {"ns": NAMESPACE, "key": lock_key(user_id)})
                return bool(result.scalar())
            except BaseException:
                conn, self._conn = self._conn, None  # its locks are unknown now: start afresh
                await asyncio.shield(conn.invalidate())
                raise

    async def _take(self, user_id: int) -> bool:
        """One try; a cancelled caller still learns the answer, and gives back a lock it got meanwhile."""
        task = asyncio.ensure_future(self._ask(_TRY, user_id))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                if await task:
                    await self._ask(_UNLOCK, user_id)
            raise

    @asynccontextmanager
    async def hold(self, user_id: int) -> AsyncIterator[None]:
        async with self._local.hold(user_id):
            wait = FIRST_WAIT_S
            while not await self._take(user_id):
                if self.on_wait is not None:
                    self.on_wait(user_id)
                await asyncio.sleep(wait)
                wait = min(wait * 2, LONGEST_WAIT_S)
            try:
                yield
            finally:
                try:
                    await asyncio.shield(self._ask(_UNLOCK, user_id))
                except Exception:  # the connection broke: PostgreSQL released its locks with it
                    log.warning("user %s: the advisory lock could not be released (connection lost)", user_id)

    async def close(self) -> None:
        async with self._io:
            if self._conn is not None:
                await self._conn.close()
                self._conn = None
        await self._engine.dispose()
