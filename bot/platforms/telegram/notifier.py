"""The Notifier port for Telegram: the scheduler and the regrade worker push replies through it."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.kernel.ports import AboutToSend, Delivery
from bot.kernel.replies import Reply
from bot.kernel.wire import on_wire
from bot.platforms.telegram.sender import TelegramSender

log = logging.getLogger(__name__)


async def _nothing() -> None:
    return None


class TelegramNotifier:
    """Sends to a private chat (external_id is the chat id) and reports the outcome: a chat that
    blocked the bot (a 403 now, or known from before) is UNREACHABLE, an error of Telegram or the
    network is FAILED. `about_to_send` runs in the request layer, past PTB's rate limiter."""

    platform = "telegram"
    requires_opt_in = False

    def __init__(self, sender: TelegramSender) -> None:
        self.sender = sender

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        chat_id = int(external_id)
        if chat_id in self.sender.blocked:
            log.info("not pushing to telegram chat %s: it blocked the bot", chat_id)
            return Delivery.UNREACHABLE
        with on_wire(about_to_send or _nothing):
            return await self.sender.push(chat_id, list(replies))
