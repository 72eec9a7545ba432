"""Durable schedule state for the scheduler: push claims (exactly-once keys) and reminders.

A push is claimed by inserting its unique key (INSERT ... ON CONFLICT DO NOTHING), so of two
schedulers on one database only one wins; a claim left by a crash is taken over by an atomic
update once it is older than the stale timeout. Each step is its own short transaction.

States: claimed -> sending (committed right before the platform request, see bot/kernel/wire.py)
-> sent | failed | skipped. A claim is retried; a push left in "sending" by a crash may have been
delivered, so it is never sent again: it becomes "unconfirmed" (the same for reminders).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.models import Reminder, User
from bot.kernel.store_ports import StaleClaim
from bot.storage import tables as T
from bot.storage.base import update_by_id
from bot.storage.engine import Engines

R = TypeVar("R")


class PushStore:
    def __init__(self, engines: Engines) -> None:
        self.engines = engines
        self._w = engines.writer
        self._insert = postgresql.insert if engines.writer.dialect.name == "postgresql" else sqlite.insert

    async def _rows(self, query: sa.Select[Any], convert: Callable[[sa.Row[Any]], R]) -> list[R]:
        async def _unit(conn: AsyncConnection) -> list[R]:
            return [convert(r) for r in (await conn.execute(query)).all()]

        return await self.engines.read(_unit)

    async def users_page(self, after_id: int, limit: int) -> list[User]:
        """Onboarded, not paused users with id > after_id, in id order (keyset pagination)."""
        u = T.users.c
        query = (
            sa.select(T.users)
            .where(u.id > after_id, u.paused.is_(False), u.onboarded.is_(True))
            .order_by(u.id)
            .limit(limit)
        )
        return await self._rows(query, lambda r: User.model_validate(dict(r._mapping)))

    async def last_answers(self, user_ids: Sequence[int]) -> dict[int, datetime]:
        if not user_ids:
            return {}
        a = T.attempts.c
        query = (
            sa.select(a.user_id, sa.func.max(a.created_at).label("last"))
            .where(a.user_id.in_(list(user_ids)), a.is_follow_up.is_(False))
            .group_by(a.user_id)
        )
        rows = await self._rows(query, lambda r: r)
        return {int(r.user_id): r.last for r in rows}  # max() keeps the column's UTCDateTime type

    async def existing_keys(self, keys: Sequence[str]) -> set[str]:
        if not keys:
            return set()
        rows = await self._rows(sa.select(T.pushes.c.key).where(T.pushes.c.key.in_(list(keys))), lambda r: r.key)
        return set(rows)

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

    async def mark_sending(self, push_id: int, payload: dict[str, Any], now: datetime) -> None:
        """The push is about to leave: from now on a crash must not send it again. The replies are
        kept with it (what the user was sent, or may have been); `claimed_at` restarts the clock."""

        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(
                update_by_id(T.pushes), {"_id": push_id, "state": "sending", "payload": payload, "claimed_at": now}
            )

        await self.engines.write(_unit)

    async def release(self, push_id: int) -> None:
        """Back from "sending" to "claimed": the platform answered with an error, so the push was
        not delivered and a later tick retries it (after the stale timeout, up to MAX_ATTEMPTS)."""
        p = T.pushes.c

        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(T.pushes.update().where(p.id == push_id, p.state == "sending").values(state="claimed"))

        await self.engines.write(_unit)

    async def abandon_unconfirmed(self, cutoff: datetime) -> int:
        """Pushes and reminders left in "sending" (by a process that died mid-request) become
        "unconfirmed": they may have been delivered, so they are never sent again."""

        async def _unit(conn: AsyncConnection) -> Any:
            n = 0
            for table in (T.pushes, T.reminders):
                c = table.c
                stmt = table.update().where(c.state == "sending", c.claimed_at < cutoff).values(state="unconfirmed")
                n += int((await conn.execute(stmt)).rowcount or 0)
            return n

        return int(await self.engines.write(_unit))

    async def mark(self, push_id: int, state: str, now: datetime) -> None:
        values: dict[str, Any] = {"_id": push_id, "state": state}
        if state == "sent":
            values["sent_at"] = now

        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(update_by_id(T.pushes), values)

        await self.engines.write(_unit)

    async def stale_claims(self, cutoff: datetime, limit: int = 500) -> list[StaleClaim]:
        p = T.pushes.c
        query = (
            sa.select(p.id, p.kind, p.user_id, p.attempts, p.payload)
            .where(p.state == "claimed", p.claimed_at < cutoff)
            .order_by(p.id)
            .limit(limit)
        )
        return await self._rows(query, lambda r: StaleClaim(r.id, r.kind, r.user_id, r.attempts, r.payload))

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
        rows = await self._rows(sa.select(T.pushes.c.key, T.pushes.c.state), lambda r: r)
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
        return await self._rows(query, lambda x: Reminder.model_validate(dict(x._mapping)))

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
        rows = await self._rows(sa.select(T.reminders).where(T.reminders.c.id == reminder_id), lambda r: r)
        return Reminder.model_validate(dict(rows[0]._mapping)) if rows else None

    async def mark_reminder(self, reminder_id: int, state: str, now: datetime | None = None) -> None:
        """Set the reminder's state (and restart its claim clock when `now` is given)."""
        values: dict[str, Any] = {"state": state} if now is None else {"state": state, "claimed_at": now}

        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(T.reminders.update().where(T.reminders.c.id == reminder_id).values(**values))

        await self.engines.write(_unit)
