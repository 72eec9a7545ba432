"""Group commit on SQLite: concurrent writes share transactions, and one failing write loses nothing else."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import tables as T
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from tests.sqlite_template import sqlite_url

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def test_concurrent_writes_commit_and_a_bad_unit_fails_alone(tmp_path: Path) -> None:
    engines = make_engines(sqlite_url(tmp_path, "b.db"))
    await upgrade(engines)
    assert engines.batcher is not None

    def insert(key: str):  # type: ignore[no-untyped-def]
        async def unit(conn: AsyncConnection) -> Any:
            await conn.execute(T.processed_events.insert().values(key=key, created_at=NOW))
            return key

        return unit

    await engines.write(insert("taken"))
    units = [insert(f"k{i}") for i in range(300)]
    units.insert(150, insert("taken"))  # a duplicate key in the middle of a batch
    results = await asyncio.gather(*(engines.write(u) for u in units), return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], IntegrityError)
    assert [r for r in results if not isinstance(r, Exception)] == [f"k{i}" for i in range(300)]
    async with engines.reader.connect() as conn:
        count = (await conn.execute(sa.select(sa.func.count()).select_from(T.processed_events))).scalar_one()
    assert count == 301  # every good write is durable; the bad one changed nothing
    await engines.dispose()


async def test_a_write_is_visible_to_readers_when_it_returns(tmp_path: Path) -> None:
    engines = make_engines(sqlite_url(tmp_path, "b.db"))
    await upgrade(engines)

    async def unit(conn: AsyncConnection) -> None:
        await conn.execute(T.processed_events.insert().values(key="x", created_at=NOW))

    await engines.write(unit)
    async with engines.reader.connect() as conn:
        assert (await conn.execute(sa.select(T.processed_events.c.key))).scalar_one() == "x"
    await engines.dispose()
