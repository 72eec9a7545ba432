"""Pushes outside a conversation: a user's daily drill or reminder by DM, a server's daily question
in its channel. A user whose DMs are closed is paused, so the scheduler does not retry them."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.core.replies import Reply
from bot.core.service import Service
from bot.core.wire import reached_wire
from bot.platforms.discord.bridge import PLATFORM
from bot.platforms.discord.render import messages

log = logging.getLogger(__name__)
CANNOT_DM = 50007  # "Cannot send messages to this user": DMs closed, no shared server, or blocked
UNKNOWN_USER = 10013


class DiscordNotifier:
    platform = PLATFORM
    requires_opt_in = True  # personal pushes go by DM, only to members who opted in (/settings dm on)

    def __init__(self, client: discord.Client, service: Service) -> None:
        self.client = client
        self.service = service

    async def send(self, external_id: str, replies: Sequence[Reply]) -> None:
        """DM the user. Closed DMs or a deleted account pause the user instead of raising; other
        errors (Discord down, rate limits past discord.py's retries) raise so the push is retried."""
        try:
            channel = await self.client.create_dm(discord.Object(int(external_id)))
            await self._send(channel, replies)
        except (discord.Forbidden, discord.NotFound) as exc:
            if exc.code not in (CANNOT_DM, UNKNOWN_USER):
                raise
            user = await self.service.user_for(PLATFORM, external_id, dm_opt_in=False)
            await self.service.set_paused(user.id, True)
            log.info("discord user %s cannot be sent DMs (%d): paused", external_id, exc.code)

    async def post_channel(self, channel_id: str, replies: Sequence[Reply]) -> bool:
        """Post in a server channel (the daily question). False when the channel is gone or the bot
        may not post there, so the caller can stop trying; other errors raise."""
        channel = self.client.get_partial_messageable(int(channel_id))
        try:
            await self._send(channel, replies)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("cannot post in discord channel %s: %s", channel_id, exc)
            return False
        return True

    async def _send(self, channel: discord.abc.Messageable, replies: Sequence[Reply]) -> None:
        for reply in replies:
            for part in messages(reply):
                await reached_wire()  # a scheduled push is marked "sending" (bot/core/wire.py)
                await channel.send(**part)
