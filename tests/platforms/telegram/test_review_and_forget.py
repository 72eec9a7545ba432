"""/review and /interview step by step and in one line, natural dates, and /forget, in Telegram."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.platforms.telegram.conftest import Harness

CHAT = 801


async def test_review_step_by_step_with_buttons(tg: Harness) -> None:
    (ask,) = await tg.say(CHAT, "/review")
    assert "Which company" in ask.text and ask.actions == ["flow:cancel"]
    await tg.say(CHAT, "ByteDance")
    (ask_answer,) = await tg.say(CHAT, "How would you debug a loss spike?")
    assert ask_answer.actions == ["flow:skip", "flow:cancel"]
    (confirm,) = await tg.say(CHAT, "Checked the data & the LR <warmup>.")
    assert "Checked the data & the LR <warmup>." in confirm.text and confirm.actions == ["flow:ok", "flow:cancel"]
    (logged,) = await tg.press(CHAT, "flow:ok")
    assert "Logged for ByteDance" in logged.text and logged.actions == ["next"]
    (item,) = await tg.app.store.list_review_items(await tg.user_id(CHAT))
    assert (item.company, item.question_text, item.answer_text) == (
        "ByteDance",
        "How would you debug a loss spike?",
        "Checked the data & the LR <warmup>.",
    )
    (question,) = await tg.press(CHAT, "next")  # the logged question is due now
    assert "How would you debug a loss spike?" in question.text  # the logged question itself, or its bank match


async def test_review_in_one_line(tg: Harness) -> None:
    (logged,) = await tg.say(CHAT, "/review ByteDance | How would you debug a loss spike?")
    assert "Logged for ByteDance" in logged.text
    (item,) = await tg.app.store.list_review_items(await tg.user_id(CHAT))
    assert item.question_text == "How would you debug a loss spike?" and item.answer_text == ""


async def test_review_cancelled_midway_logs_nothing(tg: Harness) -> None:
    await tg.say(CHAT, "/review")
    await tg.say(CHAT, "Acme")
    (cancelled,) = await tg.press(CHAT, "flow:cancel")
    assert "nothing was logged" in cancelled.text
    assert await tg.app.store.list_review_items(await tg.user_id(CHAT)) == []


async def test_interview_step_by_step_with_a_chinese_date(tg: Harness) -> None:
    await tg.say(CHAT, "/settings tz Asia/Shanghai")
    await tg.say(CHAT, "/interview")
    await tg.say(CHAT, "字节跳动")
    await tg.press(CHAT, "flow:skip")
    (confirm,) = await tg.say(CHAT, "明天下午两点")  # the fake clock: 2026-03-02 09:00 UTC = 17:00 in Shanghai
    assert "2026-03-03 14:00" in confirm.text
    (logged,) = await tg.press(CHAT, "flow:ok")
    assert "Interview logged" in logged.text
    (log,) = await tg.app.store.list_interviews(await tg.user_id(CHAT))
    assert log.at == datetime(2026, 3, 3, 6, 0, tzinfo=UTC)


async def test_interview_in_one_line(tg: Harness) -> None:
    (logged,) = await tg.say(CHAT, "/interview Acme | ML engineer | 2026-12-03 14:00")
    assert "Acme ML engineer, 2026-12-03 14:00" in logged.text


async def test_forget_deletes_everything_after_confirmation(tg: Harness) -> None:
    await tg.say(CHAT, "/drill")
    await tg.say(CHAT, "an answer")
    uid = await tg.user_id(CHAT)
    (confirm,) = await tg.say(CHAT, "/forget")
    assert confirm.actions == ["forget:yes", "forget:no"]
    (cancelled,) = await tg.press(CHAT, "forget:no")
    assert "Nothing was deleted" in cancelled.text and await tg.app.store.list_attempts(uid)
    await tg.say(CHAT, "/forget")
    (done,) = await tg.press(CHAT, "forget:yes")
    assert "deleted" in done.text and await tg.app.store.list_attempts(uid) == []
    blank = await tg.app.store.get_user(await tg.user_id(CHAT))  # the chat's new user (SQLite may reuse the id)
    assert blank is not None and not blank.onboarded and await tg.app.store.list_cards(blank.id) == []
    (again,) = await tg.say(CHAT, "/start")  # a fresh start afterwards
    assert "Welcome" in again.text and await tg.app.store.list_attempts(await tg.user_id(CHAT)) == []
