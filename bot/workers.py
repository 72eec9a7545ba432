"""The CPU worker pool: work that would stall the event loop (the offline grade, /review's matching) runs in worker
processes the composition root owns, so a host with more cores grades in parallel and the loop never waits on it
(design section 2, rule 5).

A task is named (`bot/worker_tasks.py` maps names to functions, which load what they need once per process) and
runs under a deadline that reaches the worker: past it, the worker process is killed, its slot is held until it
has ended, and a new one takes its place. Each worker does one task at a time; `size` workers run at once.

`ThreadPool` is the same contract on threads, for an app whose grader or bank were built in this process (tests
with fakes, an injected bank): a thread cannot be stopped, so past the deadline the caller stops waiting while the
thread finishes on its own, still holding its slot.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger(__name__)


class WorkerTimeout(Exception):
    """A task ran past its deadline; its worker was stopped."""


class WorkerFailed(Exception):
    """A task raised in its worker, or the worker died: the message names what happened, never the task's data."""


def default_size() -> int:
    """One worker per core but one (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _serve(conn: Connection) -> None:  # pragma: no cover - runs in the worker process
    from bot import worker_tasks

    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        name, args = message
        try:
            conn.send((True, worker_tasks.TASKS[name](*args)))
        except Exception as exc:  # the task's failure goes back to the caller, the worker lives on
            conn.send((False, f"{type(exc).__name__}: {str(exc)[:200]}"))


class _Worker:
    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(target=_serve, args=(child,), name="drill-worker", daemon=True)
        self.process.start()
        child.close()

    async def call(self, name: str, args: tuple[Any, ...], timeout: float) -> tuple[bool, Any]:
        """(True, the result) or (False, what the task raised); WorkerFailed when the worker died."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[bool, Any]] = loop.create_future()

        def readable() -> None:
            loop.remove_reader(self.conn.fileno())
            try:
                reply = self.conn.recv()
            except (EOFError, OSError) as exc:
                if not done.done():
                    done.set_exception(WorkerFailed(f"the worker died ({type(exc).__name__})"))
                return
            if not done.done():
                done.set_result(reply)

        self.conn.send((name, args))
        loop.add_reader(self.conn.fileno(), readable)
        try:
            return await asyncio.wait_for(done, timeout)
        finally:
            loop.remove_reader(self.conn.fileno())

    async def stop(self, kill: bool = False) -> None:
        """End the process (at once with `kill`) and wait until it has ended."""
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                self.process.kill()
        await asyncio.to_thread(self.process.join, 5)
        if self.process.is_alive():
            self.process.kill()
            await asyncio.to_thread(self.process.join)
        self.conn.close()


class ProcessPool:
    """`size` worker processes, started on first use (spawned: a clean interpreter, never a fork of the loop)."""

    mode = "process"

    def __init__(self, size: int | None = None, timeout: float = 10.0) -> None:
        self.size = size or default_size()
        self.timeout = timeout
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._started = 0
        self._workers: set[_Worker] = set()

    async def _take(self) -> _Worker:
        if self._idle is None:
            self._idle = asyncio.Queue()
        if self._idle.empty() and self._started < self.size:
            self._started += 1
            worker = await asyncio.to_thread(_Worker, self._context)
            self._workers.add(worker)
            return worker
        return await self._idle.get()

    async def run(self, name: str, *args: Any, timeout: float | None = None) -> Any:
        """Run task `name` with `args` in a worker; WorkerTimeout past the deadline, WorkerFailed if it raised."""
        worker = await self._take()
        assert self._idle is not None
        try:
            ok, value = await worker.call(name, args, timeout or self.timeout)
        except (TimeoutError, WorkerFailed, asyncio.CancelledError) as exc:
            # the worker may be mid-task: it is stopped, and the slot is freed only once it has ended
            self._workers.discard(worker)
            await asyncio.shield(worker.stop(kill=True))
            self._started -= 1
            if isinstance(exc, TimeoutError):
                log.warning("worker task %s ran past %.1f s: its worker was stopped", name, timeout or self.timeout)
                raise WorkerTimeout(name) from None
            raise
        self._idle.put_nowait(worker)
        if not ok:  # the task raised; its worker is fine
            raise WorkerFailed(value)
        return value

    async def warm(self, name: str = "warm") -> None:
        """Start every worker and let each load what its tasks need, before the first real task."""
        await asyncio.gather(*(self.run(name, timeout=120) for _ in range(self.size)), return_exceptions=True)

    async def close(self) -> None:
        workers, self._workers = list(self._workers), set()
        await asyncio.gather(*(w.stop() for w in workers), return_exceptions=True)
        self._started = 0
        self._idle = None


class ThreadPool:
    """The same contract on threads, over functions of this process (`tasks`)."""

    mode = "thread"

    def __init__(self, tasks: Mapping[str, Callable[..., Any]], size: int | None = None, timeout: float = 10.0):
        self.tasks = dict(tasks)
        self.size = size or default_size()
        self.timeout = timeout
        self._slots: asyncio.Semaphore | None = None

    async def run(self, name: str, *args: Any, timeout: float | None = None) -> Any:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        await self._slots.acquire()
        task = asyncio.ensure_future(asyncio.to_thread(self.tasks[name], *args))
        task.add_done_callback(lambda _: self._slots.release() if self._slots else None)  # held until it ends
        try:
            return await asyncio.wait_for(asyncio.shield(task), timeout or self.timeout)
        except TimeoutError:
            log.warning("worker task %s ran past %.1f s (a thread: it finishes on its own)", name,
                        timeout or self.timeout)  # fmt: skip
            raise WorkerTimeout(name) from None

    async def warm(self, name: str = "warm") -> None:
        if name in self.tasks:
            await self.run(name, timeout=120)

    async def close(self) -> None:
        return None
