"""Delivery: escaping of hostile text, long replies, rejected formatting, 429 retries, 403 blocking,
documents, and pushes through the Notifier."""

from __future__ import annotations

import json

import pytest

from bot.kernel.ports import Delivery
from bot.kernel.replies import Button, Reply
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness

CHAT = 601
HOSTILE = "Use <b>clip</b> & warmup: x < 1 && y > 2; *not bold* _not italic_ `code` </i> &amp; <script>&#x;"


async def answer_a_question(tg: Harness, chat: int = CHAT) -> list:  # type: ignore[type-arg]
    await tg.say(chat, "/drill")
    return await tg.say(chat, "my answer")


async def test_hostile_llm_feedback_is_shown_exactly_as_written(tg: Harness) -> None:
    tg.grader.feedback = HOSTILE
    (grade,) = await answer_a_question(tg)
    assert HOSTILE in grade.text  # the fake parses the HTML the way Telegram does: nothing was lost or bolded
    assert grade.params["parse_mode"] == "HTML" and "&lt;b&gt;" in grade.params["text"]


async def test_a_10000_character_reply_is_split_with_buttons_on_the_last_part(tg: Harness) -> None:
    tg.grader.feedback = ("A long paragraph of feedback. " * 40 + "\n") * 9 + "END"
    parts = await answer_a_question(tg)
    assert len(parts) == 3
    assert all(len(p.text) <= 4096 for p in parts)
    assert [bool(p.actions) for p in parts] == [False, False, True]
    squeezed = "".join("".join(p.text for p in parts).split())  # parts are cut at line breaks or spaces
    assert "".join(tg.grader.feedback.split()) in squeezed
    assert parts[0].text.startswith("Score: 70/100") and "Next review:" in parts[2].text


async def test_formatting_rejected_by_telegram_falls_back_to_plain_text(tg: Harness) -> None:
    tg.grader.feedback = HOSTILE
    await tg.say(CHAT, "/drill")
    tg.server.fail("sendMessage", 400, "Bad Request: can't parse entities: Unsupported start tag at byte offset 3")
    (grade,) = await tg.say(CHAT, "my answer")
    assert grade.params.get("parse_mode") is None and HOSTILE in grade.text


async def test_429_is_retried_after_retry_after(tg: Harness) -> None:
    tg.server.fail("sendMessage", 429, "Too Many Requests: retry after 0.05", retry_after=0.05, times=2)
    (reply,) = await tg.say(CHAT, "/help")
    assert "Commands:" in reply.text
    assert sum(1 for m, _ in tg.server.calls if m == "sendMessage") == 3  # two 429s, then the message


async def test_a_user_who_blocked_the_bot_is_paused_and_left_alone_until_they_return(tg: Harness) -> None:
    uid = await tg.user_id(CHAT)
    tg.server.blocked.add(CHAT)
    assert await tg.say(CHAT, "/help") == []  # the reply hit 403
    user = await tg.app.store.get_user(uid)
    assert user is not None and user.paused
    calls = len(tg.server.calls)
    assert await tg.runtime.notifier.send(str(CHAT), [Reply("your daily question")]) is Delivery.UNREACHABLE
    assert len(tg.server.calls) == calls  # not messaged again

    tg.server.blocked.discard(CHAT)
    await tg.deliver(updates.membership(CHAT, "member"))  # they unblocked the bot
    user = await tg.app.store.get_user(uid)
    assert user is not None and not user.paused
    assert await tg.runtime.notifier.send(str(CHAT), [Reply("welcome back")]) is Delivery.DELIVERED
    assert tg.server.to(CHAT)[-1].text == "welcome back"


async def test_blocking_the_bot_pauses_pushes(tg: Harness) -> None:
    uid = await tg.user_id(CHAT)
    await tg.deliver(updates.membership(CHAT, "kicked"))
    user = await tg.app.store.get_user(uid)
    assert user is not None and user.paused
    assert CHAT in tg.runtime.sender.blocked


