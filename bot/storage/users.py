"""The users port on SQL: users and their identities, conversation state, events processed once."""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.models import User
from bot.kernel.session import Session, dump_session, parse_session
from bot.kernel.store_ports import EventClaim
from bot.storage import tables as T
from bot.storage.base import SqlBase, insert_returning_id, update_by_id
from bot.storage.group_commit import Claim, Keyed, Plain, Statement

_USER_BY_IDENTITY = Keyed(  # lookups of one platform, many users, run as one query (group_commit.Lookup)
    sa.select(T.users)
    .join(T.identities, T.identities.c.user_id == T.users.c.id)
    .where(T.identities.c.platform == sa.bindparam("platform")),
    T.identities.c.external_id,
    "ext",
)
_USER = Keyed(sa.select(T.users), T.users.c.id, "user_id")
_I = T.identities.c
_IDENTITIES = sa.select(T.identities).where(_I.user_id == sa.bindparam("user_id")).order_by(_I.platform, _I.external_id)
_SESSION = Keyed(sa.select(T.sessions.c.state), T.sessions.c.user_id, "user_id")
_USER_AND_SESSION = Keyed(
    sa.select(T.users, T.sessions.c.state.label("_session")).outerjoin(
        T.sessions, T.sessions.c.user_id == T.users.c.id
    ),
    T.users.c.id,
    "user_id",
)
_E = T.processed_events.c
_EVENT_DONE = sa.select(_E.done).where(_E.key == sa.bindparam("key"))
_FINISH_EVENT = T.processed_events.update().where(_E.key == sa.bindparam("_key")).values(done=True)
_UPDATE_SESSION = T.sessions.update().where(T.sessions.c.user_id == sa.bindparam("_user_id"))
# The session's JSON compared as text (json type on PostgreSQL has no "="): both sides come from the same
# serializer, given `dump_session`'s fixed field order, so the same state is the same text.
CLAIM_SESSION = _UPDATE_SESSION.where(
    sa.cast(T.sessions.c.state, sa.Text) == sa.cast(sa.bindparam("was", type_=sa.JSON), sa.Text)
)


def _session_upsert(dialect: str) -> sa.Insert:
    insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(T.sessions)
    stmt: sa.Insert = insert.on_conflict_do_update(index_elements=["user_id"], set_={"state": insert.excluded.state})
    return stmt


_SESSION_UPSERT = {name: _session_upsert(name) for name in ("sqlite", "postgresql")}


def session_write(dialect: str, user_id: int, state: Session) -> Statement:
    """The statement that makes `state` the user's session (inserted, or replacing the stored one): a plain write."""
    return _SESSION_UPSERT[dialect], {"user_id": user_id, "state": dump_session(state)}


