"""aiosqlite connections whose cursors execute and fetch in one trip to the database thread.

SQLAlchemy's aiosqlite adapter makes four trips through aiosqlite's worker thread per statement
(create the cursor, execute, fetch all, close), each a queue hand-off and an event-loop wake-up;
at a thousand statements a second those trips, not SQLite, are most of the bot's CPU. These
cursors do the four steps in the thread in one call and keep the results, so a statement costs
one trip. SQLAlchemy is unchanged: it is given these connections through `create_async_engine`'s
documented `async_creator` argument.

The one call goes through `aiosqlite.Connection._execute` (the method aiosqlite's own cursors
use). If a future aiosqlite drops it, `supported()` is False and the engine falls back to plain
aiosqlite connections, slower but correct; tests/test_sqlite_engine.py checks the fast path is in use.
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

    async def in_thread(self, fn: Any) -> Any:
        """Run `fn(sqlite3_connection)` in the connection's own thread."""
        return await self._execute(lambda: fn(self._conn))  # type: ignore[no-untyped-call]


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
