"""Pushing replies to a user outside a conversation: find their platform, use its Notifier."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.kernel.ports import AboutToSend, ChannelPoster, Delivery, Notifier
from bot.kernel.replies import Reply
from bot.kernel.store_ports import UsersPort

log = logging.getLogger(__name__)


class NotifierRouter:
    """Sends to the first of the user's platforms that has a notifier (in registration order), and
    posts in study-server channels through the platform that has them."""

    def __init__(self, store: UsersPort) -> None:
        self.store = store
        self.notifiers: dict[str, Notifier] = {}
        self.channels: ChannelPoster | None = None

    def add(self, notifier: Notifier, channels: ChannelPoster | None = None) -> None:
        self.notifiers[notifier.platform] = notifier
        if channels is not None:
            self.channels = channels

    async def __call__(
        self, user_id: int, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        identities = dict(await self.store.identities(user_id))
        user = None
        for platform, notifier in self.notifiers.items():
            if platform not in identities:
                continue
            if notifier.requires_opt_in:
                user = user or await self.store.get_user(user_id)
                if user is None or not user.dm_opt_in:
                    continue
            return await notifier.send(identities[platform], replies, about_to_send)
        log.info("user %d has no platform to notify", user_id)
        return Delivery.NO_ROUTE

    async def reaches(self, user_id: int) -> bool:
        """Whether a registered platform can reach the user now. A notifier with a `serves(external_id)` method
        (the terminal chat's: only the user chatting) is asked; the others serve all their platform's users."""
        for platform, external_id in await self.store.identities(user_id):
            notifier = self.notifiers.get(platform)
            serves = getattr(notifier, "serves", None)
            if notifier is not None and (serves is None or serves(external_id)):
                return True
        return False

    async def post_channel(
        self, channel_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        if self.channels is None:
            return Delivery.NO_ROUTE
        return await self.channels.post_channel(channel_id, replies, about_to_send)
