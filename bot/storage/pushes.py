"""Durable schedule state for the scheduler: push claims (exactly-once keys) and reminders.

A push is claimed by inserting its unique key (INSERT ... ON CONFLICT DO NOTHING), so of two
schedulers on one database only one wins; a claim left by a crash is taken over by an atomic
update once it is older than the stale timeout. Each step is its own short transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.core.models import Reminder, User
from bot.storage import tables as T
from bot.storage.engine import Engines


class PushStore:
    def __init__(self, engines: Engines) -> None:
        self.engines = engines
        self._w = engines.writer
        self._r = engines.reader
        self._insert = postgresql.insert if engines.writer.dialect.name == "postgresql" else sqlite.insert

    async def users_page(self, after_id: int, limit: int) -> list[User]:
        """Onboarded, not paused users with id > after_id, in id order (keyset pagination)."""
        u = T.users.c
        query = (
            sa.select(T.users)
            .where(u.id > after_id, u.paused.is_(False), u.onboarded.is_(True))
            .order_by(u.id)
            .limit(limit)
        )
        async with self._r.connect() as conn:
            return [User.model_validate(dict(r._mapping)) for r in (await conn.execute(query)).all()]

    async def last_answers(self, user_ids: Sequence[int]) -> dict[int, datetime]:
        if not user_ids:
            return {}
        a = T.attempts.c
        query = (
            sa.select(a.user_id, sa.func.max(a.created_at).label("last"))
            .where(a.user_id.in_(list(user_ids)), a.is_follow_up.is_(False))
            .group_by(a.user_id)
        )
        async with self._r.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {int(r.user_id): r.last for r in rows}  # max() keeps the column's UTCDateTime type

    async def existing_keys(self, keys: Sequence[str]) -> set[str]:
        if not keys:
            return set()
        async with self._r.connect() as conn:
            rows = (await conn.execute(sa.select(T.pushes.c.key).where(T.pushes.c.key.in_(list(keys))))).all()
        return {r.key for r in rows}

    async def claim(
        self, key: str, kind: str, now: datetime, user_id: int | None = None, guild_id: str | None = None
    ) -> int | None:
        """Insert the push's key in state 'claimed'; None when someone already has it."""
        stmt = (
            self._insert(T.pushes)
            .values(
                key=key,
                kind=kind,
                user_id=user_id,
                guild_id=guild_id,
                state="claimed",
                attempts=1,
                payload={},
                created_at=now,
                claimed_at=now,
            )
            .on_conflict_do_nothing(index_elements=["key"])
            .returning(T.pushes.c.id)
        )

        async def _unit(conn: AsyncConnection) -> Any:
            row = (await conn.execute(stmt)).first()
            return int(row[0]) if row else None

        return await self.engines.write(_unit)

    async def claim_many(self, items: Sequence[tuple[str, str, int]], now: datetime) -> dict[str, int]:
        """Claim many (key, kind, user_id) pushes in one statement; returns the keys this call won."""
        if not items:
            return {}
        rows = [
            {"key": k, "kind": kind, "user_id": uid, "guild_id": None, "state": "claimed", "attempts": 1,
             "payload": {}, "created_at": now, "claimed_at": now}
            for k, kind, uid in items
        ]  # fmt: skip
        stmt = (
            self._insert(T.pushes)
            .values(rows)
            .on_conflict_do_nothing(index_elements=["key"])
            .returning(T.pushes.c.key, T.pushes.c.id)
        )

        async def _unit(conn: AsyncConnection) -> Any:
            return {r.key: int(r.id) for r in (await conn.execute(stmt)).all()}

        won: dict[str, int] = await self.engines.write(_unit)
        return won

    async def set_payload(self, push_id: int, payload: dict[str, Any]) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(T.pushes.update().where(T.pushes.c.id == push_id).values(payload=payload))

        await self.engines.write(_unit)

    async def mark(self, push_id: int, state: str, now: datetime) -> None:
        values: dict[str, Any] = {"state": state}
        if state == "sent":
            values["sent_at"] = now

        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(T.pushes.update().where(T.pushes.c.id == push_id).values(**values))

        await self.engines.write(_unit)

    async def stale_claims(self, cutoff: datetime, limit: int = 500) -> list[dict[str, Any]]:
        p = T.pushes.c
        query = sa.select(T.pushes).where(p.state == "claimed", p.claimed_at < cutoff).order_by(p.id).limit(limit)
        async with self._r.connect() as conn:
            return [dict(r._mapping) for r in (await conn.execute(query)).all()]

    async def reclaim(self, push_id: int, cutoff: datetime, now: datetime) -> bool:
        """Take over a stale claim atomically (only one scheduler wins)."""
        p = T.pushes.c
        stmt = (
            T.pushes.update()
            .where(p.id == push_id, p.state == "claimed", p.claimed_at < cutoff)
            .values(claimed_at=now, attempts=p.attempts + 1)
        )

        async def _unit(conn: AsyncConnection) -> Any:
            return bool((await conn.execute(stmt)).rowcount == 1)

        return await self.engines.write(_unit)

    async def push_states(self) -> dict[str, str]:
        async with self._r.connect() as conn:
            rows = (await conn.execute(sa.select(T.pushes.c.key, T.pushes.c.state))).all()
        return {r.key: r.state for r in rows}

    # reminders ----------------------------------------------------------------------------
    async def due_reminders(self, now: datetime, cutoff: datetime, limit: int = 500) -> list[Reminder]:
        r = T.reminders.c
        query = (
            sa.select(T.reminders)
            .where(
                r.due_at <= now,
                sa.or_(r.state == "pending", sa.and_(r.state == "claimed", r.claimed_at < cutoff)),
            )
            .order_by(r.due_at, r.id)
            .limit(limit)
        )
        async with self._r.connect() as conn:
            return [Reminder.model_validate(dict(x._mapping)) for x in (await conn.execute(query)).all()]

    async def claim_reminder(self, reminder_id: int, now: datetime, cutoff: datetime) -> bool:
        r = T.reminders.c
        stmt = (
            T.reminders.update()
            .where(
                r.id == reminder_id,
                sa.or_(r.state == "pending", sa.and_(r.state == "claimed", r.claimed_at < cutoff)),
            )
            .values(state="claimed", claimed_at=now, attempts=r.attempts + 1)
        )

        async def _unit(conn: AsyncConnection) -> Any:
            return bool((await conn.execute(stmt)).rowcount == 1)

        return await self.engines.write(_unit)

    async def get_reminder(self, reminder_id: int) -> Reminder | None:
        async with self._r.connect() as conn:
            row = (await conn.execute(sa.select(T.reminders).where(T.reminders.c.id == reminder_id))).first()
        return Reminder.model_validate(dict(row._mapping)) if row else None

    async def mark_reminder(self, reminder_id: int, state: str) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(T.reminders.update().where(T.reminders.c.id == reminder_id).values(state=state))

        await self.engines.write(_unit)
