"""Two bot processes on one database (SQLite file, or PostgreSQL when configured) answering one
open question: the session is claimed atomically, so the answer is graded once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.kernel.bank import Bank
from bot.kernel.models import Attempt, Card, User
from bot.kernel.session import Answering, Grading, Idle, Session
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader, HeldGrader

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def two_stores(db_url: str) -> AsyncIterator[tuple[SqlStore, SqlStore]]:
    engines: list[Engines] = [make_engines(db_url), make_engines(db_url)]
    await upgrade(engines[0])
    yield SqlStore(engines[0]), SqlStore(engines[1])
    for e in engines:
        await e.dispose()


def _attempt(user_id: int, card_id: int) -> Attempt:
    return Attempt(id=0, user_id=user_id, card_id=card_id, question_id="q", answer="a", created_at=NOW)


async def test_only_one_store_claims_a_session_both_have_read(two_stores: tuple[SqlStore, SqlStore]) -> None:
    a, b = two_stores
    user = await a.get_or_create_user("telegram", "1", User(id=0, created_at=NOW))
    await a.set_session(user.id, Answering(card_id=7))
    seen_a, seen_b = await a.get_session(user.id), await b.get_session(user.id)
    claimed = Grading(card_id=7)
    first = await a.open_attempt(_attempt(user.id, 7), seen_a, claimed)
    second = await b.open_attempt(_attempt(user.id, 7), seen_b, claimed)
    assert first is not None and first.id > 0 and second is None
    assert [x.id for x in await b.list_attempts(user.id)] == [first.id]  # the refused one wrote nothing
    assert await b.get_session(user.id) == claimed


async def test_two_services_on_one_database_grade_one_answer_once(
    two_stores: tuple[SqlStore, SqlStore], bank: Bank
) -> None:
    clock, held = FakeClock(NOW), HeldGrader()
    one = build_test_app(bank, grader=held, store=two_stores[0], clock=clock).service
    two = build_test_app(bank, grader=FakeGrader(), store=two_stores[1], clock=clock).service
    user = await one.user_for("telegram", "1")
    await one.handle_text(user.id, "/drill")
    first = asyncio.create_task(one.handle_text(user.id, "an answer from the phone"))
    await asyncio.wait_for(held.started.wait(), 10)
    (second,) = await two.handle_text(user.id, "the same answer from the laptop")  # another process, same session
    assert "being graded already" in second.text
    held.gate.set()
    (grade, *_) = await asyncio.wait_for(first, 10)
    assert grade.kind == "grade"
    attempts = await two_stores[1].list_attempts(user.id)
    assert [a.answer for a in attempts] == ["an answer from the phone"] and attempts[0].status == "graded"


class FlakyStore(SqlStore):
    """Its first write of a graded outcome fails, as a full disk would, once."""

    failed = False

    async def finish_attempt(self, attempt: Attempt, card: Card | None, session: Session | None = None) -> None:
        if attempt.status == "graded" and not self.failed:
            self.failed = True
            raise OSError("disk full")
        await super().finish_attempt(attempt, card, session)


async def test_a_failure_after_the_claim_keeps_the_answer_for_a_regrade_and_frees_the_session(
    two_stores: tuple[SqlStore, SqlStore], bank: Bank
) -> None:
    store = FlakyStore(two_stores[0].engines)
    service = build_test_app(bank, grader=FakeGrader(), store=store, clock=FakeClock(NOW)).service
    user = await service.user_for("telegram", "1")
    await service.handle_text(user.id, "/drill")
    (reply,) = await service.handle_text(user.id, "an answer")
    assert store.failed and reply.kind == "error"
    (attempt,) = await store.list_attempts(user.id)
    assert attempt.answer == "an answer" and attempt.status == "regrade"  # the regrade worker grades it later
    assert await store.get_session(user.id) == Idle(last_attempt=attempt.id)
    (next_question, *_) = await service.handle_text(user.id, "/drill")  # not stuck "being graded"
    assert "being graded" not in next_question.text
