"""A scheduled push through the real DiscordNotifier, the router and the dispatcher, against the
fake Discord: delivered is recorded sent; closed DMs are recorded paused (and the member paused),
not sent; a 5xx is retried on a later tick; a channel the bot may not post in fails the post."""

from __future__ import annotations

from bot.bootstrap import App
from bot.delivery import NotifierRouter
from bot.scheduling.dispatcher import Dispatcher
from bot.storage.pushes import PushStore
from tests.fakes import FakeClock
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.fake_discord import FakeDiscord

MEMBER = 42


async def daily_due(bot: Harness, app: App) -> tuple[Dispatcher, int, FakeClock]:
    """A member who opted in to DMs, whose daily drill is due now, and the runner's dispatcher."""
    store, clock = bot.service.deps.store, bot.service.deps.clock
    assert isinstance(clock, FakeClock)
    uid = await bot.user_id(MEMBER)
    user = await store.get_user(uid)
    assert user is not None
    time = clock.now().strftime("%H:%M")
    update = {"timezone": "UTC", "daily_time": time, "onboarded": True, "dm_opt_in": True}
    await store.save_user(user.model_copy(update=update))
    router = NotifierRouter(store)
    router.add(bot.runtime.notifier, bot.runtime.channels)

    async def pause(user_id: int) -> None:
        await bot.service.set_paused(user_id, True)

    return Dispatcher(bot.service.deps, PushStore(app.engines), router, pause), uid, clock


async def daily_state(app: App) -> str:
    states = await PushStore(app.engines).push_states()
    (state,) = [v for k, v in states.items() if k.startswith("daily:")]
    return state


async def test_a_delivered_dm_is_recorded_sent(bot: Harness, fake: FakeDiscord, app: App) -> None:
    dispatcher, _, _ = await daily_due(bot, app)
    report = await dispatcher.tick()
    assert (report.sent, report.paused, report.failed) == (1, 0, 0) and await daily_state(app) == "sent"
    assert "daily drill" in fake.to("/messages")[0].content


async def test_closed_dms_are_recorded_paused_not_sent(bot: Harness, fake: FakeDiscord, app: App) -> None:
    dispatcher, uid, _ = await daily_due(bot, app)
    fake.closed_dms.add(str(MEMBER))
    report = await dispatcher.tick()
    assert (report.sent, report.paused, report.failed) == (0, 1, 0) and await daily_state(app) == "paused"
    user = await bot.service.deps.store.get_user(uid)
    assert user is not None and user.paused


async def test_a_5xx_is_retried_on_a_later_tick(bot: Harness, fake: FakeDiscord, app: App) -> None:
    dispatcher, _, clock = await daily_due(bot, app)
    fake.unavailable = 1
    report = await dispatcher.tick()
    assert (report.sent, report.failed) == (0, 1) and await daily_state(app) == "claimed"
    clock.advance(seconds=dispatcher.stale_after.total_seconds() + 1)
    report = await dispatcher.tick()
    assert (report.retried, report.sent) == (1, 1) and await daily_state(app) == "sent"
    posts = [r for r in fake.to("/messages") if "daily drill" in (r.content or "")]
    assert len(posts) == 2  # the request answered 503, then the one retry: never sent twice
