"""The mocks port on SQL: one row per mock interview, its plan, answers and summary in a JSON column; the
partial unique index on running rows keeps one running mock per user across processes."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.features.mock.models import MockSession
from bot.storage import tables as T
from bot.storage.base import SqlBase

_M = T.mock_sessions.c
_FIXED = {"id", "user_id", "state", "created_at", "finished_at"}
_BY_ID = sa.select(T.mock_sessions).where(_M.id == sa.bindparam("id"))
_RUNNING = sa.select(T.mock_sessions).where(_M.user_id == sa.bindparam("user_id"), _M.state == "running")
_ALL = sa.select(T.mock_sessions).where(_M.user_id == sa.bindparam("user_id")).order_by(_M.created_at, _M.id)


def _row(mock: MockSession) -> dict[str, Any]:
    return {
        "state": mock.state,
        "data": mock.model_dump(mode="json", exclude=_FIXED),
        "finished_at": mock.finished_at,
    }


def _mock(row: dict[str, Any]) -> MockSession:
    return MockSession.model_validate({**row["data"], **{k: row[k] for k in _FIXED}})


class SqlMocks(SqlBase):
    """Mixed into SqlStore: the MocksPort (bot/features/mock/ports.py)."""

    async def create_mock(self, mock: MockSession) -> MockSession | None:
        values = {**_row(mock), "user_id": mock.user_id, "created_at": mock.created_at}
        try:
            new_id = await self._insert(T.mock_sessions, values)
        except IntegrityError:  # one is running already (or the user is gone)
            return None
        return mock.model_copy(update={"id": new_id})

    async def get_mock(self, mock_id: int) -> MockSession | None:
        found = await self._one(_BY_ID, {"id": mock_id})
        return _mock(found) if found else None

    async def running_mock(self, user_id: int) -> MockSession | None:
        found = await self._one(_RUNNING, {"user_id": user_id})
        return _mock(found) if found else None

    async def save_mock(self, mock: MockSession) -> None:
        async def _unit(conn: AsyncConnection) -> None:
            await conn.execute(T.mock_sessions.update().where(_M.id == mock.id).values(**_row(mock)))

        await self.engines.write(_unit)

    async def list_mocks(self, user_id: int) -> list[MockSession]:
        return [_mock(r) for r in await self._all(_ALL, {"user_id": user_id})]
