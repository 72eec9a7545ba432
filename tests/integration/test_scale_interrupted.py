"""A grading interrupted by its process stopping (a replica killed mid-grading): the answer is kept as a
pending attempt and the session left "grading". Once that is older than any grading can take, the user's
next message (Telegram's redelivery of the same answer, to any replica) grades the kept answer, once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.kernel.bank import Bank
from bot.kernel.models import Attempt
from bot.kernel.service import Service
from bot.kernel.session import Answering, Grading, Idle
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def replicas(db_url: str, bank: Bank) -> AsyncIterator[tuple[Service, Service, FakeClock, FakeGrader]]:
    engines: list[Engines] = [make_engines(db_url), make_engines(db_url)]
    await upgrade(engines[0])
    clock, grader = FakeClock(NOW), FakeGrader()
    services = [build_test_app(bank, grader=grader, store=SqlStore(e), clock=clock).service for e in engines]
    yield services[0], services[1], clock, grader
    for e in engines:
        await e.dispose()


async def _killed_mid_grading(service: Service, uid: int) -> Attempt:
    """What a replica killed while grading leaves: the answer stored, pending, and the session claimed."""
    store = service.deps.store
    session = await store.get_session(uid)
    assert isinstance(session, Answering)
    attempt = Attempt(id=0, user_id=uid, card_id=session.card_id, question_id="x", answer="the kept answer",
                      created_at=service.deps.clock.now())  # fmt: skip
    card = await store.get_card(session.card_id)
    assert card is not None
    attempt = attempt.model_copy(update={"question_id": card.question_id, "card_before": card.fsrs})
    opened = await store.open_attempt(attempt, session, Grading(card_id=session.card_id))
    assert opened is not None
    return opened


async def test_the_redelivered_answer_grades_the_kept_one_once_stale(
    replicas: tuple[Service, Service, FakeClock, FakeGrader],
) -> None:
    one, two, clock, grader = replicas
    uid = (await one.user_for("telegram", "1")).id
    await one.handle_text(uid, "/drill")
    kept = await _killed_mid_grading(one, uid)
    (busy,) = await two.handle_text(uid, "the kept answer")  # soon after: it may still be grading
    assert "being graded" in busy.text and grader.calls == []
    clock.advance(seconds=148)
    (still,) = await two.handle_text(uid, "the kept answer")  # within the default 150 s: still busy
    assert "being graded" in still.text and grader.calls == []
    clock.advance(seconds=3)
    first, second = await asyncio.gather(two.handle_text(uid, "the kept answer"), one.handle_text(uid, "again"))
    graded = [r for r in first + second if r.kind == "grade"]
    assert len(graded) == 1 and "graded in full" in graded[0].text  # graded once, by one replica
    assert [c[1] for c in grader.calls] == ["the kept answer"]
    (attempt,) = await one.deps.store.list_attempts(uid)
    assert attempt.id == kept.id and attempt.status == "graded" and attempt.grade is not None
    assert await two.deps.store.get_session(uid) == Idle(last_attempt=kept.id)
    (card,) = [c for c in [await one.deps.store.get_card(kept.card_id or 0)] if c is not None]
    assert not card.is_new  # the review was applied to the card


async def test_a_failing_grader_keeps_it_queued_for_the_regrade_worker(
    replicas: tuple[Service, Service, FakeClock, FakeGrader],
) -> None:
    one, two, clock, grader = replicas
    uid = (await one.user_for("telegram", "1")).id
    await one.handle_text(uid, "/drill")
    kept = await _killed_mid_grading(one, uid)
    clock.advance(seconds=151)  # past the default 150 s
    grader.fail = True
    (reply,) = await two.handle_text(uid, "the kept answer")
    assert reply.kind == "error"
    found = await one.deps.store.get_attempt(kept.id)
    assert found is not None and found.status == "regrade"  # the worker grades it later
    assert await one.deps.store.get_session(uid) == Idle(last_attempt=kept.id)  # the user is not stuck


async def test_a_replica_that_takes_over_a_stale_update_grades_its_answer_at_once(
    replicas: tuple[Service, Service, FakeClock, FakeGrader],
) -> None:
    """The answer's update was claimed, then its voice note took 20 s to transcribe before the grading began and the
    replica died: when another replica takes the update over (its claim 181 s old), the answer (161 s old) is
    already stuck, so it is graded then, before the user's next message; with a stuck time as long as the stale
    time, "being graded" would answer it and the next message would go first."""
    one, two, clock, grader = replicas
    uid = (await one.user_for("telegram", "1")).id
    await one.handle_text(uid, "/drill")
    assert await one.begin_update("telegram:77") is not None
    clock.advance(seconds=20)
    kept = await _killed_mid_grading(one, uid)
    clock.advance(seconds=161)
    from bot.kernel.store_ports import EventClaim

    assert await two.begin_update("telegram:77") is EventClaim.NEW  # stale: taken over
    (reply,) = await two.handle_text(uid, "the kept answer")
    assert reply.kind == "grade" and [c[1] for c in grader.calls] == ["the kept answer"]
    assert (await two.deps.store.get_attempt(kept.id)).status == "graded"  # type: ignore[union-attr]
