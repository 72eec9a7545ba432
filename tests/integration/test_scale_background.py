"""Background work on two replicas over one database (an SQLite file, and PostgreSQL when TEST_POSTGRES_URL is
set): two regrade workers never grade one attempt twice, and a regrade left claimed by a replica that died
is finished by the other once the claim is stale."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.features.deps import Deps
from bot.features.drill.regrade import REGRADING_STALE_AFTER, Regrading, regrade_pending
from bot.kernel.bank import Bank
from bot.kernel.inject import build
from bot.kernel.models import Attempt, User
from bot.kernel.ports import Delivery
from bot.kernel.replies import Reply
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class YieldingGrader(FakeGrader):
    """Lets the other worker run during each grading, as a real LLM call would."""

    async def grade(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0)
        return await super().grade(*args, **kwargs)


@pytest.fixture
async def stores(db_url: str) -> AsyncIterator[tuple[SqlStore, SqlStore]]:
    engines: list[Engines] = [make_engines(db_url), make_engines(db_url)]
    await upgrade(engines[0])
    yield SqlStore(engines[0]), SqlStore(engines[1])
    for e in engines:
        await e.dispose()


async def _queue(store: SqlStore, bank: Bank, n: int) -> list[int]:
    user = await store.get_or_create_user("telegram", "1", User(id=0, created_at=NOW))
    qid = bank.all()[0].id
    ids = []
    for i in range(n):
        attempt = Attempt(id=0, user_id=user.id, card_id=None, question_id=qid, answer=f"answer {i}",
                          status="regrade", created_at=NOW)  # fmt: skip
        ids.append((await store.add_attempt(attempt)).id)
    return ids


def _deps(store: SqlStore, bank: Bank, grader: FakeGrader, clock: FakeClock) -> Deps:
    return build_test_app(bank, grader=grader, estimator=FakeGrader(), store=store, clock=clock).deps


async def test_two_replicas_regrade_each_attempt_once(stores: tuple[SqlStore, SqlStore], bank: Bank) -> None:
    ids = await _queue(stores[0], bank, 12)
    clock, graders, sent = FakeClock(NOW), [YieldingGrader(), YieldingGrader()], []

    async def notify(user_id: int, replies: list[Reply]) -> Delivery:
        sent.append(replies[0].text)
        return Delivery.DELIVERED

    done = await asyncio.gather(
        *(
            regrade_pending(build(Regrading, _deps(s, bank, g, clock).provided()), notify, limit=50)
            for s, g in zip(stores, graders, strict=True)
        )
    )
    assert sum(done) == 12 and len(graders[0].calls) + len(graders[1].calls) == 12  # no attempt graded twice
    assert len(sent) == 12
    statuses = {a.id: a.status for a in await stores[1].list_attempts((await stores[1].get_attempt(ids[0])).user_id)}  # type: ignore[union-attr]
    assert set(statuses.values()) == {"graded"}


async def test_a_regrade_left_by_a_dead_replica_is_finished_by_the_other(
    stores: tuple[SqlStore, SqlStore], bank: Bank
) -> None:
    (attempt_id,) = await _queue(stores[0], bank, 1)
    clock, grader = FakeClock(NOW), FakeGrader()
    assert await stores[0].claim_attempt(attempt_id, "regrade", "regrading", NOW)  # replica one dies here
    deps = _deps(stores[1], bank, grader, clock)
    assert (
        await regrade_pending(build(Regrading, deps.provided())) == 0 and grader.calls == []
    )  # fresh: it may still be grading
    clock.advance(seconds=REGRADING_STALE_AFTER.total_seconds() + 1)
    assert await regrade_pending(build(Regrading, deps.provided())) == 1 and len(grader.calls) == 1
    found = await stores[0].get_attempt(attempt_id)
    assert found is not None and found.status == "graded"
