"""Concurrent update processing that keeps each chat's updates in order.

python-telegram-bot's Application starts one task per update, in the order the updates arrive,
and hands each to its update processor. This processor lets updates of different chats run at
the same time (so one slow grading never delays another user) while updates of the same chat
wait for each other in arrival order: each chat has a FIFO `asyncio.Lock`, taken before the
work starts. Only then does an update take one of the `max_active` working slots, so updates
waiting for their own chat hold nothing another chat needs.

PTB's base class takes its own semaphore before it hands the update over (`process_update` is
final), so that one is made too large to bind: were it the 1,024 slots PTB suggests, one chat
with 1,100 updates queued behind a slow grading would hold all of them and stall every other
user. What bounds memory instead is a cap per chat: past `max_per_chat` updates in flight, a
chat's new updates are skipped (their coroutine closed unrun) and `on_shed` is called once for
the run, to tell the user; what was accepted is all handled, in order.

A command (a message starting with "/") is a user at the keyboard waiting for a menu or a question, while an answer
in a burst waits seconds on its grader anyway: when every working slot is taken, a command takes one of `reserve`
slots kept for commands instead of queueing behind every answer that waits for a slot (a /help sent while a thousand
answers arrive at once). It still waits for its own chat's updates before it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

log = logging.getLogger(__name__)


UNBOUNDED = 2**31 - 1  # the base class's semaphore: never the limit (see the module's docstring)
OnShed = Callable[[object], Awaitable[None]]


class _Slot:
    """One of the working slots, held by one update until it ends or gives it back (once)."""

    __slots__ = ("held", "semaphore")

    def __init__(self, semaphore: asyncio.BoundedSemaphore) -> None:
        self.semaphore, self.held = semaphore, False

    async def __aenter__(self) -> _Slot:
        await self.semaphore.acquire()
        self.held = True
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self.release()

    def release(self) -> bool:
        if not self.held:
            return False
        self.held = False
        self.semaphore.release()
        return True


_current: ContextVar[_Slot | None] = ContextVar("telegram_update_slot", default=None)


def release_slot() -> bool:
    """The update being handled waits on something outside this process from now on (an LLM grading): its
    working slot goes to the next update while it keeps its chat's lock, so the chat's order holds. True when a
    slot was given back; False outside an update or when it was given back before."""
    slot = _current.get()
    return slot is not None and slot.release()


@dataclass
class _Chat:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    in_flight: int = 0
    told: bool = False  # on_shed was called since the chat's queue last emptied


class PerChatUpdateProcessor(BaseUpdateProcessor):
    def __init__(
        self, max_active: int, max_per_chat: int = 32, on_shed: OnShed | None = None, reserve: int = 16
    ) -> None:
        super().__init__(UNBOUNDED)
        self.max_active = max_active
        self._reserve = asyncio.BoundedSemaphore(reserve)  # for commands, while every working slot is taken
        self.max_per_chat = max_per_chat
        self.on_shed = on_shed
        self.shed = 0
        """Updates skipped because their chat's queue was full (for tests and metrics)."""
        self._active = asyncio.BoundedSemaphore(max_active)
        self._chats: dict[int, _Chat] = {}

    @staticmethod
    def is_command(update: object) -> bool:
        message = update.message if isinstance(update, Update) else None
        return message is not None and (message.text or "").startswith("/")

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
        command = self.is_command(update)
        if key is None:
            await self._run(coroutine, command)
            return
        chat = self._chats.setdefault(key, _Chat())
        if chat.in_flight >= self.max_per_chat:
            await self._skip(update, coroutine, chat)
            return
        chat.in_flight += 1
        try:
            async with chat.lock:
                await self._run(coroutine, command)
        finally:
            chat.in_flight -= 1
            if chat.in_flight == 0:
                del self._chats[key]

    async def _run(self, coroutine: Awaitable[Any], command: bool = False) -> None:
        full = self._active.locked()  # no working slot free now
        async with _Slot(self._reserve if command and full else self._active) as slot:
            token = _current.set(slot)
            try:
                await coroutine
            finally:
                _current.reset(token)

    async def _skip(self, update: object, coroutine: Awaitable[Any], chat: _Chat) -> None:
        self.shed += 1
        if isinstance(coroutine, Coroutine):
            coroutine.close()  # never started: nothing of it ran
        if chat.told or self.on_shed is None:
            return
        chat.told = True
        try:
            async with self._active:
                await self.on_shed(update)
        except Exception:
            log.exception("telegram: could not tell a chat that its updates were skipped")

    @property
    def waiting_chats(self) -> int:
        """Chats with an update in flight (for tests and metrics)."""
        return len(self._chats)

    async def initialize(self) -> None:
        """Nothing to set up: locks are made on demand."""

    async def shutdown(self) -> None:
        """Nothing to free: the Application waits for the update tasks itself."""
