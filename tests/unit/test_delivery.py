"""Routing pushes to the user's platform; DM platforms only for users who opted in."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.delivery import NotifierRouter
from bot.kernel.models import User
from bot.kernel.ports import AboutToSend, Delivery
from bot.kernel.replies import Reply
from tests.fakes import FakeStore


class Recorder:
    def __init__(self, platform: str, requires_opt_in: bool = False) -> None:
        self.platform = platform
        self.requires_opt_in = requires_opt_in
        self.sent: list[tuple[str, str]] = []

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        self.sent.append((external_id, replies[0].text))
        return Delivery.DELIVERED


async def test_router_picks_the_users_platform_and_respects_dm_opt_in() -> None:
    store = FakeStore()
    now = datetime(2026, 1, 1, tzinfo=UTC)
    tg_user = await store.get_or_create_user("telegram", "100", User(id=0, created_at=now))
    dc_user = await store.get_or_create_user("discord", "200", User(id=0, created_at=now, dm_opt_in=False))
    telegram, discord = Recorder("telegram"), Recorder("discord", requires_opt_in=True)
    router = NotifierRouter(store)
    router.add(telegram)
    router.add(discord)
    assert await router(tg_user.id, [Reply("hi")]) is Delivery.DELIVERED
    assert await router(dc_user.id, [Reply("hi")]) is Delivery.NO_ROUTE  # not opted in: no DM
    await store.save_user(dc_user.model_copy(update={"dm_opt_in": True}))
    assert await router(dc_user.id, [Reply("hello")]) is Delivery.DELIVERED
    assert telegram.sent == [("100", "hi")] and discord.sent == [("200", "hello")]
