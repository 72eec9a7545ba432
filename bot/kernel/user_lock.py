"""Per-user ordering: a user's commands run one at a time, in the order they arrive.

`UserLock` is the port (bot/kernel/ports.py style): `hold(user_id)` is an async context manager. In one
process `LocalUserLocks` is enough (a FIFO asyncio.Lock per user, dropped when unused). Several
replicas over one PostgreSQL use bot/storage/user_lock.py, which adds a database advisory lock, so
two updates of one chat that reach two replicas still run one after the other.
"""

from __future__ import annotations

import weakref
from asyncio import Lock
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol


class UserLock(Protocol):
    def hold(self, user_id: int) -> AbstractAsyncContextManager[None]:
        """Wait until no other command of `user_id` runs (here or, for a shared one, in another process)."""
        ...


class LocalUserLocks:
    """One process's per-user locks: FIFO, so a user's commands run in arrival order."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def hold(self, user_id: int) -> AsyncIterator[None]:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = self._locks[user_id] = Lock()
        async with lock:
            yield
