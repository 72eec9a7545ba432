"""Engines for SQLite (the embedded default) and PostgreSQL.

SQLite gets WAL, a busy timeout, and two connections the bot uses: a writer whose transactions start
with BEGIN IMMEDIATE (so writers queue instead of failing on lock upgrades) and a reader in autocommit;
the writer refuses to write once its file was deleted or replaced (`sqlite_file.FileGuard`). The store's
writes and reads go through the queues of group_commit.py, which run SQLAlchemy's synchronous pysqlite
engine on the event loop's own thread: one process owns the file (process_lock.py) and every transaction
runs start to finish without yielding, so no statement waits on a lock, and a primary-key statement takes
tens of microseconds, less than any hand-off to a thread or a greenlet would cost (measured: a queued read
of a user and their state took 166 us through the async engine over aiosqlite, 95 us on the synchronous
one, a hundred at a time). Migrations run on the same writer. The async engines over aiosqlite (`writer`,
`reader`) stay for async callers outside the store: tools, reports and tests.
PostgreSQL uses one pooled async engine for everything. Errors never carry the bound parameters (user text).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.storage.group_commit import ReadQueue, WriteBatcher
from bot.storage.sqlite_file import FileGuard, sqlite_path

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000


@dataclass
class Engines:
    writer: AsyncEngine
    reader: AsyncEngine
    batcher: WriteBatcher | None = field(default=None, repr=False)
    """SQLite: the store's writes, group-committed on the synchronous writer (`batcher.engine`)."""
    read_queue: ReadQueue | None = field(default=None, repr=False)
    """SQLite: the store's reads, queued on the synchronous reader (`read_queue.engine`)."""
    file_guard: FileGuard | None = field(default=None, repr=False)
    """SQLite: refuses writes once the database file was deleted or replaced (see sqlite_file.py)."""

    @property
    def is_sqlite(self) -> bool:
        return self.writer.dialect.name == "sqlite"

    def sync_engines(self) -> list[Engine]:
        """Every synchronous engine a statement may run on: where to listen for SQLAlchemy's events."""
        queues = [q.engine for q in (self.batcher, self.read_queue) if q is not None]
        return [*queues, *{id(e.sync_engine): e.sync_engine for e in (self.writer, self.reader)}.values()]

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

    async def run_sync_write(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(connection, *args)` in one write transaction on a synchronous connection (migrations): on SQLite the
        store's own writer, after the writes queued before it; on PostgreSQL through the async engine."""
        if self.batcher is not None:
            await self.batcher.close()  # what was queued goes first; nothing else runs on this thread meanwhile
            return _without_foreign_keys(self.batcher.engine, fn, *args)
        async with self.writer.begin() as conn:
            return await conn.run_sync(fn, *args)

    async def dispose(self) -> None:
        if self.read_queue is not None:
            await self.read_queue.close()
            self.read_queue.engine.dispose()
        if self.batcher is not None:
            await self.batcher.close()
            self.batcher.engine.dispose()
        await self.writer.dispose()
        if self.reader is not self.writer:
            await self.reader.dispose()


def _without_foreign_keys(engine: Engine, fn: Callable[..., T], *args: Any) -> T:
    """`fn(connection, *args)` in one write transaction with SQLite's foreign keys off, as a migration that
    rebuilds a table needs: dropping the old table would otherwise delete its rows and cascade to their children
    (SQLite runs ON DELETE for a dropped table's rows). The pragma has no effect inside a transaction, so it is
    set on the driver's connection before BEGIN; when rows were written, every reference is checked before the
    commit (a dangling one rolls the whole transaction back); the keys are back on before the connection returns
    to the pool."""
    with engine.connect() as conn:
        driver = conn.connection.dbapi_connection
        assert driver is not None
        driver.execute("PRAGMA foreign_keys=OFF")  # autocommit at the driver: outside any transaction
        try:
            with conn.begin():
                changes = driver.total_changes
                result = fn(conn, *args)
                # a scan of every reference: only when rows were written (not at each start at the latest revision)
                changed = driver.total_changes != changes
                dangling = conn.exec_driver_sql("PRAGMA foreign_key_check").all() if changed else []
                if dangling:
                    tables = sorted({str(row[0]) for row in dangling})
                    raise RuntimeError(f"rows referring to missing rows in {', '.join(tables)}: nothing was changed")
            return result
        finally:
            driver.execute("PRAGMA foreign_keys=ON")


def _configure(engine: Engine, immediate: bool, guard: FileGuard | None) -> None:
    """WAL, the busy timeout, foreign keys; a writer's transactions start with BEGIN IMMEDIATE and are checked
    against the file guard. `engine` is a synchronous engine, or an async engine's `sync_engine`."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # autocommit; the "begin" hook emits BEGIN itself
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()
        if guard is not None and immediate:
            guard.pin()

    if not immediate:
        return

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        if guard is not None:
            guard.check()
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    if guard is not None:

        @event.listens_for(engine, "commit")
        def _on_commit(_conn: Any) -> None:
            guard.check()  # deleted during the transaction: roll it back rather than commit to the old inode


def _options(immediate: bool, pool_size: int) -> dict[str, Any]:
    # Readers run each query in autocommit (no BEGIN, nothing to roll back when the connection goes back to the
    # pool); a writer's connection is rolled back on return, should a transaction have been left open.
    return {
        "pool_size": pool_size,
        "max_overflow": 0,
        "pool_timeout": 60,
        "pool_reset_on_return": "rollback" if immediate else None,
        "hide_parameters": True,  # an error's text names the statement, never the user's text bound to it
    }


def _sqlite_async(url: str, immediate: bool, pool_size: int, guard: FileGuard | None) -> AsyncEngine:
    engine = create_async_engine(url, **_options(immediate, pool_size))
    _configure(engine.sync_engine, immediate, guard)
    return engine


def _sqlite_sync(url: str, immediate: bool, guard: FileGuard | None) -> Engine:
    """The same file through the standard library's sqlite3 (SQLAlchemy's pysqlite dialect), one connection."""
    engine = sa.create_engine(make_url(url).set(drivername="sqlite+pysqlite"), **_options(immediate, 1))
    _configure(engine, immediate, guard)
    return engine


def make_engines(url: str) -> Engines:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        guard = FileGuard(path) if path is not None else None
        return Engines(
            _sqlite_async(url, True, 1, guard),
            _sqlite_async(url, False, 4, None),
            batcher=WriteBatcher(_sqlite_sync(url, True, guard)),
            read_queue=ReadQueue(_sqlite_sync(url, False, None)),
            file_guard=guard,
        )
    engine = create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True, hide_parameters=True)
    return Engines(engine, engine)
