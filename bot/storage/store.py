"""The Store port on SQLAlchemy Core: the same queries on SQLite and PostgreSQL.

Every write is one short transaction on the writer engine; reads go to the reader engine.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.core.models import Attempt, Card, Guild, InterviewLog, Question, Reminder, ReviewItem, User
from bot.core.session import Session, dump_session, parse_session
from bot.storage import tables as T
from bot.storage.engine import Engines
from bot.storage.llm_calls import LLMCalls
from bot.storage.personal_data import PERSONAL_PREFIX, PersonalData


def _row(row: sa.Row[Any]) -> dict[str, Any]:
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
    """SET takes the columns named in the parameters; `_id` is the row."""
    return table.update().where(table.c.id == sa.bindparam("_id"))


_USER_BY_IDENTITY = (
    sa.select(T.users)
    .join(T.identities, T.identities.c.user_id == T.users.c.id)
    .where(T.identities.c.platform == sa.bindparam("platform"), T.identities.c.external_id == sa.bindparam("ext"))
)
_USER = sa.select(T.users).where(T.users.c.id == sa.bindparam("user_id"))
_SESSION = sa.select(T.sessions.c.state).where(T.sessions.c.user_id == sa.bindparam("user_id"))
_UPDATE_SESSION = T.sessions.update().where(T.sessions.c.user_id == sa.bindparam("_user_id"))
# The session's JSON compared as text (json type on PostgreSQL has no "="): both sides come from the same
# serializer, given `dump_session`'s fixed field order, so the same state is the same text.
_CLAIM_SESSION = _UPDATE_SESSION.where(
    sa.cast(T.sessions.c.state, sa.Text) == sa.cast(sa.bindparam("was", type_=sa.JSON), sa.Text)
)
_CARD = sa.select(T.cards).where(T.cards.c.id == sa.bindparam("card_id"))
_ATTEMPT = sa.select(T.attempts).where(T.attempts.c.id == sa.bindparam("attempt_id"))
_IDENTITIES = sa.select(T.identities).where(T.identities.c.user_id == sa.bindparam("user_id"))
_C = T.cards.c
_NEXT_DUE = (
    sa.select(T.cards)
    .where(_C.user_id == sa.bindparam("user_id"), _C.suspended.is_(False), _C.due <= sa.bindparam("now"))
    .order_by(_C.due, _C.personal.desc(), _C.id)
    .limit(1)
)
_QUESTION_IDS = sa.select(_C.question_id).where(_C.user_id == sa.bindparam("user_id"))
_CREATED_SINCE = (
    sa.select(sa.func.count().label("n"))
    .select_from(T.cards)
    .where(_C.user_id == sa.bindparam("user_id"), _C.created_at >= sa.bindparam("since"), _C.personal.is_(False))
)
_DUE_COUNT = (
    sa.select(sa.func.count().label("n"))
    .select_from(T.cards)
    .where(_C.user_id == sa.bindparam("user_id"), _C.suspended.is_(False), _C.due <= sa.bindparam("before"))
)


class SqlStore(LLMCalls, PersonalData):
    def __init__(self, engines: Engines) -> None:
        self.engines = engines
        insert = postgresql.insert if engines.writer.dialect.name == "postgresql" else sqlite.insert
        self._claim_event = (
            insert(T.processed_events)
            .on_conflict_do_nothing(index_elements=["key"])
            .returning(T.processed_events.c.key)
        )

    async def _one(self, query: sa.Select[Any], params: dict[str, Any] | None = None) -> dict[str, Any] | None:
        async def _unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (await conn.execute(query, params)).first()
            return _row(row) if row is not None else None

        return await self.engines.read(_unit)

    async def _all(self, query: sa.Select[Any], params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        async def _unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            return [_row(r) for r in (await conn.execute(query, params)).all()]

        return await self.engines.read(_unit)

    async def _insert(self, table: sa.Table, values: dict[str, Any]) -> int:
        async def _unit(conn: AsyncConnection) -> Any:
            result = await conn.execute(insert_returning_id(table), values)
            return int(result.scalar_one())

        return await self.engines.write(_unit)

    # users and identities -------------------------------------------------------------
    async def get_or_create_user(self, platform: str, external_id: str, defaults: User) -> User:
        found = await self._one(_USER_BY_IDENTITY, {"platform": platform, "ext": external_id})
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
        found = await self._one(_USER, {"user_id": user_id})
        return User.model_validate(found) if found else None

    async def save_user(self, user: User) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(update_by_id(T.users), {"_id": user.id, **user.model_dump(exclude={"id"})})

        await self.engines.write(_unit)

    async def identities(self, user_id: int) -> list[tuple[str, str]]:
        rows = await self._all(_IDENTITIES, {"user_id": user_id})
        return [(r["platform"], r["external_id"]) for r in rows]

    async def delete_user(self, user_id: int) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            for table in T.USER_TABLES:
                await conn.execute(table.delete().where(table.c.user_id == user_id))
            await conn.execute(T.users.delete().where(T.users.c.id == user_id))

        await self.engines.write(_unit)

    # conversation state -----------------------------------------------------------------
    async def get_session(self, user_id: int) -> Session:
        found = await self._one(_SESSION, {"user_id": user_id})
        return parse_session(found["state"] if found else None, user_id)

    async def set_session(self, user_id: int, state: Session) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            await self._write_session(conn, user_id, state)

        await self.engines.write(_unit)

    @staticmethod
    async def _write_session(conn: AsyncConnection, user_id: int, state: Session) -> None:
        stored = dump_session(state)
        updated = await conn.execute(_UPDATE_SESSION, {"_user_id": user_id, "state": stored})
        if updated.rowcount == 0:
            await conn.execute(T.sessions.insert(), {"user_id": user_id, "state": stored})

    # cards ------------------------------------------------------------------------------
    async def get_card(self, card_id: int) -> Card | None:
        found = await self._one(_CARD, {"card_id": card_id})
        return Card.model_validate(found) if found else None

    async def card_for_question(self, user_id: int, question_id: str) -> Card | None:
        found = await self._one(
            sa.select(T.cards).where(T.cards.c.user_id == user_id, T.cards.c.question_id == question_id)
        )
        return Card.model_validate(found) if found else None

    async def next_due_card(self, user_id: int, now: datetime) -> Card | None:
        found = await self._one(_NEXT_DUE, {"user_id": user_id, "now": now})
        return Card.model_validate(found) if found else None

    async def card_question_ids(self, user_id: int) -> set[str]:
        rows = await self._all(_QUESTION_IDS, {"user_id": user_id})
        return {r["question_id"] for r in rows}

    async def count_cards_created_since(self, user_id: int, since: datetime) -> int:
        found = await self._one(_CREATED_SINCE, {"user_id": user_id, "since": since})
        return int(found["n"]) if found else 0

    async def count_due(self, user_id: int, before: datetime) -> int:
        found = await self._one(_DUE_COUNT, {"user_id": user_id, "before": before})
        return int(found["n"]) if found else 0

    async def list_cards(self, user_id: int) -> list[Card]:
        rows = await self._all(sa.select(T.cards).where(T.cards.c.user_id == user_id).order_by(T.cards.c.id))
        return [Card.model_validate(r) for r in rows]

    async def create_card(
        self, user_id: int, question_id: str, fsrs: dict[str, Any], due: datetime, personal: bool, now: datetime
    ) -> Card:
        values = dict(
            user_id=user_id,
            question_id=question_id,
            fsrs=fsrs,
            due=due,
            suspended=False,
            is_new=True,
            personal=personal,
            created_at=now,
        )
        try:
            card_id = await self._insert(T.cards, values)
        except IntegrityError:  # created concurrently: return the existing one
            existing = await self.card_for_question(user_id, question_id)
            if existing is None:
                raise
            return existing
        return Card.model_validate({"id": card_id, **values})

    async def save_card(self, card: Card) -> None:
        async def _unit(conn: AsyncConnection) -> Any:
            await self._save_card(conn, card)

        await self.engines.write(_unit)

    @staticmethod
    async def _save_card(conn: Any, card: Card) -> None:
        await conn.execute(update_by_id(T.cards), {"_id": card.id, **card.model_dump(exclude={"id", "user_id"})})

    # attempts ---------------------------------------------------------------------------
    async def add_attempt(self, attempt: Attempt) -> Attempt:
        values = attempt.model_dump(mode="json", exclude={"id"})
        values.update(created_at=attempt.created_at, graded_at=attempt.graded_at)
        attempt_id = await self._insert(T.attempts, values)
        return attempt.model_copy(update={"id": attempt_id})

    async def open_attempt(self, attempt: Attempt, session_was: Session, session: Session) -> Attempt | None:
        values = attempt.model_dump(mode="json", exclude={"id"})
        values.update(created_at=attempt.created_at, graded_at=attempt.graded_at)
        claim = {"_user_id": attempt.user_id, "was": dump_session(session_was), "state": dump_session(session)}

        async def _unit(conn: AsyncConnection) -> int | None:
            claimed = await conn.execute(_CLAIM_SESSION, claim)
            if claimed.rowcount != 1:
                return None
            return int((await conn.execute(insert_returning_id(T.attempts), values)).scalar_one())

        attempt_id = await self.engines.write(_unit)
        return None if attempt_id is None else attempt.model_copy(update={"id": attempt_id})

    async def get_attempt(self, attempt_id: int) -> Attempt | None:
        found = await self._one(_ATTEMPT, {"attempt_id": attempt_id})
        return Attempt.model_validate(found) if found else None

    async def finish_attempt(self, attempt: Attempt, card: Card | None, session: Session | None = None) -> None:
        """Write the attempt's outcome, the rescheduled card and the new session in one transaction."""
        values = attempt.model_dump(mode="json", exclude={"id", "user_id", "created_at"})
        values.update(graded_at=attempt.graded_at)

        async def _unit(conn: AsyncConnection) -> Any:
            await conn.execute(update_by_id(T.attempts), {"_id": attempt.id, **values})
            if card is not None:
                await self._save_card(conn, card)
            if session is not None:
                await self._write_session(conn, attempt.user_id, session)

        await self.engines.write(_unit)

    async def list_attempts(self, user_id: int) -> list[Attempt]:
        a = T.attempts.c
        rows = await self._all(sa.select(T.attempts).where(a.user_id == user_id).order_by(a.created_at, a.id))
        return [Attempt.model_validate(r) for r in rows]

    async def latest_attempt_for_card(self, card_id: int) -> Attempt | None:
        a = T.attempts.c
        found = await self._one(
            sa.select(T.attempts).where(a.card_id == card_id, a.is_follow_up.is_(False)).order_by(a.id.desc()).limit(1)
        )
        return Attempt.model_validate(found) if found else None

    async def attempts_with_status(self, status: str, limit: int = 100) -> list[Attempt]:
        a = T.attempts.c
        rows = await self._all(sa.select(T.attempts).where(a.status == status).order_by(a.id).limit(limit))
        return [Attempt.model_validate(r) for r in rows]

    async def claim_attempt(self, attempt_id: int, from_status: str, to_status: str) -> bool:
        """Move an attempt between statuses atomically; False if it was not in `from_status`."""
        a = T.attempts.c

        async def _unit(conn: AsyncConnection) -> Any:
            result = await conn.execute(
                T.attempts.update().where(a.id == attempt_id, a.status == from_status).values(status=to_status)
            )
            return bool(result.rowcount == 1)

        return await self.engines.write(_unit)

    # personal questions, interviews, reviews, reminders ------------------------------------
    async def add_personal_question(self, user_id: int, question: Question) -> Question:
        async def _unit(conn: AsyncConnection) -> Any:
            pid = (
                await conn.execute(
                    T.personal_questions.insert()
                    .values(user_id=user_id, data={}, created_at=sa.func.now())
                    .returning(T.personal_questions.c.id)
                )
            ).scalar_one()
            saved = question.model_copy(update={"id": f"{PERSONAL_PREFIX}{pid}"})
            await conn.execute(
                T.personal_questions.update().where(T.personal_questions.c.id == pid).values(data=saved.model_dump())
            )
            return saved

        return await self.engines.write(_unit)

    async def get_personal_question(self, question_id: str) -> Question | None:
        if not question_id.startswith(PERSONAL_PREFIX) or not question_id[len(PERSONAL_PREFIX) :].isdigit():
            return None
        pid = int(question_id[len(PERSONAL_PREFIX) :])
        found = await self._one(sa.select(T.personal_questions.c.data).where(T.personal_questions.c.id == pid))
        return Question.model_validate(found["data"]) if found else None

    async def add_interview(self, log: InterviewLog) -> InterviewLog:
        new_id = await self._insert(T.interviews, log.model_dump(exclude={"id"}))
        return log.model_copy(update={"id": new_id})

    async def list_interviews(self, user_id: int) -> list[InterviewLog]:
        rows = await self._all(
            sa.select(T.interviews).where(T.interviews.c.user_id == user_id).order_by(T.interviews.c.at)
        )
        return [InterviewLog.model_validate(r) for r in rows]

    async def add_review_item(self, item: ReviewItem) -> ReviewItem:
        new_id = await self._insert(T.review_items, item.model_dump(exclude={"id"}))
        return item.model_copy(update={"id": new_id})

    async def relink_review_item(self, item: ReviewItem) -> bool:
        c = T.review_items.c
        stmt = (
            sa.update(T.review_items)
            .where(c.id == item.id, c.user_id == item.user_id)
            .values(
                question_id=item.question_id, matched_bank=item.matched_bank, topic=item.topic, subtopic=item.subtopic
            )
        )

        async def _unit(conn: AsyncConnection) -> Any:
            return (await conn.execute(stmt)).rowcount

        return bool(await self.engines.write(_unit))

    async def list_review_items(self, user_id: int) -> list[ReviewItem]:
        c = T.review_items.c
        rows = await self._all(sa.select(T.review_items).where(c.user_id == user_id).order_by(c.created_at, c.id))
        return [ReviewItem.model_validate(r) for r in rows]

    async def add_reminder(self, reminder: Reminder) -> Reminder:
        new_id = await self._insert(T.reminders, reminder.model_dump(exclude={"id"}))
        return reminder.model_copy(update={"id": new_id})

    async def list_reminders(self, user_id: int) -> list[Reminder]:
        c = T.reminders.c
        rows = await self._all(sa.select(T.reminders).where(c.user_id == user_id).order_by(c.due_at, c.id))
        return [Reminder.model_validate(r) for r in rows]

    # study servers ----------------------------------------------------------------------
    async def save_guild(self, guild: Guild) -> None:
        values = guild.model_dump(exclude={"id"})
        try:

            async def _unit(conn: AsyncConnection) -> Any:
                updated = await conn.execute(T.guilds.update().where(T.guilds.c.id == guild.id).values(**values))
                if updated.rowcount == 0:
                    await conn.execute(T.guilds.insert().values(id=guild.id, **values))

            await self.engines.write(_unit)
        except IntegrityError:  # inserted concurrently: update that row instead

            async def _unit(conn: AsyncConnection) -> Any:
                await conn.execute(T.guilds.update().where(T.guilds.c.id == guild.id).values(**values))

            await self.engines.write(_unit)

    async def get_guild(self, guild_id: str) -> Guild | None:
        found = await self._one(sa.select(T.guilds).where(T.guilds.c.id == guild_id))
        return Guild.model_validate(found) if found else None

    async def list_guilds(self, enabled_only: bool = True) -> list[Guild]:
        query = sa.select(T.guilds).order_by(T.guilds.c.id)
        if enabled_only:
            query = query.where(T.guilds.c.enabled.is_(True))
        return [Guild.model_validate(r) for r in await self._all(query)]

    async def leaderboard(self, source: str, since: datetime, limit: int = 10) -> list[tuple[int, int, int]]:
        """Points are each member's best grade score per question, counted once; attempts without a
        score (self-rated, revealed, ungraded), follow-ups and personal questions do not count."""
        a = T.attempts.c
        score = a.grade["score"].as_integer()
        best = (
            sa.select(a.user_id, sa.func.max(score).label("best"))
            .where(a.source == source, a.created_at >= since, a.is_follow_up.is_(False), score.is_not(None))
            .where(a.question_id.not_like(f"{PERSONAL_PREFIX}%"))
            .group_by(a.user_id, a.question_id)
            .subquery()
        )
        points = sa.func.sum(best.c.best).label("points")
        answers = sa.func.count().label("answers")
        rows = await self._all(
            sa.select(best.c.user_id, points, answers)
            .group_by(best.c.user_id)
            .order_by(points.desc(), answers.desc(), best.c.user_id)
            .limit(limit)
        )
        return [(int(r["user_id"]), int(r["points"]), int(r["answers"])) for r in rows]

    # idempotency ------------------------------------------------------------------------
    async def claim_event(self, key: str, now: datetime) -> bool:
        """Insert the event's key; False when it was already there (no exception, so batches stay whole)."""
        stmt, params = self._claim_event, {"key": key[:128], "created_at": now}

        async def _unit(conn: AsyncConnection) -> Any:
            return (await conn.execute(stmt, params)).first() is not None

        return bool(await self.engines.write(_unit))

    async def forget_events_before(self, cutoff: datetime) -> int:
        async def _unit(conn: AsyncConnection) -> Any:
            result = await conn.execute(T.processed_events.delete().where(T.processed_events.c.created_at < cutoff))
            return int(result.rowcount or 0)

        return await self.engines.write(_unit)
