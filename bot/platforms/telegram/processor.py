"""Concurrent update processing that keeps each chat's updates in order.

python-telegram-bot's Application starts one task per update, in the order the updates arrive,
and hands each to its update processor. This processor lets updates of different chats run at
the same time (so one slow grading never delays another user) while updates of the same chat
wait for each other in arrival order: each chat has a FIFO `asyncio.Lock`, taken before the
work starts. The number of updates doing work at once is bounded by `max_active`; updates
waiting for their own chat's lock do not count against it (so one user flooding the bot cannot
starve the others). The base class's semaphore caps everything in flight (`max_pending`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor


class PerChatUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_active: int, max_pending: int | None = None) -> None:
        super().__init__(max_pending or max(4 * max_active, 1024))
        self.max_active = max_active
        self._active = asyncio.BoundedSemaphore(max_active)
        self._chats: dict[int, tuple[asyncio.Lock, int]] = {}

    @staticmethod
    def chat_key(update: object) -> int | None:
        if isinstance(update, Update):
            chat, user = update.effective_chat, update.effective_user
            if chat is not None:
                return chat.id
            if user is not None:
                return user.id
        return None

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = self.chat_key(update)
        if key is None:
            async with self._active:
                await coroutine
            return
        lock, users = self._chats.get(key) or (asyncio.Lock(), 0)
        self._chats[key] = (lock, users + 1)
        try:
            async with lock, self._active:
                await coroutine
        finally:
            lock, users = self._chats[key]
            if users == 1:
                del self._chats[key]
            else:
                self._chats[key] = (lock, users - 1)

    @property
    def waiting_chats(self) -> int:
        """Chats with an update in flight (for tests and metrics)."""
        return len(self._chats)

    async def initialize(self) -> None:
        """Nothing to set up: locks are made on demand."""

    async def shutdown(self) -> None:
        """Nothing to free: the Application waits for the update tasks itself."""