async def test_notifier_pushes_text_and_buttons(tg: Harness) -> None:
    await tg.runtime.notifier.send(str(CHAT), [Reply("Time for today's drill", [[Button("/drill", "next")]])])
    (push,) = tg.server.to(CHAT)
    assert push.text == "Time for today's drill" and push.actions == ["next"]
    assert tg.runtime.notifier.platform == "telegram"


async def test_export_arrives_as_a_json_document(tg: Harness) -> None:
    await answer_a_question(tg)
    (doc, answers) = await tg.say(CHAT, "/export")
    assert doc.method == "sendDocument" and "all your data" in doc.text
    data = json.loads(doc.params["document"])
    assert [a["answer"] for a in data["attempts"]] == ["my answer"]
    assert data["identities"] == [{"platform": "telegram", "id": str(CHAT)}]
    assert answers.method == "sendDocument" and "Markdown" in answers.text  # the answers, readable, beside it
    markdown = answers.params["document"].decode("utf-8")
    assert markdown.startswith("# My interview drill answers (1 answer to 1 question,") and "> my answer" in markdown


async def test_an_image_reply_goes_as_a_photo_with_its_caption(tg: Harness) -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    from bot.kernel.replies import Attachment

    await tg.runtime.sender.deliver(CHAT, 0, [Reply("Your week", image=Attachment("chart.png", png, "image/png"))])
    (photo,) = tg.server.to(CHAT, "sendPhoto")
    assert photo.text == "Your week" and photo.params["photo"] == png
    assert ("sendPhoto", "multipart/form-data") in tg.server.content_types  # a file goes as a form


async def test_calls_without_files_go_as_json_with_the_fields_telegram_reads(tg: Harness) -> None:
    (grade,) = await answer_a_question(tg)
    kinds = {method: kind for method, kind in tg.server.content_types}
    assert kinds["sendMessage"] == "application/json"
    assert grade.params["parse_mode"] == "HTML" and int(grade.params["chat_id"]) == CHAT
    # the keyboard arrives as the object Telegram reads: the fake decodes it as the Bot API does
    rows = grade.params["reply_markup"]["inline_keyboard"]
    assert rows[-1][0]["callback_data"].startswith("cr:notes:save:")


async def test_a_push_is_marked_on_the_wire_after_the_limiter_and_before_telegram_has_it(tg: Harness) -> None:
    """The scheduler's "sending" mark (`about_to_send`) runs once per request, after a 429 too,
    and always before the fake Bot API has recorded the message."""
    tg.server.fail("sendMessage", 429, "Too Many Requests: retry after 0.05", retry_after=0.05, times=1)
    seen: list[int] = []

    async def mark() -> None:
        seen.append(len(tg.server.to(CHAT)))

    await tg.runtime.notifier.send(str(CHAT), [Reply("push one"), Reply("push two")], about_to_send=mark)
    assert [m.text for m in tg.server.to(CHAT)] == ["push one", "push two"]
    assert seen == [0, 0, 1]  # the 429'd try, its retry, the second message: each before Telegram had it
    await tg.runtime.notifier.send(str(CHAT), [Reply("no push in progress")])
    await tg.say(CHAT, "/help")
    assert len(seen) == 3  # without the hook, and for replies to users, nothing is marked


async def test_a_failure_before_the_service_is_told_to_the_user_in_their_language(
    tg: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The event claim fails (its table is gone): the user hears about it and the failure is logged."""
    async with tg.app.engines.writer.begin() as conn:
        await conn.exec_driver_sql("DROP TABLE processed_events")
    (sent,) = await tg.say(701, "/help", language_code="zh-hans")
    assert sent.chat_id == 701 and sent.text.startswith("我这边出了点问题")
    assert any(r.getMessage().startswith("telegram update") and r.exc_info for r in caplog.records)
