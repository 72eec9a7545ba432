"""Follow-up reminders on an application: asked for in words ("remind 7", "follow up in 7 days", "7天后提醒我
跟进") or by buttons, due at the user's daily time that many days on, rendered by the scheduler's reminder
dispatch, dropped when the application is gone or closed, and cancelled in words ("remind off", "取消提醒")
or by a button."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.bootstrap import App, build_app
from bot.config import Settings
from bot.features.apps import data as apps_data
from bot.features.deps import Deps
from bot.kernel import push_rules
from bot.kernel.bank import Bank
from bot.kernel.models import Reminder
from bot.kernel.service import Service
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.integration.test_scheduler import Outbox, add_user, clock_of, dispatcher
from tests.unit.test_service import new_user, onboard


async def follow_ups(store: FakeStore, uid: int) -> list[Reminder]:
    return [r for r in await store.list_reminders(uid) if r.kind == apps_data.FOLLOW_UP]


async def test_a_reminder_in_words_is_due_at_the_daily_time_that_many_days_on(
    service: Service, store: FakeStore
) -> None:
    uid = await new_user(service)
    await onboard(service, uid)  # Asia/Shanghai, daily at 08:30; the clock: 2026-03-02 09:00 UTC (17:00 local)
    await service.handle_text(uid, "/apps add ByteDance | LLM infra")
    (app_,) = await store.list_applications(uid)
    (r,) = await service.handle_text(uid, "/apps 1 follow up in 7 days")
    assert r.text == "I'll remind you to follow up on ByteDance in 7 days (2026-03-09 08:30)."
    (reminder,) = await follow_ups(store, uid)
    assert reminder.due_at == datetime(2026, 3, 9, 0, 30, tzinfo=UTC)
    assert reminder.payload == {"app_id": app_.id, "company": "ByteDance", "days": 7}
    assert "Follow-up reminder: 2026-03-09 08:30" in (await service.handle_text(uid, "/apps 1"))[0].text


async def test_chinese_words_and_the_buttons(service: Service, store: FakeStore) -> None:
    uid = await new_user(service, "zh")
    await service.handle_text(uid, "/apps add 阿里 | 预训练")
    (app_,) = await store.list_applications(uid)
    (r,) = await service.handle_text(uid, "/apps 1 3天后提醒我跟进")
    assert r.text.startswith("3 天后（") and "提醒你跟进 阿里巴巴" in r.text
    (r,) = await service.handle_action(uid, f"cr:apps:rem:{app_.id}")
    assert r.actions() == [f"cr:apps:rem:{app_.id}:{n}" for n in (3, 7, 14)]
    assert [b.label for b in r.buttons[0]] == ["3 天后", "7 天后", "14 天后"]
    await service.handle_action(uid, f"cr:apps:rem:{app_.id}:14")
    assert sorted(r.payload["days"] for r in await follow_ups(store, uid)) == [3, 14]  # type: ignore[type-var]
    await service.handle_text(uid, "/apps 1 remind")  # no number: the default week
    (r,) = await service.handle_text(uid, "/apps 1 提醒 5")
    assert "上限（3 个）" in r.text and r.kind == "error"
    assert len(await follow_ups(store, uid)) == apps_data.MAX_PENDING_REMINDERS


async def test_the_reminder_dispatch_renders_it_and_skips_a_closed_or_deleted_one(
    service: Service, deps: Deps, store: FakeStore
) -> None:
    uid = await new_user(service)
    await service.handle_text(uid, "/apps add Kimi | RL")
    await service.handle_text(uid, "/apps 1 二面")
    await service.handle_text(uid, "/apps 1 remind 7")
    (reminder,) = await follow_ups(store, uid)
    user = await store.get_user(uid)
    assert user is not None
    (app_,) = await store.list_applications(uid)
    deps.clock.advance(days=7)  # type: ignore[attr-defined]
    (push,) = await push_rules.bind_pushes(deps.provided()).reminder(user, reminder) or []
    assert push.text.startswith("Time to follow up on #1 Moonshot AI: Technical round 2, last change 7 days ago.")
    assert push.actions() == [f"cr:apps:show:{app_.id}"]
    interview = Reminder(id=0, user_id=uid, kind="post_interview", due_at=reminder.due_at, payload={"company": "X"})
    assert (
        "How did your interview at X go?"
        in (await push_rules.bind_pushes(deps.provided()).reminder(user, interview) or [])[0].text
    )
    await service.handle_text(uid, "/apps 1 withdraw")
    assert await push_rules.bind_pushes(deps.provided()).reminder(user, reminder) is None
    await store.delete_application(uid, app_.id)
    assert await push_rules.bind_pushes(deps.provided()).reminder(user, reminder) is None
    other = await service.user_for("test", "other", "en")
    assert await push_rules.bind_pushes(deps.provided()).reminder(other, reminder) is None


@pytest.fixture
async def app(db_url: str, bank: Bank) -> AsyncIterator[App]:
    """The real app on SQLite (and PostgreSQL when configured) with the small test bank."""
    settings = Settings(database_url=db_url, _env_file=None)  # type: ignore[call-arg]
    built = await build_app(settings, grader=FakeGrader(), clock=FakeClock(), fuzz=False, bank=bank)
    yield built
    await built.close()


async def test_the_scheduler_sends_the_follow_up_once_when_it_is_due(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    uid = await add_user(app, "seeker", "Europe/Berlin", daily="09:30")
    await app.service.handle_text(uid, "/apps add DeepSeek | LLM infra")
    await app.service.handle_text(uid, "/apps 1 remind 2")
    outbox = Outbox()
    outbox.clock = clock
    d = dispatcher(app, outbox)
    clock.current = datetime(2026, 3, 4, 8, 29, tzinfo=UTC)  # 09:29 in Berlin
    await d.tick()
    assert not [1 for _, r, _ in outbox.sent if "follow up" in r[0].text]
    clock.current = datetime(2026, 3, 4, 8, 30, tzinfo=UTC)
    await d.tick()
    clock.advance(hours=1)
    await d.tick()
    sent = [r[0].text for u, r, _ in outbox.sent if u == uid and "follow up" in r[0].text]
    assert sent == ["Time to follow up on #1 DeepSeek: Applied, last change 1 day ago. "
                    "A short note to the recruiter keeps it moving."]  # fmt: skip


async def test_reminders_are_cancelled_in_words_or_by_the_button(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/apps add ByteDance | LLM infra")
    await service.handle_text(uid, "/apps add Moonshot | pretraining")
    bytedance, moonshot = await store.list_applications(uid)
    (shown,) = await service.handle_text(uid, "/apps 1")
    assert f"cr:apps:remoff:{bytedance.id}" not in shown.actions()  # nothing to cancel yet
    (added,) = await service.handle_text(uid, "/apps 1 remind 7")
    assert added.actions() == [f"cr:apps:remoff:{bytedance.id}", f"cr:apps:show:{bytedance.id}"]
    await service.handle_text(uid, "/apps 1 remind 14")
    await service.handle_text(uid, "/apps 2 remind 3")
    (shown,) = await service.handle_text(uid, "/apps 1")
    assert f"cr:apps:remoff:{bytedance.id}" in shown.actions()

    (r,) = await service.handle_text(uid, "/apps 1 remind off")
    assert r.text == "Cancelled 2 reminders to follow up on ByteDance."
    assert [(b.label, b.action) for b in r.buttons[0]] == [("Open", f"cr:apps:show:{bytedance.id}")]
    states = {(x.payload["app_id"], x.payload["days"]): x.state for x in await follow_ups(store, uid)}
    assert states == {(bytedance.id, 7): "cancelled", (bytedance.id, 14): "cancelled", (moonshot.id, 3): "pending"}
    (shown,) = await service.handle_text(uid, "/apps 1")
    assert "Follow-up reminder" not in shown.text and f"cr:apps:remoff:{bytedance.id}" not in shown.actions()
    (r,) = await service.handle_text(uid, "/apps 1 cancel the reminder")
    assert r.text == "No follow-up reminder on ByteDance is waiting to be sent."
    assert r.actions() == [f"cr:apps:show:{bytedance.id}"]
    (r,) = await service.handle_text(uid, "/apps 1 remind 5")  # the cap counts pending ones only
    assert r.text.startswith("I'll remind you")

    (r,) = await service.handle_action(uid, f"cr:apps:remoff:{moonshot.id}")
    assert r.text == "Cancelled 1 reminder to follow up on Moonshot AI."
    assert [x.payload["app_id"] for x in await follow_ups(store, uid) if x.state == "pending"] == [bytedance.id]


async def test_chinese_words_cancel_and_another_users_application_is_not_found(
    service: Service, store: FakeStore
) -> None:
    uid, other = await new_user(service, "zh"), (await service.user_for("test", "someone-else", "en")).id
    await service.handle_text(uid, "/apps add 阿里 | 预训练")
    (app_,) = await store.list_applications(uid)
    (added,) = await service.handle_text(uid, "/apps 1 3天后提醒我跟进")
    assert [b.label for b in added.buttons[0]] == ["取消提醒", "查看"]
    (r,) = await service.handle_action(other, f"cr:apps:remoff:{app_.id}")
    assert r.text.startswith("No such application") and [x.state for x in await follow_ups(store, uid)] == ["pending"]
    await service.handle_text(uid, "/apps 1 提醒 7，别忘了")  # "don't forget": a reminder, not a cancel
    (r,) = await service.handle_text(uid, "/apps 1 不用再提醒了")
    assert r.text == "已取消跟进 阿里巴巴 的 2 条提醒。"
    assert [x.state for x in await follow_ups(store, uid)] == ["cancelled", "cancelled"]
    await service.handle_text(uid, "/apps 1 remind 3")
    (r,) = await service.handle_text(uid, "/apps 1 don't remind me")
    assert r.text.startswith("已取消") and {x.state for x in await follow_ups(store, uid)} == {"cancelled"}
    (r,) = await service.handle_text(uid, "/apps 1 取消提醒")
    assert r.text == "阿里巴巴 没有待发送的跟进提醒。" and [b.label for b in r.buttons[0]] == ["查看"]


async def test_a_cancelled_follow_up_is_never_sent(app: App) -> None:
    clock = clock_of(app)
    uid = await add_user(app, "seeker", "Europe/Berlin", daily="09:30")
    await app.service.handle_text(uid, "/apps add DeepSeek | LLM infra")
    await app.service.handle_text(uid, "/apps 1 remind 2")
    (r,) = await app.service.handle_text(uid, "/apps 1 stop reminding me")
    assert r.text == "Cancelled 1 reminder to follow up on DeepSeek."
    outbox = Outbox()
    outbox.clock = clock
    d = dispatcher(app, outbox)
    clock.advance(days=3)
    await d.tick()
    assert not [1 for _, r, _ in outbox.sent if "follow up" in r[0].text]
    assert [x.state for x in await app.store.list_reminders(uid)] == ["cancelled"]