class SqlUsers(SqlBase):
    """Mixed into SqlStore: the UsersPort (bot/kernel/store_ports.py)."""

    async def get_or_create_user(self, platform: str, external_id: str, defaults: User) -> User:
        found = await self._lookup(_USER_BY_IDENTITY, {"platform": platform, "ext": external_id})
        if found:
            return User.model_validate(found)
        values = defaults.model_dump(exclude={"id"})
        try:

            async def _unit(conn: AsyncConnection) -> Any:
                uid = (await conn.execute(insert_returning_id(T.users), values)).scalar_one()
                await conn.execute(
                    T.identities.insert().values(platform=platform, external_id=external_id, user_id=uid)
                )
                return uid

            uid = await self.engines.write(_unit)
        except IntegrityError:  # another replica created it first
            return await self.get_or_create_user(platform, external_id, defaults)
        return defaults.model_copy(update={"id": int(uid)})

    async def get_user(self, user_id: int) -> User | None:
        found = await self._lookup(_USER, {"user_id": user_id})
        return User.model_validate(found) if found else None

    async def save_user(self, user: User) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(update_by_id(T.users), {"_id": user.id, **user.model_dump(exclude={"id"})})

        await self.engines.write(_unit)

    async def identities(self, user_id: int) -> list[tuple[str, str]]:
        rows = await self._all(_IDENTITIES, {"user_id": user_id})
        return [(r["platform"], r["external_id"]) for r in rows]

    async def delete_user(self, user_id: int) -> None:
        """Everything of the user is deleted but their usage rows, kept with no user and no kind: they go on
        counting toward their account's rolling day and the global budgets (bot/kernel/identity.py)."""

        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(
                T.llm_calls.update().where(T.llm_calls.c.user_id == user_id).values(user_id=None, kind="")
            )
            await conn.execute(
                T.transcriptions.update().where(T.transcriptions.c.user_id == user_id).values(user_id=None)
            )
            for table in T.USER_TABLES:
                await conn.execute(table.delete().where(table.c.user_id == user_id))
            await conn.execute(T.users.delete().where(T.users.c.id == user_id))

        await self.engines.write(_unit)

    async def get_session(self, user_id: int) -> Session:
        found = await self._lookup(_SESSION, {"user_id": user_id})
        return parse_session(found["state"] if found else None, user_id)

    async def get_user_and_session(self, user_id: int) -> tuple[User, Session] | None:
        found = await self._lookup(_USER_AND_SESSION, {"user_id": user_id})
        if found is None:
            return None
        state = found.pop("_session")
        return User.model_validate(found), parse_session(state, user_id)

    async def set_session(self, user_id: int, state: Session) -> None:
        await self.engines.write(Plain([session_write(self.dialect, user_id, state)]))

    @cached_property
    def _insert_event(self) -> Any:
        return postgresql.insert if self.engines.writer.dialect.name == "postgresql" else sqlite.insert

    @cached_property
    def _claim_event(self) -> sa.Insert:
        stmt: sa.Insert = (
            self._insert_event(T.processed_events)
            .on_conflict_do_nothing(index_elements=["key"])
            .returning(T.processed_events.c.key)
        )
        return stmt

    @cached_property
    def _begin_event(self) -> sa.Insert:
        """Insert a fresh claim, or take over one that is unfinished and older than `stale_before`."""
        insert = self._insert_event(T.processed_events)
        stmt: sa.Insert = insert.on_conflict_do_update(
            index_elements=["key"],
            set_={"created_at": insert.excluded.created_at},
            where=(_E.done == sa.false()) & (_E.created_at < sa.bindparam("stale_before")),
        ).returning(_E.key)
        return stmt

    async def claim_event(self, key: str, now: datetime) -> bool:
        """Insert the event's key; False when it was already there (no exception, so batches stay whole)."""
        params = {"key": key[:128], "created_at": now, "done": True}
        return bool(await self.engines.write(Claim(self._claim_event, params, params["key"])))

    async def begin_event(self, key: str, now: datetime, stale_before: datetime) -> EventClaim:
        stmt = self._begin_event
        params = {"key": key[:128], "created_at": now, "done": False, "stale_before": stale_before}

        async def _unit(conn: AsyncConnection) -> EventClaim:
            if (await conn.execute(stmt, params)).first() is not None:
                return EventClaim.NEW
            done = (await conn.execute(_EVENT_DONE, {"key": key[:128]})).scalar()
            return EventClaim.DONE if done else EventClaim.BUSY

        # a new key (nearly every update) joins its batch's one insert; a key already there runs `_unit` alone
        fresh = {"key": key[:128], "created_at": now, "done": False}
        claim = Claim(self._claim_event, fresh, fresh["key"], won=EventClaim.NEW, otherwise=_unit)
        result: EventClaim = await self.engines.write(claim)
        return result

    async def finish_event(self, key: str) -> None:
        await self.engines.write(Plain([(_FINISH_EVENT, {"_key": key[:128]})]))

    async def forget_events_before(self, cutoff: datetime, batch: int = 5000) -> int:
        """Delete the ids claimed before `cutoff`, `batch` at a time: each batch is its own short write, so the
        first round after a long time (or an upgrade) never holds SQLite's one writer for long."""
        oldest = sa.select(_E.key).where(_E.created_at < cutoff).limit(batch).scalar_subquery()
        delete = T.processed_events.delete().where(_E.key.in_(oldest))

        async def _unit(conn: AsyncConnection) -> Any:
            return int((await conn.execute(delete)).rowcount or 0)

        total = 0
        while (removed := await self.engines.write(_unit)) > 0:
            total += removed
            if removed < batch:
                break
        return total
