"""Sending core replies to a Telegram chat: escaped HTML with a plain-text fallback, long text split,
attachments as photos and documents, and a chat that blocked the bot (403) paused and left alone.

429s are retried by python-telegram-bot's AIORateLimiter (configured in runtime.py), not here.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence

from telegram import Bot, InputFile, Message
from telegram.constants import ChatAction, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.kernel.ports import Delivery
from bot.kernel.replies import Attachment, Reply
from bot.kernel.service import Service
from bot.platforms.telegram.render import CAPTION_LIMIT, TextKeyboard, keyboard, split_text, to_html, utf16_len

log = logging.getLogger(__name__)


class ChatBlocked(Exception):
    """The user blocked the bot (Telegram answered 403): stop sending to this chat."""


def _entity_error(err: BadRequest) -> bool:
    text = str(err).lower()
    return "can't parse entities" in text or "can't find end" in text or "unsupported start tag" in text


class TelegramSender:
    def __init__(self, bot: Bot, service: Service, drafts: bool = True) -> None:
        self.bot = bot
        self.service = service
        self.blocked: set[int] = set()
        self.drafts = drafts and hasattr(bot, "send_message_draft")  # Bot API 9.3's sendMessageDraft

    # --- what the handlers and the notifier call

    async def deliver(
        self, chat_id: int, user_id: int | None, replies: Sequence[Reply], edit_id: int | None = None
    ) -> bool:
        """Send `replies` in order (the first one edited into message `edit_id` when given).
        Returns False when the chat has blocked the bot: the user (looked up by chat when
        `user_id` is None) is then paused."""
        if chat_id in self.blocked:
            return False
        try:
            for i, reply in enumerate(replies):
                await self.send_reply(chat_id, reply, edit_id if i == 0 else None)
            if edit_id is not None and not replies:
                await self._delete(chat_id, edit_id)
        except ChatBlocked:
            await self.mark_blocked(chat_id, user_id)
            return False
        return True

    async def push(self, chat_id: int, replies: Sequence[Reply]) -> Delivery:
        """Send a push and report what became of it; the caller decides what follows (no pausing here)."""
        try:
            for reply in replies:
                await self.send_reply(chat_id, reply)
        except ChatBlocked:
            self.blocked.add(chat_id)
            return Delivery.UNREACHABLE
        except TelegramError as err:  # network, 5xx, 429 past the retries
            log.info("telegram push to chat %s failed: %s", chat_id, err)
            return Delivery.FAILED
        return Delivery.DELIVERED

    async def mark_blocked(self, chat_id: int, user_id: int | None) -> None:
        if user_id is None:
            user_id = (await self.service.user_for("telegram", str(chat_id))).id
        log.info("telegram chat %s blocked the bot: pausing user %s", chat_id, user_id)
        self.blocked.add(chat_id)
        await self.service.set_paused(user_id, True)

    def unblock(self, chat_id: int) -> None:
        self.blocked.discard(chat_id)

    async def typing(self, chat_id: int) -> None:
        with contextlib.suppress(TelegramError):
            await self.bot.send_chat_action(chat_id, ChatAction.TYPING)

    async def draft(self, chat_id: int, draft_id: int, text: str) -> bool:
        """Show `text` as the chat's message draft (a preview Telegram keeps about 30 seconds; the reply sent
        after it replaces it); False when the Bot API refused it."""
        try:
            await self.bot.send_message_draft(chat_id, draft_id, text)
        except TelegramError as err:
            log.info("telegram: no message draft in chat %s: %s", chat_id, err)
            return False
        return True

    async def progress(self, chat_id: int, text: str) -> int | None:
        """A placeholder message to be edited into the result; None when it could not be sent."""
        try:
            return (await self._send_text(chat_id, text, None)).message_id
        except (TelegramError, ChatBlocked):
            return None

    # --- one reply

    async def send_reply(self, chat_id: int, reply: Reply, edit_id: int | None = None) -> None:
        markup = keyboard(reply.buttons)
        attachment = reply.image or reply.file
        if attachment is not None and utf16_len(reply.text) <= CAPTION_LIMIT:
            if edit_id is not None:
                await self._delete(chat_id, edit_id)
            await self._send_attachment(chat_id, attachment, reply.image is not None, reply.text, markup)
            return
        chunks = split_text(reply.text)
        for n, chunk in enumerate(chunks):
            last = n == len(chunks) - 1
            chunk_markup = markup if last and attachment is None else None
            if n == 0 and edit_id is not None:
                await self._edit_text(chat_id, edit_id, chunk, chunk_markup)
            else:
                await self._send_text(chat_id, chunk, chunk_markup)
        if attachment is not None:
            await self._send_attachment(chat_id, attachment, reply.image is not None, "", markup)

    # --- Bot API calls, with the HTML -> plain fallback and 403 -> ChatBlocked

    async def _send_text(self, chat_id: int, text: str, markup: TextKeyboard | None) -> Message:
        try:
            try:
                return await self.bot.send_message(
                    chat_id, to_html(text), parse_mode=ParseMode.HTML, reply_markup=markup
                )
            except BadRequest as err:
                if not _entity_error(err):
                    raise
                log.warning("telegram rejected the formatting (%s); sending plain text", err)
                return await self.bot.send_message(chat_id, text, parse_mode=None, reply_markup=markup)
        except Forbidden as err:
            raise ChatBlocked(str(err)) from err

    async def _edit_text(self, chat_id: int, message_id: int, text: str, markup: TextKeyboard | None) -> None:
        try:
            try:
                await self.bot.edit_message_text(
                    to_html(text),
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup,
                )
            except BadRequest as err:
                if not _entity_error(err):
                    raise
                await self.bot.edit_message_text(
                    text, chat_id=chat_id, message_id=message_id, parse_mode=None, reply_markup=markup
                )
        except Forbidden as err:
            raise ChatBlocked(str(err)) from err
        except BadRequest as err:  # the placeholder was deleted, or is too old to edit: send anew
            log.info("could not edit message %s (%s); sending a new one", message_id, err)
            await self._send_text(chat_id, text, markup)

    async def _send_attachment(
        self, chat_id: int, att: Attachment, is_image: bool, caption: str, markup: TextKeyboard | None
    ) -> None:
        data = InputFile(att.data, filename=att.filename)
        text = to_html(caption) if caption else None
        try:
            if is_image:
                await self.bot.send_photo(chat_id, data, caption=text, parse_mode=ParseMode.HTML, reply_markup=markup)
            else:
                await self.bot.send_document(
                    chat_id, data, caption=text, parse_mode=ParseMode.HTML, reply_markup=markup
                )
        except Forbidden as err:
            raise ChatBlocked(str(err)) from err

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.delete_message(chat_id, message_id)
        except Forbidden as err:
            raise ChatBlocked(str(err)) from err
        except BadRequest as err:
            log.info("could not delete message %s (%s)", message_id, err)
