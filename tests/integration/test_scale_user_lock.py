"""Per-user order across replicas: two Services with two engines on one PostgreSQL (two replicas) get
interleaved commands of one user; they run one at a time, in the order they arrived."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.kernel.bank import Bank
from bot.kernel.service import Service
from bot.kernel.user_lock import LocalUserLocks
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from bot.storage.user_lock import PgUserLocks
from tests.app import build_test_app
from tests.conftest import POSTGRES_URL, reset_postgres
from tests.fakes import FakeClock, HeldGrader

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
needs_pg = pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_POSTGRES_URL")


@pytest.fixture
async def replicas(bank: Bank) -> AsyncIterator[tuple[Service, Service, HeldGrader, asyncio.Event]]:
    assert POSTGRES_URL is not None
    await reset_postgres(POSTGRES_URL)
    engines: list[Engines] = [make_engines(POSTGRES_URL), make_engines(POSTGRES_URL)]
    await upgrade(engines[0])
    waited = asyncio.Event()
    locks = [PgUserLocks(POSTGRES_URL), PgUserLocks(POSTGRES_URL, on_wait=lambda _uid: waited.set())]
    held, clock = HeldGrader(), FakeClock(NOW)
    one = build_test_app(bank, grader=held, store=SqlStore(engines[0]), clock=clock, user_lock=locks[0]).service
    two = build_test_app(bank, store=SqlStore(engines[1]), clock=clock, user_lock=locks[1]).service
    yield one, two, held, waited
    for lock in locks:
        await lock.close()
    for e in engines:
        await e.dispose()


@needs_pg
async def test_a_users_second_command_on_another_replica_waits_for_the_first(
    replicas: tuple[Service, Service, HeldGrader, asyncio.Event],
) -> None:
    one, two, held, waited = replicas
    user = await one.user_for("telegram", "1")
    await one.handle_text(user.id, "/drill")
    first = asyncio.create_task(one.handle_text(user.id, "an answer from the phone"))  # replica one, grading
    await asyncio.wait_for(held.started.wait(), 10)
    second = asyncio.create_task(two.handle_text(user.id, "/drill"))  # the next update, at replica two
    await asyncio.wait_for(waited.wait(), 10)  # replica two found the user's lock held...
    assert not second.done()  # ...and waits: it did not run beside the grading
    held.gate.set()
    (grade, *_) = await asyncio.wait_for(first, 10)
    (question, *_) = await asyncio.wait_for(second, 10)
    assert grade.kind == "grade"
    assert "being graded" not in question.text  # it ran after the grading ended, not during it
    (attempt,) = await two.deps.store.list_attempts(user.id)
    assert attempt.status == "graded" and attempt.answer == "an answer from the phone"


@needs_pg
async def test_other_users_are_not_held_up(replicas: tuple[Service, Service, HeldGrader, asyncio.Event]) -> None:
    one, two, held, waited = replicas
    alice, bob = await one.user_for("telegram", "1"), await one.user_for("telegram", "2")
    await one.handle_text(alice.id, "/drill")
    first = asyncio.create_task(one.handle_text(alice.id, "an answer"))
    await asyncio.wait_for(held.started.wait(), 10)
    (reply, *_) = await asyncio.wait_for(two.handle_text(bob.id, "/drill"), 10)  # bob's lock is free
    assert not waited.is_set() and reply.text
    held.gate.set()
    await asyncio.wait_for(first, 10)


@needs_pg
async def test_commands_queued_at_both_replicas_run_one_at_a_time() -> None:
    assert POSTGRES_URL is not None
    a, b = PgUserLocks(POSTGRES_URL), PgUserLocks(POSTGRES_URL)
    inside, most, order = 0, 0, []

    async def command(locks: PgUserLocks, n: int) -> None:
        nonlocal inside, most
        async with locks.hold(42):
            inside += 1
            most = max(most, inside)
            order.append(n)
            await asyncio.sleep(0)  # give the other replica every chance to run beside it
            inside -= 1

    try:
        await asyncio.gather(*(command(a if n % 2 else b, n) for n in range(20)))
    finally:
        await a.close()
        await b.close()
    assert most == 1 and sorted(order) == list(range(20))


@needs_pg
async def test_a_cancelled_waiter_leaves_no_lock_behind() -> None:
    assert POSTGRES_URL is not None
    waited = asyncio.Event()
    a, b = PgUserLocks(POSTGRES_URL), PgUserLocks(POSTGRES_URL, on_wait=lambda _uid: waited.set())
    try:
        async with a.hold(7):
            waiter = asyncio.create_task(b.hold(7).__aenter__())
            await asyncio.wait_for(waited.wait(), 10)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        async with b.hold(7):  # free: neither the holder nor the cancelled waiter kept it
            async with asyncio.timeout(10):
                pass
    finally:
        await a.close()
        await b.close()


async def test_the_local_lock_keeps_one_users_commands_in_arrival_order() -> None:
    locks, order = LocalUserLocks(), []
    gate = asyncio.Event()

    async def command(n: int) -> None:
        async with locks.hold(1):
            if n == 0:
                await gate.wait()
            order.append(n)

    tasks = [asyncio.create_task(command(n)) for n in range(5)]
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3, 4]
