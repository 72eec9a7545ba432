"""Pushing replies to a user outside a conversation: find their platform, use its Notifier."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.core.ports import Notifier, Store
from bot.core.replies import Reply

log = logging.getLogger(__name__)


class NotifierRouter:
    """Sends to the first of the user's platforms that has a notifier (in registration order)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.notifiers: dict[str, Notifier] = {}

    def add(self, notifier: Notifier) -> None:
        self.notifiers[notifier.platform] = notifier

    async def __call__(self, user_id: int, replies: Sequence[Reply]) -> bool:
        identities = dict(await self.store.identities(user_id))
        user = None
        for platform, notifier in self.notifiers.items():
            if platform in identities and getattr(notifier, "requires_opt_in", False):
                user = user or await self.store.get_user(user_id)
                if user is None or not user.dm_opt_in:
                    continue
            if platform in identities:
                await notifier.send(identities[platform], replies)
                return True
        log.info("user %d has no platform to notify", user_id)
        return False
