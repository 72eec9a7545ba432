"""The LLM budget port on SQL: one row per LLM call (a grading, a second check, a rubric for /review)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import tables as T
from bot.storage.base import SqlBase

_L = T.llm_calls.c
_RECORD = T.llm_calls.insert()
_USER_CALLS = (
    sa.select(sa.func.count())
    .select_from(T.llm_calls)
    .where(_L.user_id == sa.bindparam("user_id"), _L.created_at >= sa.bindparam("since"))
)
_TOKENS = sa.select(sa.func.coalesce(sa.func.sum(_L.tokens), 0)).where(_L.created_at >= sa.bindparam("since"))


class LLMCalls(SqlBase):
    """Mixed into SqlStore: the LLMBudgetPort (bot/kernel/store_ports.py)."""

    async def record_llm_call(self, user_id: int | None, kind: str, tokens: int, at: datetime) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(_RECORD, {"user_id": user_id, "kind": kind, "tokens": max(0, tokens), "created_at": at})

        await self.engines.write(_unit)

    async def count_llm_calls_since(self, user_id: int, since: datetime) -> int:
        return await self._scalar(_USER_CALLS, {"user_id": user_id, "since": since})

    async def llm_tokens_since(self, since: datetime) -> int:
        return await self._scalar(_TOKENS, {"since": since})
