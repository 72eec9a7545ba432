"""What users log about their real interviews: /review filed in one transaction, their personal questions
read at once for /export, and the counts the caps on personal data are checked against (review entries
and interviews, per local day and in all)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.core.models import Question, ReviewItem
from bot.core.ports import WriteFailed
from bot.storage import tables as T
from bot.storage.engine import Engines

PERSONAL_PREFIX = "personal:"

_C, _P, _R, _I = T.cards.c, T.personal_questions.c, T.review_items.c, T.interviews.c
_NEW_PERSONAL = T.personal_questions.insert().returning(_P.id)
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
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # "since ever": every row's created_at is after it


class PersonalData:
    """Mixed into SqlStore: /review's one-transaction write, personal questions for /export, the caps' counts."""

    engines: Engines

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
                saved = personal.model_copy(update={"id": f"{PERSONAL_PREFIX}{pid}"})
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

    async def _count_since(self, query: sa.Select[Any], user_id: int, since: datetime | None) -> int:
        async def _unit(conn: AsyncConnection) -> int:
            return int((await conn.execute(query, {"user_id": user_id, "since": since or EPOCH})).scalar_one())

        return await self.engines.read(_unit)

    async def count_review_items(self, user_id: int, since: datetime | None = None) -> int:
        return await self._count_since(_REVIEWS_SINCE, user_id, since)

    async def count_interviews(self, user_id: int, since: datetime | None = None) -> int:
        return await self._count_since(_INTERVIEWS_SINCE, user_id, since)
