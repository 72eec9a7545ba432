"""aiosqlite connections whose statements run on the event loop's own thread, in one call each.

SQLAlchemy's aiosqlite adapter makes four trips through aiosqlite's worker thread per statement
(create the cursor, execute, fetch all, close), each a queue hand-off and an event-loop wake-up.
These cursors do the four steps in one call and keep the results. And that call runs inline, on
the event loop's thread, not in aiosqlite's: a statement here (a primary-key read, a one-row
write, in WAL mode with synchronous=NORMAL) takes tens of microseconds, while a trip to the thread
and back costs more CPU than the statement (measured: 310 us a statement through the thread, 175
inline, under load). The price is that a slow statement blocks the loop while it runs; the writer
and the reader are each one queue already (group_commit.py), so a slow statement held up every
other one before too. No statement can wait on a lock here: one process per SQLite file
(process_lock.py), and every transaction runs start to finish without yielding (group_commit.py),
so BEGIN IMMEDIATE never meets another writer in the same process either. aiosqlite's thread
still opens and closes the connection.

SQLAlchemy is unchanged: it is given these connections through `create_async_engine`'s documented
`async_creator` argument. The calls go through `aiosqlite.Connection._execute` (the method
aiosqlite's own cursors use), overridden here. If a future aiosqlite drops it, `supported()` is
False and the engine falls back to plain aiosqlite connections, slower but correct;
tests/test_sqlite_engine.py checks the fast path is in use.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite


def supported() -> bool:
    return callable(getattr(aiosqlite.Connection, "_execute", None)) and hasattr(aiosqlite.Connection, "_conn")


class OneHopCursor:
    """The subset of aiosqlite's Cursor that SQLAlchemy's adapter uses, one thread trip per execute."""

    arraysize = 1

    def __init__(self, conn: OneHopConnection) -> None:
        self._owner = conn
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self._rows: list[Any] = []

    async def __aenter__(self) -> OneHopCursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def _run(self, many: bool, sql: str, parameters: Any) -> OneHopCursor:
        def work(raw: sqlite3.Connection) -> tuple[Any, int, int | None, list[Any]]:
            cursor = raw.cursor()
            try:
                if many:
                    cursor.executemany(sql, parameters)
                else:
                    cursor.execute(sql, parameters)
                rows = cursor.fetchall() if cursor.description else []
                return cursor.description, cursor.rowcount, cursor.lastrowid, rows
            finally:
                cursor.close()

        self.description, self.rowcount, self.lastrowid, self._rows = await self._owner.in_thread(work)
        return self

    async def execute(self, sql: str, parameters: Any = None) -> OneHopCursor:
        return await self._run(False, sql, () if parameters is None else parameters)

    async def executemany(self, sql: str, parameters: Any) -> OneHopCursor:
        return await self._run(True, sql, parameters)

    async def fetchall(self) -> Sequence[Any]:
        rows, self._rows = self._rows, []
        return rows

    async def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    async def fetchmany(self, size: int | None = None) -> Sequence[Any]:
        n = size or self.arraysize
        rows, self._rows = self._rows[:n], self._rows[n:]
        return rows

    async def close(self) -> None:
        self._rows = []


class OneHopConnection(aiosqlite.Connection):
    def cursor(self) -> OneHopCursor:  # type: ignore[override]
        return OneHopCursor(self)

    async def _execute(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """aiosqlite's hand-off to its thread (commit, rollback, close, statements), run inline instead."""
        if not self._running or not self._connection:
            raise ValueError("Connection closed")  # as aiosqlite says it
        return fn(*args, **kwargs)

    async def in_thread(self, fn: Any) -> Any:
        """Run `fn(sqlite3_connection)` (see the module's docstring: on the loop's thread)."""
        return await self._execute(fn, self._conn)


def connector(path: str) -> Any:
    """An `async_creator` for create_async_engine: a OneHopConnection to the SQLite file."""

    async def connect() -> OneHopConnection:
        def make() -> sqlite3.Connection:
            return sqlite3.connect(path, check_same_thread=False, isolation_level=None)

        conn = OneHopConnection(make, iter_chunk_size=64)
        thread = getattr(conn, "_thread", None)
        if thread is not None:
            thread.daemon = True  # as SQLAlchemy does for aiosqlite's own connections
        await conn
        return conn

    return connect
