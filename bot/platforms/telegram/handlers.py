"""Telegram updates -> core commands -> replies. Translation only: every rule lives in the core.

One handler takes every update: it is claimed first (`Service.begin_update`), so a redelivered update that
was handled is dropped, one another replica is handling is left for Telegram to deliver again (the
webhook answers 503), and one whose replica died is taken over; then a private
chat's text goes to `Service.handle_text` (commands included: the core parses them), a button to
`handle_action`, a voice note to `SubmitVoice`. While the core works, the chat shows "typing",
and after `progress_after` seconds a progress message that the first reply is edited into. When the core says an
LLM grading started (bot/kernel/progress.py), that shows at once: as a message draft (sendMessageDraft) kept up
until the reply replaces it, or, without drafts, the progress message placed at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import warnings
from collections.abc import Awaitable
from datetime import datetime, timedelta

from telegram import CallbackQuery, Document, Message, Update
from telegram.constants import ChatMemberStatus, ChatType, FileSizeLimit
from telegram.error import TelegramError
from telegram.ext import ContextTypes
from telegram.warnings import PTBDeprecationWarning

from bot.kernel import progress
from bot.kernel.commands import SubmitVoice, UploadDocument
from bot.kernel.i18n import t
from bot.kernel.models import Lang, User
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.kernel.store_ports import EventClaim
from bot.platforms.telegram.processor import release_slot
from bot.platforms.telegram.render import fenced
from bot.platforms.telegram.sender import TelegramSender
from bot.platforms.telegram.settings import TelegramSettings

log = logging.getLogger(__name__)
PLATFORM = "telegram"
TYPING_EVERY_S = 4.5  # Telegram shows a chat action for about 5 seconds
DRAFT_EVERY_S = 20.0  # a message draft is a preview of about 30 seconds: shown again well before it lapses
DRAFT_IDS = itertools.count(1)  # a draft's id: any non-zero number, one per draft


def language_hint(code: str | None) -> Lang | None:
    """Telegram's language_code ('zh-hans', 'en-US') as the core's language, for new users."""
    code = (code or "").lower()
    if code.startswith("zh"):
        return "zh"
    return "en" if code.startswith("en") else None


class Indicator:
    """Shows that the bot is working: 'typing' after a moment, then a progress message to edit.

    Nothing runs until `typing_after` has passed (a timer, not a task: most commands are answered
    before it), and each later wait is a timer on one future, not a task per wait."""

    def __init__(
        self,
        sender: TelegramSender,
        chat_id: int,
        text: str,
        typing_after: float,
        progress_after: float,
        grading: str = "",
    ):
        self.sender, self.chat_id, self.text, self.grading = sender, chat_id, text, grading or text
        self.typing_after, self.progress_after = typing_after, progress_after
        self.message_id: int | None = None
        self._finished = False
        self._shown_now = False  # a slow step was shown at once: no second progress message later
        self._wakes: list[asyncio.Future[None]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._now: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(max(self.typing_after, 0), self._begin)

    def started(self, step: progress.Step) -> None:
        """The core started a slow step (an LLM grading): show it now, not after `progress_after` (a listener of
        bot/kernel/progress.py, called from the update's own task: it only schedules)."""
        if step != "grading" or self._finished or self._now is not None:
            return
        self._shown_now = True
        self._now = asyncio.get_running_loop().create_task(self._at_once())

    async def _at_once(self) -> None:
        if self.sender.drafts:
            draft = next(DRAFT_IDS)
            while await self.sender.draft(self.chat_id, draft, self.grading):
                if await self._finished_within(DRAFT_EVERY_S):
                    return
            if self._finished:
                return
        if self.message_id is None:  # no drafts: one message now, which the reply is edited into
            self.message_id = await self.sender.progress(self.chat_id, self.grading)

    async def stop(self) -> None:
        """The work is done: nothing more is shown; waits for a send under way (its message id is kept)."""
        self._finished = True
        if self._timer is not None:
            self._timer.cancel()
        for wake in self._wakes:
            if not wake.done():
                wake.set_result(None)
        for task in (self._task, self._now):
            if task is not None:
                await task

    def _begin(self) -> None:
        self._timer = None
        if not self._finished:
            self._task = asyncio.get_running_loop().create_task(self._show())

    async def _finished_within(self, seconds: float) -> bool:
        if not self._finished:
            loop = asyncio.get_running_loop()
            wake = loop.create_future()
            self._wakes.append(wake)
            timer = loop.call_later(max(seconds, 0), _set_once, wake)
            try:
                await wake
            finally:
                timer.cancel()
                self._wakes.remove(wake)
        return self._finished

    async def _show(self) -> None:
        if self._finished:  # done between the timer and this task's first step
            return
        await self.sender.typing(self.chat_id)
        elapsed, placed = self.typing_after, False
        while True:
            if not placed and elapsed >= self.progress_after:
                placed = True
                if not self._shown_now:
                    self.message_id = await self.sender.progress(self.chat_id, self.text)
            wait = TYPING_EVERY_S if placed else min(TYPING_EVERY_S, self.progress_after - elapsed)
            if await self._finished_within(wait):
                return
            elapsed += wait
            if placed or elapsed < self.progress_after:
                await self.sender.typing(self.chat_id)


def _set_once(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _waiting(indicator: Indicator, step: progress.Step) -> None:
    """The core started a slow step: show an LLM grading at once (`Indicator.started`), and give the update's
    working slot to the next update while this one waits on the grader (processor.py)."""
    indicator.started(step)
    release_slot()


class TelegramHandlers:
    def __init__(self, service: Service, sender: TelegramSender, settings: TelegramSettings) -> None:
        self.service = service
        self.sender = sender
        self.settings = settings
        self.polling_since: datetime | None = None  # set by the runtime when it starts polling

    async def on_update(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """Every polled update (see `handle`). Polling has one consumer (getUpdates serves one at a time), so an
        update claimed before this process started polling and never finished was left by a process that is
        gone: it is taken over now, as polling never delivers it again."""
        await self.handle(update, self.polling_since)

    async def handle(self, update: Update, sole_consumer_since: datetime | None = None) -> bool:
        """Handle an update once across replicas; False when it must be delivered again later (another replica
        claimed it a moment ago and is still at it). A failure outside the Service's own handling (the claim,
        the user lookup, a send) is logged and the user told, never left in silence; a cancelled update
        (the process stopping) stays unfinished, so its redelivery is taken over once the claim is stale."""
        key = f"{PLATFORM}:{update.update_id}"
        try:
            claim = await self.service.begin_update(key, sole_consumer_since)
        except Exception:
            log.exception("telegram update %s could not be claimed", update.update_id)
            await self._tell_failed(update)
            return True
        if claim is EventClaim.DONE:
            log.info("telegram update %s seen before: dropped", update.update_id)
            return True
        if claim is EventClaim.BUSY:
            log.info("telegram update %s is being handled elsewhere: asked again later", update.update_id)
            return False
        try:
            await self._on_update(update)
        except Exception:
            log.exception("telegram update %s failed", update.update_id)
            await self._tell_failed(update)
        try:
            await self.service.finish_update(key)
        except Exception:  # the work is done and answered; at worst a redelivery past the stale time repeats it
            log.exception("telegram update %s could not be marked done", update.update_id)
        return True

    async def _tell_failed(self, update: Update) -> None:
        chat, tg_user = update.effective_chat, update.effective_user
        if chat is None or tg_user is None or chat.type != ChatType.PRIVATE:
            return
        lang = language_hint(tg_user.language_code) or "en"
        try:
            await self.sender.deliver(chat.id, None, [Reply(t(lang, "error"), kind="error")])
        except Exception as exc:  # the network or the Bot API itself is down: the log line above is all we can do
            log.warning("telegram: could not tell chat %s about the failure: %s", chat.id, type(exc).__name__)

    async def _on_update(self, update: Update) -> None:
        chat, tg_user = update.effective_chat, update.effective_user
        if chat is None or tg_user is None or chat.type != ChatType.PRIVATE:
            return  # private chats only
        user = await self.service.user_for(PLATFORM, str(chat.id), language_hint(tg_user.language_code))
        if update.my_chat_member is not None:
            await self._membership(update, chat.id, user)
            return
        self.sender.unblock(chat.id)  # a message from the user: they are back
        refused = self.service.admit(user, PLATFORM, str(chat.id))
        if refused is not None:
            await self.sender.deliver(chat.id, user.id, refused)
            return
        if update.callback_query is not None:
            await self._button(update.callback_query, chat.id, user)
        elif update.message is not None:
            await self._message(update.message, chat.id, user)

    async def on_shed(self, update: object) -> None:
        """The processor skipped updates of this chat (its queue was full): say so, once."""
        if not isinstance(update, Update) or update.effective_chat is None or update.effective_user is None:
            return
        chat, tg_user = update.effective_chat, update.effective_user
        if chat.type != ChatType.PRIVATE:
            return
        user = await self.service.user_for(PLATFORM, str(chat.id), language_hint(tg_user.language_code))
        await self.sender.deliver(chat.id, user.id, self.service.busy(user))

    async def _membership(self, update: Update, chat_id: int, user: User) -> None:
        """The user blocked the bot (kicked) or came back (member)."""
        member = update.my_chat_member
        status = member.new_chat_member.status if member is not None else None
        if status == ChatMemberStatus.BANNED:
            await self.sender.mark_blocked(chat_id, user.id)
        elif status == ChatMemberStatus.MEMBER:
            self.sender.unblock(chat_id)
            await self.service.set_paused(user.id, False)

    async def _button(self, query: CallbackQuery, chat_id: int, user: User) -> None:
        with contextlib.suppress(TelegramError):
            await query.answer()  # stops the button's spinner
        await self._reply(chat_id, user, self.service.handle_action(user.id, query.data or ""))

    async def _message(self, message: Message, chat_id: int, user: User) -> None:
        if message.text is not None:  # code sent as a code block comes in fenced (render.fenced)
            text = fenced(message.text, message.entities)
            await self._reply(chat_id, user, self.service.handle_text(user.id, text))
            return
        if message.document is not None:
            await self._reply(chat_id, user, self._document(user, message.document.file_id, message.document))
            return
        audio = message.voice or message.audio
        if audio is None:
            await self.sender.deliver(chat_id, user.id, [Reply(t(user.language, "unsupported_message"))])
            return
        if audio.file_size and audio.file_size > FileSizeLimit.FILESIZE_DOWNLOAD:
            # The Bot API refuses to hand bots files over 20 MB: say so before trying.
            size, limit = f"{audio.file_size / 1e6:.1f}", FileSizeLimit.FILESIZE_DOWNLOAD // 1_000_000
            text = t(user.language, "voice_too_big", size=size, limit=limit)
            await self.sender.deliver(chat_id, user.id, [Reply(text, kind="error")])
            return
        with warnings.catch_warnings():  # PTB 22 warns that `duration` becomes a timedelta in v23: both are read
            warnings.simplefilter("ignore", PTBDeprecationWarning)
            duration = audio.duration
        seconds = duration.total_seconds() if isinstance(duration, timedelta) else float(duration)
        await self._reply(chat_id, user, self._voice(user, audio.file_id, seconds, message.voice is not None))

    async def _voice(self, user: User, file_id: str, seconds: float, is_voice: bool) -> list[Reply]:
        try:
            tg_file = await self.sender.bot.get_file(file_id)
            audio = bytes(await tg_file.download_as_bytearray())
        except TelegramError as err:
            log.info("could not download voice %s: %s", file_id, err)
            return [Reply(t(user.language, "voice_unreadable"), kind="error")]
        name = "voice.ogg" if is_voice else (tg_file.file_path or "audio").rsplit("/", 1)[-1]
        return await self.service.handle(SubmitVoice(user.id, audio, name, seconds))

    async def _document(self, user: User, file_id: str, doc: Document) -> list[Reply]:
        """A file sent as a job description or interview notes: the core checks its size before reading it,
        so one over its limit is not even downloaded."""
        limit = self.service.deps.limits.max_document_bytes
        if doc.file_size and doc.file_size > limit:
            size, most = f"{doc.file_size / 1e6:.1f}", f"{limit / 1e6:.0f}"
            return [Reply(t(user.language, "career.file_too_big", size=size, limit=most), kind="error")]
        try:
            tg_file = await self.sender.bot.get_file(file_id)
            data = bytes(await tg_file.download_as_bytearray())
        except TelegramError as err:
            log.info("could not download document %s: %s", file_id, err)
            return [Reply(t(user.language, "career.file_unreadable"), kind="error")]
        return await self.service.handle(UploadDocument(user.id, data, doc.file_name or "document"))

    async def _reply(self, chat_id: int, user: User, work: Awaitable[list[Reply]]) -> None:
        indicator = Indicator(
            self.sender,
            chat_id,
            t(user.language, "progress"),
            self.settings.typing_after,
            self.settings.progress_after,
            t(user.language, "progress.grading"),
        )
        indicator.start()
        try:
            with progress.listening(lambda step: _waiting(indicator, step)):
                replies = await work
        finally:
            await indicator.stop()
        await self.sender.deliver(chat_id, user.id, replies, indicator.message_id)
