"""The Notifier port for Telegram: the scheduler and the regrade worker push replies through it."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.core.replies import Reply
from bot.platforms.telegram.sender import TelegramSender

log = logging.getLogger(__name__)


class TelegramNotifier:
    """Sends to a private chat (external_id is the chat id). A chat that blocked the bot is skipped;
    a 403 while sending pauses the user. Other errors (network, 5xx) propagate so the caller retries."""

    platform = "telegram"

    def __init__(self, sender: TelegramSender) -> None:
        self.sender = sender

    async def send(self, external_id: str, replies: Sequence[Reply]) -> None:
        chat_id = int(external_id)
        if chat_id in self.sender.blocked:
            log.info("not pushing to telegram chat %s: it blocked the bot", chat_id)
            return
        await self.sender.deliver(chat_id, None, list(replies))  # the user is looked up only on a 403
