"""The engines on each backend: where a unit runs, what a transaction starts with, what an error shows, and
that disposing closes every connection. SQLite's fast paths themselves are in test_sqlite_engine.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.engine import Engines, make_engines
from bot.storage.sqlite_file import DatabaseFileGone

NOTES = sa.Table(
    "engine_notes",
    sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(40), unique=True, nullable=False),
)
SECRET = "my-answer-is-private-7f3a"


async def with_notes(db_url: str) -> Engines:
    engines = make_engines(db_url)
    async with engines.writer.begin() as conn:
        await conn.run_sync(NOTES.metadata.drop_all)
        await conn.run_sync(NOTES.metadata.create_all)
    return engines


def record(engine: sa.Engine, into: list[str]) -> None:
    sa.event.listen(engine, "before_cursor_execute", lambda *a: into.append(a[2]))


async def test_units_and_synchronous_writes_run_and_see_each_other(db_url: str) -> None:
    engines = await with_notes(db_url)
    statements: list[str] = []
    if engines.batcher is not None:  # SQLite: a synchronous write runs on the store's own writer
        record(engines.batcher.engine, statements)

    async def add(conn: AsyncConnection) -> int:
        return int((await conn.execute(NOTES.insert().returning(NOTES.c.id), {"key": "a"})).scalar_one())

    async def keys(conn: AsyncConnection) -> list[str]:
        return [row.key for row in (await conn.execute(sa.select(NOTES.c.key).order_by(NOTES.c.id))).all()]

    def add_sync(conn: sa.Connection, key: str) -> int:
        conn.execute(NOTES.insert(), {"key": key})
        return int(conn.execute(sa.select(sa.func.count()).select_from(NOTES)).scalar_one())

    assert await engines.write(add) == 1
    assert await engines.run_sync_write(add_sync, "b") == 2
    assert await engines.read(keys) == ["a", "b"]
    if engines.batcher is not None:
        assert any(s.startswith("INSERT INTO engine_notes") for s in statements[2:])  # the sync write's, too
    await engines.dispose()


async def test_every_synchronous_engine_is_listed_once(db_url: str) -> None:
    engines = make_engines(db_url)
    listed = engines.sync_engines()
    assert len({id(e) for e in listed}) == len(listed) == (4 if engines.is_sqlite else 1)
    await engines.dispose()


async def test_an_error_names_the_statement_never_the_values_bound_to_it(db_url: str) -> None:
    engines = await with_notes(db_url)

    async def add(conn: AsyncConnection) -> None:
        await conn.execute(NOTES.insert(), {"key": SECRET})

    await engines.write(add)
    with pytest.raises(IntegrityError) as raised:
        await engines.write(add)
    assert "engine_notes" in str(raised.value) and SECRET not in str(raised.value)
    with pytest.raises(IntegrityError) as raised:  # the async engine that tools use, too
        async with engines.writer.begin() as conn:
            await add(conn)
    assert SECRET not in str(raised.value)
    await engines.dispose()


async def test_sqlite_reads_never_begin_and_every_write_takes_the_lock_first(tmp_path: Path) -> None:
    engines = await with_notes(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    assert engines.read_queue is not None
    reads: list[str] = []
    writes: list[str] = []
    record(engines.read_queue.engine, reads)
    record(engines.reader.sync_engine, reads)
    record(engines.writer.sync_engine, writes)

    async def count(conn: AsyncConnection) -> int:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(NOTES))).scalar_one())

    assert await engines.read(count) == 0
    async with engines.reader.connect() as conn:
        assert await count(conn) == 0
    async with engines.writer.begin() as conn:
        await conn.execute(NOTES.insert(), {"key": "k"})
    assert reads and not [s for s in reads if "BEGIN" in s.upper()]  # autocommit: a read holds no lock
    assert writes[0] == "BEGIN IMMEDIATE"
    await engines.dispose()


async def test_a_sqlite_file_in_new_folders_is_created(tmp_path: Path) -> None:
    engines = make_engines(f"sqlite+aiosqlite:///{tmp_path / 'a' / 'b' / 'x.db'}")

    async def one(conn: AsyncConnection) -> Any:
        return (await conn.execute(sa.select(sa.literal(1)))).scalar_one()

    assert await engines.read(one) == 1
    assert (tmp_path / "a" / "b" / "x.db").exists()
    await engines.dispose()


async def test_the_async_writer_refuses_to_write_once_the_file_is_gone(tmp_path: Path) -> None:
    engines = await with_notes(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    (tmp_path / "x.db").unlink()
    with pytest.raises(DatabaseFileGone):
        async with engines.writer.begin() as conn:
            await conn.execute(NOTES.insert(), {"key": "lost"})
    await engines.dispose()


async def test_dispose_closes_the_connections_of_every_engine(db_url: str) -> None:
    engines = await with_notes(db_url)
    closed: list[int] = []
    for engine in engines.sync_engines():
        sa.event.listen(engine, "close", lambda *_a, e=engine: closed.append(id(e)))

    async def one(conn: AsyncConnection) -> Any:
        return (await conn.execute(sa.select(sa.literal(1)))).scalar_one()

    async def add(conn: AsyncConnection) -> None:
        await conn.execute(NOTES.insert(), {"key": "d"})

    await engines.read(one)
    await engines.write(add)
    async with engines.reader.connect() as conn:
        await one(conn)
    await engines.dispose()
    assert set(closed) == {id(e) for e in engines.sync_engines()}
