"""The usage ledgers on SQL: one row per LLM call (a grading, a second check, a rubric for /review) and one per
transcription, each with the one-way key of the platform identity that caused it (bot/kernel/identity.py).

A user's usage is counted over their identities' keys, not their id: what a forgotten user of the same account
used still counts (`delete_user` keeps the rows with no user and no kind)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.identity import identity_key
from bot.storage import tables as T
from bot.storage.base import SqlBase

_L, _T, _I = T.llm_calls.c, T.transcriptions.c, T.identities.c
_IDENTITIES = sa.select(_I.platform, _I.external_id).where(_I.user_id == sa.bindparam("user_id"))
_RECORD = T.llm_calls.insert()
_RECORD_TRANSCRIPTION = T.transcriptions.insert()
_KEY_CALLS = (
    sa.select(sa.func.count())
    .select_from(T.llm_calls)
    .where(_L.identity.in_(sa.bindparam("keys", expanding=True)), _L.created_at >= sa.bindparam("since"))
)
_TOKENS = sa.select(sa.func.coalesce(sa.func.sum(_L.tokens), 0)).where(_L.created_at >= sa.bindparam("since"))
_KEY_SECONDS = sa.select(sa.func.coalesce(sa.func.sum(_T.seconds), 0.0)).where(
    _T.identity.in_(sa.bindparam("keys", expanding=True)), _T.created_at >= sa.bindparam("since")
)
_SECONDS = sa.select(sa.func.coalesce(sa.func.sum(_T.seconds), 0.0)).where(_T.created_at >= sa.bindparam("since"))


def _keys(rows: Sequence[Any]) -> list[str]:
    return sorted(identity_key(platform, external_id) for platform, external_id in rows)


async def _owner(conn: AsyncConnection, user_id: int | None) -> tuple[int | None, str | None]:
    """The user id and identity key a usage row is written with: none of either for a user gone (deleted while
    the call ran: its tokens still count toward the global budget)."""
    if user_id is None:
        return None, None
    keys = _keys((await conn.execute(_IDENTITIES, {"user_id": user_id})).all())
    return (user_id, keys[0]) if keys else (None, None)


class LLMCalls(SqlBase):
    """Mixed into SqlStore: the UsagePort (bot/kernel/store_ports.py)."""

    async def record_llm_call(self, user_id: int | None, kind: str, tokens: int, at: datetime) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            uid, key = await _owner(conn, user_id)
            row = {"user_id": uid, "identity": key, "kind": kind, "tokens": max(0, tokens), "created_at": at}
            await conn.execute(_RECORD, row)

        await self.engines.write(_unit)

    async def _identity_keys(self, user_id: int) -> list[str]:
        return _keys([(r["platform"], r["external_id"]) for r in await self._all(_IDENTITIES, {"user_id": user_id})])

    async def count_llm_calls_since(self, user_id: int, since: datetime) -> int:
        keys = await self._identity_keys(user_id)
        return await self._scalar(_KEY_CALLS, {"keys": keys, "since": since}) if keys else 0

    async def llm_tokens_since(self, since: datetime) -> int:
        return await self._scalar(_TOKENS, {"since": since})

    async def record_transcription(self, user_id: int, seconds: float, at: datetime) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            uid, key = await _owner(conn, user_id)
            row = {"user_id": uid, "identity": key, "seconds": max(0.0, seconds), "created_at": at}
            await conn.execute(_RECORD_TRANSCRIPTION, row)

        await self.engines.write(_unit)

    async def transcribed_seconds_since(self, user_id: int, since: datetime) -> float:
        keys = await self._identity_keys(user_id)
        return await self._float(_KEY_SECONDS, {"keys": keys, "since": since}) if keys else 0.0

    async def all_transcribed_seconds_since(self, since: datetime) -> float:
        return await self._float(_SECONDS, {"since": since})

    async def forget_usage_before(self, cutoff: datetime) -> int:
        """Delete the rows of forgotten users (no user id) made before `cutoff`; how many."""

        async def _unit(conn: AsyncConnection) -> int:
            gone = 0
            for table in T.USAGE_TABLES:
                stmt = table.delete().where(table.c.user_id.is_(None), table.c.created_at < cutoff)
                gone += (await conn.execute(stmt)).rowcount or 0
            return gone

        return int(await self.engines.write(_unit))

    async def _float(self, query: sa.Select[Any], params: dict[str, Any]) -> float:
        async def _unit(conn: AsyncConnection) -> float:
            return float((await conn.execute(query, params)).scalar_one())

        return await self.engines.read(_unit)
