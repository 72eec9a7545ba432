"""A second floor for the load benches: the library's floor plus the one promise every answer costs.

The library floors (python-telegram-bot's, discord.py's) do nothing before they wait L seconds. The
bot cannot: an answer is stored before it is graded and an update is handled once (DESIGN.md), so
before it waits it must at least claim the update and store the answer, and after it must store
the grade. `StoreFloor` is exactly that and nothing else, written the plain way on the stack
DESIGN.md names: SQLAlchemy 2 Core (async) over aiosqlite, one SQLite file in WAL with
synchronous=NORMAL as the bot's, one transaction before the wait (the update's key and the answer)
and one after (the grade). No reads, no session, no scheduling, no rendering.

It is a reference figure beside the targets, not a target: it shows how much of the bot's distance
from the library floor any store-before-grade bot on this stack pays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

_META = sa.MetaData()
_EVENTS = sa.Table("processed_events", _META, sa.Column("key", sa.String, primary_key=True))
_ANSWERS = sa.Table(
    "answers",
    _META,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("user", sa.String, nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("score", sa.Integer),
)
_CLAIM = _EVENTS.insert()
_STORE = _ANSWERS.insert().returning(_ANSWERS.c.id)
_GRADE = _ANSWERS.update().where(_ANSWERS.c.id == sa.bindparam("answer_id")).values(score=sa.bindparam("score"))


def _pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class StoreFloor:
    """Claim and store before the wait, the grade after: the least a store-before-grade handler does."""

    def __init__(self, path: Path) -> None:
        self.engine: AsyncEngine = create_async_engine(f"sqlite+aiosqlite:///{path}")
        event.listen(self.engine.sync_engine, "connect", _pragmas)

    async def open(self) -> StoreFloor:
        async with self.engine.begin() as conn:
            await conn.run_sync(_META.create_all)
        return self

    async def store(self, key: str, user: str, answer: str) -> int | None:
        """The update's key and the answer in one transaction; None if the key was claimed before."""
        async with self.engine.begin() as conn:
            try:
                await conn.execute(_CLAIM, {"key": key})
            except sa.exc.IntegrityError:
                return None
            return int((await conn.execute(_STORE, {"user": user, "answer": answer})).scalar_one())

    async def grade(self, answer_id: int, score: int) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(_GRADE, {"answer_id": answer_id, "score": score})

    async def stored(self) -> tuple[int, int]:
        """(answers stored, answers graded): the floor must have kept its promise for every answer."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(sa.func.count(), sa.func.count(_ANSWERS.c.score)))).one()
        return int(row[0]), int(row[1])

    async def close(self) -> None:
        await self.engine.dispose()
