"""The interviews port on SQL: what users log about their real interviews. Personal questions (their ids
are this module's "personal:<row id>", an encoding no other layer reads), interviews, review items (/review
filed in one transaction), reminders, and the counts the caps on personal data are checked against."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.models import InterviewLog, Question, Reminder, ReviewItem
from bot.kernel.ports import WriteFailed
from bot.storage import tables as T
from bot.storage.base import SqlBase

PERSONAL_PREFIX = "personal:"

_C, _P, _R, _I = T.cards.c, T.personal_questions.c, T.review_items.c, T.interviews.c
_NEW_PERSONAL = T.personal_questions.insert().returning(_P.id)
_NEW_PERSONAL_NOW = T.personal_questions.insert().values(created_at=sa.func.now()).returning(_P.id)
_SET_PERSONAL = T.personal_questions.update().where(_P.id == sa.bindparam("_id"))
_DUE_NOW = (
    T.cards.update()
    .where(_C.user_id == sa.bindparam("_user_id"), _C.question_id == sa.bindparam("_question_id"))
    .values(due=sa.bindparam("_now"), suspended=False, personal=True)
)
_NEW_CARD = T.cards.insert()
_NEW_REVIEW = T.review_items.insert().returning(_R.id)


def _count(table: sa.Table) -> sa.Select[Any]:
    c = table.c
    return (
        sa.select(sa.func.count())
        .select_from(table)
        .where(c.user_id == sa.bindparam("user_id"), c.created_at >= sa.bindparam("since"))
    )


_REVIEWS_SINCE, _INTERVIEWS_SINCE = _count(T.review_items), _count(T.interviews)
_PERSONAL = sa.select(_P.data).where(_P.user_id == sa.bindparam("user_id")).order_by(_P.id)
_PERSONAL_BY_ID = sa.select(_P.data).where(_P.id == sa.bindparam("id"))
_INTERVIEWS = sa.select(T.interviews).where(_I.user_id == sa.bindparam("user_id")).order_by(_I.at, _I.id)
_REVIEWS = sa.select(T.review_items).where(_R.user_id == sa.bindparam("user_id")).order_by(_R.created_at, _R.id)
_RELINK = (
    T.review_items.update()
    .where(_R.id == sa.bindparam("_id"), _R.user_id == sa.bindparam("_user_id"))
    .values(
        question_id=sa.bindparam("question_id"),
        matched_bank=sa.bindparam("matched_bank"),
        topic=sa.bindparam("topic"),
        subtopic=sa.bindparam("subtopic"),
    )
)


def _rename(table: sa.Table) -> sa.Update:
    c = table.c
    return (
        table.update()
        .where(c.user_id == sa.bindparam("_user_id"), c.company.in_(sa.bindparam("_names", expanding=True)))
        .values(company=sa.bindparam("_new"))
    )


_RENAME_INTERVIEWS, _RENAME_REVIEWS = _rename(T.interviews), _rename(T.review_items)
_M = T.reminders.c
_REMINDERS = sa.select(T.reminders).where(_M.user_id == sa.bindparam("user_id")).order_by(_M.due_at, _M.id)
_CANCEL_REMINDERS = (
    T.reminders.update()
    .where(
        _M.user_id == sa.bindparam("_user_id"),
        _M.id.in_(sa.bindparam("_ids", expanding=True)),
        _M.state == "pending",
    )
    .values(state="cancelled")
)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # "since ever": every row's created_at is after it


def personal_id(row_id: int) -> str:
    return f"{PERSONAL_PREFIX}{row_id}"


def personal_row_id(question_id: str) -> int | None:
    """The personal_questions row a question id names; None when it names none (a bank id, a malformed one)."""
    number = question_id.removeprefix(PERSONAL_PREFIX)
    return int(number) if number != question_id and number.isascii() and number.isdigit() else None


class PersonalData(SqlBase):
    """Mixed into SqlStore: the InterviewsPort (bot/kernel/store_ports.py)."""

    async def add_personal_question(self, user_id: int, question: Question) -> Question:
        async def _unit(conn: AsyncConnection) -> Question:
            pid = (await conn.execute(_NEW_PERSONAL_NOW, {"user_id": user_id, "data": {}})).scalar_one()
            saved = question.model_copy(update={"id": personal_id(pid)})
            await conn.execute(_SET_PERSONAL, {"_id": pid, "data": saved.model_dump()})
            return saved

        return await self.engines.write(_unit)

    async def get_personal_question(self, question_id: str) -> Question | None:
        pid = personal_row_id(question_id)
        found = None if pid is None else await self._one(_PERSONAL_BY_ID, {"id": pid})
        return Question.model_validate(found["data"]) if found else None

    async def add_interview(self, log: InterviewLog) -> InterviewLog:
        new_id = await self._insert(T.interviews, log.model_dump(exclude={"id"}))
        return log.model_copy(update={"id": new_id})

    async def list_interviews(self, user_id: int) -> list[InterviewLog]:
        return [InterviewLog.model_validate(r) for r in await self._all(_INTERVIEWS, {"user_id": user_id})]

    async def add_review_item(self, item: ReviewItem) -> ReviewItem:
        new_id = await self._insert(T.review_items, item.model_dump(exclude={"id"}))
        return item.model_copy(update={"id": new_id})

    async def list_review_items(self, user_id: int) -> list[ReviewItem]:
        return [ReviewItem.model_validate(r) for r in await self._all(_REVIEWS, {"user_id": user_id})]

    async def relink_review_item(self, item: ReviewItem) -> bool:
        fields = item.model_dump(include={"question_id", "matched_bank", "topic", "subtopic"})

        async def _unit(conn: AsyncConnection) -> Any:
            return (await conn.execute(_RELINK, {"_id": item.id, "_user_id": item.user_id, **fields})).rowcount

        return bool(await self.engines.write(_unit))

    async def rename_company(self, user_id: int, names: set[str], new: str) -> tuple[int, int]:
        """Both tables in one transaction; `WriteFailed` (and nothing changed) when any of it fails."""
        if not names:
            return 0, 0
        params = {"_user_id": user_id, "_names": sorted(names), "_new": new}

        async def _unit(conn: AsyncConnection) -> tuple[int, int]:
            interviews = (await conn.execute(_RENAME_INTERVIEWS, params)).rowcount
            items = (await conn.execute(_RENAME_REVIEWS, params)).rowcount
            return int(interviews), int(items)

        try:
            return await self.engines.write(_unit)
        except (SQLAlchemyError, OSError, UnicodeError) as err:  # rolled back: no entry was renamed
            raise WriteFailed("the company was not renamed") from err

    async def add_reminder(self, reminder: Reminder) -> Reminder:
        new_id = await self._insert(T.reminders, reminder.model_dump(exclude={"id"}))
        return reminder.model_copy(update={"id": new_id})

    async def list_reminders(self, user_id: int) -> list[Reminder]:
        return [Reminder.model_validate(r) for r in await self._all(_REMINDERS, {"user_id": user_id})]

    async def cancel_reminders(self, user_id: int, reminder_ids: Sequence[int]) -> int:
        if not reminder_ids:
            return 0
        params = {"_user_id": user_id, "_ids": sorted(set(reminder_ids))}

        async def _unit(conn: AsyncConnection) -> int:
            return int((await conn.execute(_CANCEL_REMINDERS, params)).rowcount or 0)

        return await self.engines.write(_unit)

    async def log_review(
        self, item: ReviewItem, personal: Question | None, fsrs: dict[str, Any], now: datetime
    ) -> tuple[ReviewItem, Question | None]:
        """The personal question (when given), its card made due now and the review entry, in one
        transaction; `WriteFailed` (and nothing written) when any of it fails."""

        async def _unit(conn: AsyncConnection) -> tuple[ReviewItem, Question | None]:
            saved = None
            question_id = item.question_id
            if personal is not None:
                new = {"user_id": item.user_id, "data": {}, "created_at": now}
                pid = (await conn.execute(_NEW_PERSONAL, new)).scalar_one()
                saved = personal.model_copy(update={"id": personal_id(pid)})
                question_id = saved.id
                await conn.execute(_SET_PERSONAL, {"_id": pid, "data": saved.model_dump()})
            card = {"_user_id": item.user_id, "_question_id": question_id, "_now": now}
            if not (await conn.execute(_DUE_NOW, card)).rowcount:
                await conn.execute(
                    _NEW_CARD,
                    {"user_id": item.user_id, "question_id": question_id, "fsrs": fsrs, "due": now,
                     "suspended": False, "is_new": True, "personal": True, "created_at": now},
                )  # fmt: skip
            row = item.model_copy(update={"question_id": question_id})
            new_id = (await conn.execute(_NEW_REVIEW, row.model_dump(exclude={"id"}))).scalar_one()
            return row.model_copy(update={"id": int(new_id)}), saved

        try:
            return await self.engines.write(_unit)
        except (SQLAlchemyError, OSError, UnicodeError) as err:  # rolled back: nothing of it is stored
            raise WriteFailed("the review was not saved") from err

    async def list_personal_questions(self, user_id: int) -> list[Question]:
        """All the user's personal questions in one query (/export), oldest first."""

        async def _unit(conn: AsyncConnection) -> list[Question]:
            rows = (await conn.execute(_PERSONAL, {"user_id": user_id})).all()
            return [Question.model_validate(r.data) for r in rows]

        return await self.engines.read(_unit)

    async def count_review_items(self, user_id: int, since: datetime | None = None) -> int:
        return await self._scalar(_REVIEWS_SINCE, {"user_id": user_id, "since": since or EPOCH})

    async def count_interviews(self, user_id: int, since: datetime | None = None) -> int:
        return await self._scalar(_INTERVIEWS_SINCE, {"user_id": user_id, "since": since or EPOCH})
