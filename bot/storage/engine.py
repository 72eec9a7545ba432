"""Engines for SQLite (the embedded default) and PostgreSQL.

SQLite gets WAL, a busy timeout, and two engines: a single-connection writer whose transactions
start with BEGIN IMMEDIATE (so writers queue instead of failing on lock upgrades) and a pooled
reader; the writer refuses to write once its file was deleted or replaced (`sqlite_file.FileGuard`).
PostgreSQL uses one pooled engine for both. Errors never carry the bound parameters (user text).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.storage import onehop
from bot.storage.group_commit import ReadQueue, WriteBatcher
from bot.storage.sqlite_file import FileGuard, sqlite_path

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000


@dataclass
class Engines:
    writer: AsyncEngine
    reader: AsyncEngine
    url: str
    batcher: WriteBatcher | None = field(default=None, repr=False)
    read_queue: ReadQueue | None = field(default=None, repr=False)
    file_guard: FileGuard | None = field(default=None, repr=False)
    """SQLite: refuses writes once the database file was deleted or replaced (see sqlite_file.py)."""

    def __post_init__(self) -> None:
        if self.is_sqlite and self.batcher is None:
            self.batcher = WriteBatcher(self.writer)
        if self.is_sqlite and self.read_queue is None:
            self.read_queue = ReadQueue(self.reader)

    @property
    def is_sqlite(self) -> bool:
        return self.writer.dialect.name == "sqlite"

    async def write(self, unit: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run one write unit in a transaction: group-committed on SQLite, its own on PostgreSQL."""
        if self.batcher is not None:
            return await self.batcher.run(unit)
        async with self.writer.begin() as conn:
            return await unit(conn)

    async def read(self, unit: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run one read: queued on a warm connection on SQLite, a pooled connection on PostgreSQL."""
        if self.read_queue is not None:
            return await self.read_queue.run(unit)
        async with self.reader.connect() as conn:
            return await unit(conn)

    async def dispose(self) -> None:
        if self.read_queue is not None:
            await self.read_queue.close()
        if self.batcher is not None:
            await self.batcher.close()
        await self.writer.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()


def _sqlite(url: str, immediate: bool, pool_size: int, guard: FileGuard | None = None) -> AsyncEngine:
    # Readers run each query in autocommit (no BEGIN, nothing to roll back when the connection goes
    # back to the pool): every skipped round trip through aiosqlite's thread is CPU saved per read.
    reset = "rollback" if immediate else None
    parsed = make_url(url)
    extra: dict[str, Any] = {}
    if onehop.supported() and parsed.database and not parsed.query:
        extra["async_creator"] = onehop.connector(parsed.database)  # one thread trip per statement
    engine = create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=0,
        pool_timeout=60,
        pool_reset_on_return=reset,
        hide_parameters=True,  # an error's text names the statement, never the user's text bound to it
        **extra,
    )

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # let the "begin" hook emit BEGIN itself
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()
        if guard is not None:
            guard.pin()

    if immediate:

        @event.listens_for(engine.sync_engine, "begin")
        def _on_begin(conn: Any) -> None:
            if guard is not None:
                guard.check()
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    if guard is not None:

        @event.listens_for(engine.sync_engine, "commit")
        def _on_commit(_conn: Any) -> None:
            guard.check()  # deleted during the transaction: roll it back rather than commit to the old inode

    return engine


def make_engines(url: str) -> Engines:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        guard = FileGuard(path) if path is not None else None
        return Engines(_sqlite(url, True, 1, guard), _sqlite(url, False, 4), url, file_guard=guard)
    engine = create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True, hide_parameters=True)
    return Engines(engine, engine, url)
