"""What every part of SqlStore shares: the engines, row helpers and statements built once."""

from __future__ import annotations

from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.engine import Engines
from bot.storage.group_commit import Keyed, Lookup


def row_dict(row: sa.Row[Any]) -> dict[str, Any]:
    return dict(row._mapping)


# Statements on the answer path are built once, with named parameters: building one per call
# (`.values(**row)`, `col == value`) makes SQLAlchemy coerce every value into a bind parameter
# and walk the whole tree for its cache key, which was about half of its CPU under load. A
# statement built once has its cache key memoized; the values travel as execute() parameters.
@cache
def insert_returning_id(table: sa.Table) -> sa.Insert:
    return table.insert().returning(table.c.id)


@cache
def update_by_id(table: sa.Table) -> sa.Update:
    """SET takes the columns named in the parameters; `_id` is the row. One object per table also lets a write
    batch run many rows of it as one executemany (group_commit.Plain)."""
    return table.update().where(table.c.id == sa.bindparam("_id"))


class SqlBase:
    """Every write is one short transaction on the writer engine; reads go to the reader engine."""

    @property
    def dialect(self) -> str:
        return str(self.engines.writer.dialect.name)

    def __init__(self, engines: Engines) -> None:
        self.engines = engines

    async def _one(self, query: sa.Select[Any], params: dict[str, Any] | None = None) -> dict[str, Any] | None:
        async def _unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (await conn.execute(query, params)).first()
            return row_dict(row) if row is not None else None

        return await self.engines.read(_unit)

    async def _lookup(self, keyed: Keyed, params: dict[str, Any]) -> dict[str, Any] | None:
        """The row of `keyed` with the key in `params`, or None; on SQLite, with the other lookups waiting, in one
        query (group_commit.Lookup)."""
        return await self.engines.read(Lookup(keyed, params))

    async def _all(self, query: sa.Select[Any], params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        async def _unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            return [row_dict(r) for r in (await conn.execute(query, params)).all()]

        return await self.engines.read(_unit)

    async def _scalar(self, query: sa.Select[Any], params: dict[str, Any]) -> int:
        async def _unit(conn: AsyncConnection) -> int:
            return int((await conn.execute(query, params)).scalar_one())

        return await self.engines.read(_unit)

    async def _insert(self, table: sa.Table, values: dict[str, Any]) -> int:
        async def _unit(conn: AsyncConnection) -> Any:
            result = await conn.execute(insert_returning_id(table), values)
            return int(result.scalar_one())

        return await self.engines.write(_unit)
