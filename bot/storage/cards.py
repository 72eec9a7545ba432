"""The cards port on SQL: cards with their FSRS state, and attempts (stored before grading starts)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.models import Attempt, Card
from bot.kernel.session import Session, dump_session
from bot.storage import tables as T
from bot.storage.base import SqlBase, insert_returning_id, update_by_id
from bot.storage.group_commit import Guarded, Keyed, Plain, Statement
from bot.storage.users import CLAIM_SESSION, session_write

_C, _A = T.cards.c, T.attempts.c
_CARD = Keyed(sa.select(T.cards), _C.id, "card_id")
_CARD_FOR_QUESTION = sa.select(T.cards).where(
    _C.user_id == sa.bindparam("user_id"), _C.question_id == sa.bindparam("question_id")
)
_NEXT_DUE = (
    sa.select(T.cards)
    .where(_C.user_id == sa.bindparam("user_id"), _C.suspended.is_(False), _C.due <= sa.bindparam("now"))
    .order_by(_C.due, _C.personal.desc(), _C.id)
    .limit(1)
)
_QUESTION_IDS = sa.select(_C.question_id).where(_C.user_id == sa.bindparam("user_id"))
_CREATED_SINCE = (
    sa.select(sa.func.count())
    .select_from(T.cards)
    .where(_C.user_id == sa.bindparam("user_id"), _C.created_at >= sa.bindparam("since"), _C.personal.is_(False))
)
_DUE_COUNT = (
    sa.select(sa.func.count())
    .select_from(T.cards)
    .where(_C.user_id == sa.bindparam("user_id"), _C.suspended.is_(False), _C.due <= sa.bindparam("before"))
)
_CARDS = sa.select(T.cards).where(_C.user_id == sa.bindparam("user_id")).order_by(_C.id)
_ATTEMPT = sa.select(T.attempts).where(_A.id == sa.bindparam("attempt_id"))
_ATTEMPTS = sa.select(T.attempts).where(_A.user_id == sa.bindparam("user_id")).order_by(_A.created_at, _A.id)
_LATEST_FOR_CARD = (
    sa.select(T.attempts)
    .where(_A.card_id == sa.bindparam("card_id"), _A.is_follow_up.is_(False))
    .order_by(_A.id.desc())
    .limit(1)
)
_WITH_STATUS = (
    sa.select(T.attempts)
    .where(_A.status == sa.bindparam("status"))
    .order_by(_A.id)
    .limit(sa.bindparam("limit", type_=sa.Integer))
)
_CLAIM_ATTEMPT = (
    T.attempts.update()
    .where(_A.id == sa.bindparam("_id"), _A.status == sa.bindparam("_from"))
    .values(status=sa.bindparam("_to"))
)
_STAMPED_CLAIM = _CLAIM_ATTEMPT.values(claimed_at=sa.bindparam("_now"))
_REQUEUE_STALE = (
    T.attempts.update()
    .where(_A.status == sa.bindparam("_status"))
    .where(sa.or_(_A.claimed_at.is_(None), _A.claimed_at < sa.bindparam("_before")))
    .values(status=sa.bindparam("_back"))
)


def _attempt_values(attempt: Attempt) -> dict[str, Any]:
    values = attempt.model_dump(mode="json", exclude={"id"})
    values.update(created_at=attempt.created_at, graded_at=attempt.graded_at)
    return values


def card_write(card: Card) -> Statement:
    return update_by_id(T.cards), {"_id": card.id, **card.model_dump(exclude={"id", "user_id"})}


class SqlCards(SqlBase):
    """Mixed into SqlStore: the CardsPort (bot/kernel/store_ports.py)."""

    async def get_card(self, card_id: int) -> Card | None:
        found = await self._lookup(_CARD, {"card_id": card_id})
        return Card.model_validate(found) if found else None

    async def card_for_question(self, user_id: int, question_id: str) -> Card | None:
        found = await self._one(_CARD_FOR_QUESTION, {"user_id": user_id, "question_id": question_id})
        return Card.model_validate(found) if found else None

    async def next_due_card(self, user_id: int, now: datetime) -> Card | None:
        found = await self._one(_NEXT_DUE, {"user_id": user_id, "now": now})
        return Card.model_validate(found) if found else None

    async def card_question_ids(self, user_id: int) -> set[str]:
        rows = await self._all(_QUESTION_IDS, {"user_id": user_id})
        return {r["question_id"] for r in rows}

    async def count_cards_created_since(self, user_id: int, since: datetime) -> int:
        return await self._scalar(_CREATED_SINCE, {"user_id": user_id, "since": since})

    async def count_due(self, user_id: int, before: datetime) -> int:
        return await self._scalar(_DUE_COUNT, {"user_id": user_id, "before": before})

    async def list_cards(self, user_id: int) -> list[Card]:
        return [Card.model_validate(r) for r in await self._all(_CARDS, {"user_id": user_id})]

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
        await self.engines.write(Plain([card_write(card)]))

    async def add_attempt(self, attempt: Attempt) -> Attempt:
        attempt_id = await self._insert(T.attempts, _attempt_values(attempt))
        return attempt.model_copy(update={"id": attempt_id})

    async def open_attempt(self, attempt: Attempt, session_was: Session, session: Session) -> Attempt | None:
        values = _attempt_values(attempt)
        claim = {"_user_id": attempt.user_id, "was": dump_session(session_was), "state": dump_session(session)}

        attempt_id = await self.engines.write(Guarded(CLAIM_SESSION, claim, insert_returning_id(T.attempts), values))
        return None if attempt_id is None else attempt.model_copy(update={"id": attempt_id})

    async def get_attempt(self, attempt_id: int) -> Attempt | None:
        found = await self._one(_ATTEMPT, {"attempt_id": attempt_id})
        return Attempt.model_validate(found) if found else None

    async def finish_attempt(self, attempt: Attempt, card: Card | None, session: Session | None = None) -> None:
        """Write the attempt's outcome, the rescheduled card and the new session in one transaction."""
        values = attempt.model_dump(mode="json", exclude={"id", "user_id", "created_at"})
        values.update(graded_at=attempt.graded_at)
        writes: list[Statement] = [(update_by_id(T.attempts), {"_id": attempt.id, **values})]
        if card is not None:
            writes.append(card_write(card))
        if session is not None:
            writes.append(session_write(self.dialect, attempt.user_id, session))
        await self.engines.write(Plain(writes))

    async def list_attempts(self, user_id: int) -> list[Attempt]:
        return [Attempt.model_validate(r) for r in await self._all(_ATTEMPTS, {"user_id": user_id})]

    async def latest_attempt_for_card(self, card_id: int) -> Attempt | None:
        found = await self._one(_LATEST_FOR_CARD, {"card_id": card_id})
        return Attempt.model_validate(found) if found else None

    async def attempts_with_status(self, status: str, limit: int = 100) -> list[Attempt]:
        rows = await self._all(_WITH_STATUS, {"status": status, "limit": limit})
        return [Attempt.model_validate(r) for r in rows]

    async def claim_attempt(
        self, attempt_id: int, from_status: str, to_status: str, now: datetime | None = None
    ) -> bool:
        """Move an attempt between statuses atomically; False if it was not in `from_status`."""
        stmt = _CLAIM_ATTEMPT if now is None else _STAMPED_CLAIM
        params = {"_id": attempt_id, "_from": from_status, "_to": to_status, "_now": now}

        async def _unit(conn: AsyncConnection) -> Any:
            result = await conn.execute(stmt, params)
            return bool(result.rowcount == 1)

        return await self.engines.write(_unit)

    async def requeue_stale_attempts(self, status: str, back_to: str, before: datetime) -> int:
        params = {"_status": status, "_back": back_to, "_before": before}

        async def _unit(conn: AsyncConnection) -> Any:
            return int((await conn.execute(_REQUEUE_STALE, params)).rowcount or 0)

        return await self.engines.write(_unit)
