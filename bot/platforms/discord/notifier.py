"""Pushes outside a conversation: a user's daily drill or reminder by DM, a server's daily question
in its channel. The outcome is reported; the dispatcher decides (a user whose DMs are closed is paused)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.kernel.ports import AboutToSend, Delivery
from bot.kernel.replies import Reply
from bot.platforms.discord.bridge import PLATFORM
from bot.platforms.discord.render import messages

log = logging.getLogger(__name__)
CANNOT_DM = 50007  # "Cannot send messages to this user": DMs closed, no shared server, or blocked
UNKNOWN_USER = 10013


class DiscordNotifier:
    """Pushes by DM and posts in channels, reporting the outcome (no pausing or retrying here): closed
    DMs, a deleted account or a channel the bot may not use are UNREACHABLE; Discord's own errors
    (5xx, rate limits past discord.py's retries) are FAILED."""

    platform = PLATFORM
    requires_opt_in = True  # personal pushes go by DM, only to members who opted in (/settings dm on)

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        try:
            channel = await self.client.create_dm(discord.Object(int(external_id)))
            await self._send(channel, replies, about_to_send)
        except (discord.Forbidden, discord.NotFound) as exc:
            if exc.code in (CANNOT_DM, UNKNOWN_USER):
                log.info("discord user %s cannot be sent DMs (%d)", external_id, exc.code)
                return Delivery.UNREACHABLE
            log.warning("discord DM to %s refused: %s", external_id, exc)
            return Delivery.FAILED
        except discord.HTTPException as exc:
            log.info("discord DM to %s failed: %s", external_id, exc)
            return Delivery.FAILED
        return Delivery.DELIVERED

    async def post_channel(
        self, channel_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        """Post in a server channel (the daily question): UNREACHABLE when the channel is gone or the
        bot may not post there, so the caller stops trying."""
        channel = self.client.get_partial_messageable(int(channel_id))
        try:
            await self._send(channel, replies, about_to_send)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("cannot post in discord channel %s: %s", channel_id, exc)
            return Delivery.UNREACHABLE
        except discord.HTTPException as exc:
            log.info("discord post in channel %s failed: %s", channel_id, exc)
            return Delivery.FAILED
        return Delivery.DELIVERED

    async def _send(
        self, channel: discord.abc.Messageable, replies: Sequence[Reply], about_to_send: AboutToSend | None
    ) -> None:
        for reply in replies:
            for part in messages(reply):
                if about_to_send is not None:
                    await about_to_send()  # a scheduled push is marked "sending" (bot/kernel/wire.py)
                await channel.send(**part)
