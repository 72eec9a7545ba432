"""The CPU worker pool (bot/workers.py): tasks run in worker processes, a deadline or a cancellation stops the worker
(its slot is held until it has ended, then a new worker takes it), a failure comes back as an error, and the offline
grade from a worker is the grade this process computes."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.grading.offline import OfflineGrader
from bot.grading.pooled import PooledWork, thread_tasks
from bot.kernel.bank import Bank
from bot.workers import ProcessPool, ThreadPool, WorkerFailed, WorkerTimeout, default_size
from tests.conftest import example_question


@pytest.fixture
async def pool() -> ProcessPool:
    p = ProcessPool(size=2, timeout=60)
    yield p  # type: ignore[misc]
    await p.close()


async def test_a_task_runs_in_another_process_and_its_worker_is_reused(pool: ProcessPool) -> None:
    pid, value = await pool.run("echo", {"a": [1, 2]})
    again, _ = await pool.run("echo", None)
    assert value == {"a": [1, 2]} and pid != os.getpid() and again == pid


async def test_two_workers_run_two_tasks_at_once(pool: ProcessPool) -> None:
    hung = asyncio.ensure_future(pool.run("hang", timeout=60))
    pid, _ = await pool.run("echo", "meanwhile")  # the other worker answers while the first is busy
    assert pid != os.getpid()
    hung.cancel()
    with pytest.raises(asyncio.CancelledError):
        await hung


async def test_past_its_deadline_a_task_is_stopped_in_its_worker_and_the_pool_goes_on(pool: ProcessPool) -> None:
    first, _ = await pool.run("echo", 1)
    (worker,) = pool._workers
    with pytest.raises(WorkerTimeout):
        await pool.run("hang", timeout=0.5)  # on that same worker, the only one started
    assert not worker.process.is_alive() and pool._workers == set()  # killed, and joined before the slot is free
    pids = {(await pool.run("echo", n))[0] for n in range(3)}
    assert first not in pids and len(pool._workers) == 1  # a new worker took its place


async def test_a_cancelled_task_stops_its_worker(pool: ProcessPool) -> None:
    task = asyncio.ensure_future(pool.run("hang"))
    await asyncio.sleep(0)  # let it reach the worker (no wall-clock wait: one turn of the loop)
    while not pool._workers:
        await asyncio.sleep(0)
    (worker,) = pool._workers
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not worker.process.is_alive() and pool._workers == set()


async def test_a_failing_task_comes_back_as_an_error_and_the_worker_lives_on(pool: ProcessPool) -> None:
    pid, _ = await pool.run("echo", 0)
    with pytest.raises(WorkerFailed, match="ValueError: no such thing"):
        await pool.run("fail", "no such thing")
    assert (await pool.run("echo", 0))[0] == pid


async def test_the_offline_grade_from_a_worker_process_is_this_process_grade(pool: ProcessPool) -> None:
    q = example_question()
    answer = "First I check the data for NaN, then the per-layer gradient norms, and I lower the learning rate."
    work = PooledWork(pool, Bank([q]))
    remote = await work.grade_offline(q, answer, "en", "engineer")
    assert remote == OfflineGrader().grade_sync(q, answer, "en", "engineer")
    assert remote.grader == "offline" and "correctness" not in remote.dimensions


async def test_a_thread_pool_has_the_same_contract_over_this_process_objects() -> None:
    q = example_question()
    grader = OfflineGrader(semantic=False)
    pool = ThreadPool(thread_tasks(grader, Bank([q])), size=1, timeout=30)
    work = PooledWork(pool, Bank([q]))
    graded = await work.grade_offline(q, "I check the data first.", "en", "engineer")
    assert graded == grader.grade_sync(q, "I check the data first.", "en", "engineer")
    (found, score), *_ = await work.candidates("loss becomes NaN, how do you debug it", 1)
    assert found.id == q.id and 0 < score <= 1


def test_the_default_size_leaves_a_core_to_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert default_size() == 7
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert default_size() == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert default_size() == 1
