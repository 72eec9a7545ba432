"""A scheduled push through the real TelegramNotifier, the router and the dispatcher, against the
fake Bot API: delivered is recorded sent; a chat that blocked the bot is recorded paused (and the
user paused), not sent; a 5xx is retried on a later tick."""

from __future__ import annotations

from bot.delivery import NotifierRouter
from bot.scheduling.dispatcher import Dispatcher
from bot.storage.pushes import PushStore
from tests.fakes import FakeClock
from tests.platforms.telegram.conftest import Harness

CHAT = 611


async def daily_due(tg: Harness) -> tuple[Dispatcher, int]:
    """A Telegram user whose daily drill is due now, and the dispatcher the runner would build."""
    uid = await tg.user_id(CHAT)
    user = await tg.app.store.get_user(uid)
    assert user is not None
    clock = tg.app.service.deps.clock
    assert isinstance(clock, FakeClock)
    time = clock.now().strftime("%H:%M")
    await tg.app.store.save_user(user.model_copy(update={"timezone": "UTC", "daily_time": time, "onboarded": True}))
    router = NotifierRouter(tg.app.store)
    router.add(tg.runtime.notifier, tg.runtime.channels)

    async def pause(user_id: int) -> None:
        await tg.app.service.set_paused(user_id, True)

    return Dispatcher(tg.app.service.deps, PushStore(tg.app.engines), router, pause), uid


async def daily_state(tg: Harness) -> str:
    states = await PushStore(tg.app.engines).push_states()
    (state,) = [v for k, v in states.items() if k.startswith("daily:")]
    return state


async def test_a_delivered_push_is_recorded_sent(tg: Harness) -> None:
    dispatcher, _ = await daily_due(tg)
    report = await dispatcher.tick()
    assert (report.sent, report.paused, report.failed) == (1, 0, 0) and await daily_state(tg) == "sent"
    assert "daily drill" in tg.server.to(CHAT)[0].text


async def test_a_push_to_a_chat_that_blocked_the_bot_is_recorded_paused_not_sent(tg: Harness) -> None:
    dispatcher, uid = await daily_due(tg)
    tg.server.blocked.add(CHAT)
    report = await dispatcher.tick()
    assert (report.sent, report.paused, report.failed) == (0, 1, 0) and await daily_state(tg) == "paused"
    user = await tg.app.store.get_user(uid)
    assert user is not None and user.paused and tg.server.to(CHAT) == []


async def test_a_5xx_is_retried_on_a_later_tick(tg: Harness) -> None:
    dispatcher, _ = await daily_due(tg)
    tg.server.fail("sendMessage", 502, "Bad Gateway", times=1)
    report = await dispatcher.tick()
    assert (report.sent, report.failed) == (0, 1) and await daily_state(tg) == "claimed"
    clock = tg.app.service.deps.clock
    assert isinstance(clock, FakeClock)
    clock.advance(seconds=dispatcher.stale_after.total_seconds() + 1)
    report = await dispatcher.tick()
    assert (report.retried, report.sent) == (1, 1) and await daily_state(tg) == "sent"
    assert len([s for s in tg.server.to(CHAT) if "daily drill" in s.text]) == 1
