"""The step-by-step /review and /interview flows through the core service, with fakes."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.dates import parse_natural
from bot.features.deps import Deps
from bot.kernel.service import Service
from bot.kernel.session import Answering, Idle, InFlow
from tests.fakes import FakeStore


async def user(service: Service, lang: str = "en", tz: str = "Asia/Shanghai") -> int:
    uid = (await service.user_for("test", f"u-{lang}", lang)).id  # type: ignore[arg-type]
    await service.handle_text(uid, f"/settings tz {tz}")
    return uid


async def test_review_step_by_step_logs_the_question(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    r = await service.handle_text(uid, "/review")
    assert "Which company" in r[0].text and r[0].ask_text and r[0].actions() == ["flow:cancel"]
    r = await service.handle_text(uid, "ByteDance")
    assert "What were you asked" in r[0].text
    r = await service.handle_text(uid, "How would you debug a loss spike?")
    assert "How did you answer" in r[0].text and r[0].actions() == ["flow:skip", "flow:cancel"]
    r = await service.handle_text(uid, "Checked the data, then lowered the LR.")
    assert "ByteDance" in r[0].text and "loss spike" in r[0].text and "lowered the LR" in r[0].text
    assert r[0].actions() == ["flow:ok", "flow:cancel"]
    assert store.review_items == {}  # nothing is logged before the confirmation
    r = await service.handle_action(uid, "flow:ok")
    assert "Logged for ByteDance" in r[0].text
    (item,) = store.review_items.values()
    assert (item.company, item.question_text, item.answer_text) == (
        "ByteDance",
        "How would you debug a loss spike?",
        "Checked the data, then lowered the LR.",
    )
    assert store.sessions[uid] == Idle()


async def test_review_answer_can_be_skipped_and_confirmed_by_typing(service: Service, store: FakeStore) -> None:
    uid = await user(service, "zh")
    await service.handle_text(uid, "/review")
    await service.handle_text(uid, "字节跳动")
    await service.handle_text(uid, "ZeRO-3 怎么切分参数？")
    r = await service.handle_action(uid, "flow:skip")
    assert "（无）" in r[0].text and "字节跳动" in r[0].text
    r = await service.handle_text(uid, "随便")  # neither yes nor no: asked again, nothing logged
    assert "保存" in r[0].text and store.review_items == {}
    r = await service.handle_text(uid, "确认")
    assert "已记录" in r[0].text
    (item,) = store.review_items.values()
    assert item.answer_text == ""


async def test_required_fields_cannot_be_skipped_or_empty(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await service.handle_text(uid, "/review")
    r = await service.handle_action(uid, "flow:skip")  # company is required: asked again
    assert "Which company" in r[0].text
    r = await service.handle_text(uid, "   ")
    assert "cannot be empty" in r[0].text and "Which company" in r[1].text
    r = await service.handle_text(uid, "x" * 5000)
    assert "5000" in r[0].text and store.sessions[uid] == InFlow(flow="review", data={}, step="company")


async def test_cancel_at_any_step_logs_nothing(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await service.handle_text(uid, "/interview")
    await service.handle_text(uid, "Acme")
    r = await service.handle_action(uid, "flow:cancel")
    assert "nothing was logged" in r[0].text
    assert store.interviews == {} and store.sessions[uid] == Idle()
    r = await service.handle_action(uid, "flow:ok")  # a button of the closed form
    assert "closed" in r[0].text and store.interviews == {}


async def test_interview_flow_reads_natural_dates_in_the_users_timezone(
    store: FakeStore, deps: Deps, service: Service
) -> None:
    deps.natural_dates = parse_natural  # as bootstrap wires it
    uid = await user(service, "zh")
    await service.handle_text(uid, "/interview")
    await service.handle_text(uid, "字节跳动")
    r = await service.handle_action(uid, "flow:skip")  # role is optional
    assert "面试时间" in r[0].text
    r = await service.handle_text(uid, "明年某天")
    assert "无法识别时间" in r[0].text and store.sessions[uid] == InFlow(
        flow="interview", data={"company": "字节跳动", "role": ""}, step="when"
    )
    r = await service.handle_text(uid, "明天下午两点")  # the fake clock: 2026-03-02 09:00 UTC = 17:00 Shanghai
    assert "2026-03-03 14:00" in r[0].text
    r = await service.handle_action(uid, "flow:ok")
    assert "字节跳动" in r[0].text
    (log,) = store.interviews.values()
    assert log.at == datetime(2026, 3, 3, 6, 0, tzinfo=UTC) and log.role == ""
    (reminder,) = store.reminders.values()
    assert reminder.kind == "post_interview"


async def test_one_line_interview_uses_the_natural_date_reader(deps: Deps, service: Service, store: FakeStore) -> None:
    deps.natural_dates = parse_natural
    uid = await user(service, "en", tz="America/New_York")
    r = await service.handle_text(uid, "/interview Acme | ML engineer | next friday 10am")
    assert "2026-03-06 10:00" in r[0].text
    (log,) = store.interviews.values()
    assert log.at == datetime(2026, 3, 6, 15, 0, tzinfo=UTC)


async def test_another_command_leaves_the_flow(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await service.handle_text(uid, "/review")
    await service.handle_text(uid, "/drill")
    assert isinstance(store.sessions[uid], Answering)
    r = await service.handle_text(uid, "my answer")
    assert r[0].kind == "grade" and store.review_items == {}
