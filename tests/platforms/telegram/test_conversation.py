"""Scenarios in a private chat, through the real python-telegram-bot and the fake Bot API:
onboarding, a drill and its answer, every button on the way, voice and unsupported messages."""

from __future__ import annotations

from bot.kernel.replies import Reply
from tests.fakes import FakeTranscriber
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness

CHAT = 501


async def test_onboarding_with_buttons_and_a_typed_city(tg: Harness) -> None:
    (welcome,) = await tg.say(CHAT, "/start")
    assert welcome.actions == ["set:language:en", "set:language:zh"]
    (level,) = await tg.press(CHAT, "set:language:zh")
    assert "级别" in level.text and level.actions == ["set:level:campus", "set:level:engineer", "set:level:researcher"]
    (topics,) = await tg.press(CHAT, "set:level:researcher")
    assert "set:topics:both" in topics.actions
    (tz,) = await tg.press(CHAT, "set:topics:both")
    assert "时区" in tz.text and "set:timezone:Asia/Shanghai" in tz.actions
    (when,) = await tg.say(CHAT, "上海")  # a city, typed
    assert "08:30" in when.text and "set:daily_time:08:00" in when.actions
    (done,) = await tg.press(CHAT, "set:daily_time:08:00")
    assert "设置完成" in done.text and done.actions == ["next"]
    user = await tg.app.store.get_user(await tg.user_id(CHAT))
    assert user is not None
    assert (user.language, user.level, user.timezone, user.daily_time, user.onboarded) == (
        "zh",
        "researcher",
        "Asia/Shanghai",
        "08:00",
        True,
    )
    answered = [params["callback_query_id"] for method, params in tg.server.calls if method == "answerCallbackQuery"]
    assert len(answered) == 4  # every button press stops its spinner


async def test_a_chinese_telegram_client_gets_chinese_from_the_first_message(tg: Harness) -> None:
    (welcome,) = await tg.say(CHAT, "/help", language_code="zh-hans")
    assert "命令" in welcome.text


async def test_drill_answer_and_every_button(tg: Harness) -> None:
    (question,) = await tg.say(CHAT, "/drill")
    assert "(new)" in question.text and question.actions == ["skip", "ref"]
    (grade,) = await tg.say(CHAT, "First I check the data, then the gradient norm per layer.")
    assert "Score: 70/100 (Good)" in grade.text
    attempt = int(grade.actions[0].split(":")[1])
    assert grade.actions == [f"ref:{attempt}", f"fu:{attempt}", "next", f"dis:{attempt}", f"cr:notes:save:{attempt}"]
    assert [label for label, _ in grade.buttons[1]] == ["Disagree"]
    (disagree,) = await tg.press(CHAT, f"dis:{attempt}")
    assert "instead of the grader's Good" in disagree.text
    assert [label for label, _ in disagree.buttons[0]] == ["Again", "Hard", "Good", "Easy"]

    (reference,) = await tg.press(CHAT, f"ref:{attempt}")
    assert reference.text.startswith("Reference answer:")
    (rated,) = await tg.press(CHAT, f"rate:{attempt}:4")
    assert "Rating set to Easy" in rated.text
    (follow_up,) = await tg.press(CHAT, f"fu:{attempt}")
    assert "What threshold would you choose" in follow_up.text
    (graded_follow_up,) = await tg.say(CHAT, "Clip at 1.0, chosen from the gradient-norm percentiles.")
    assert "does not change the schedule" in graded_follow_up.text and graded_follow_up.actions == ["next"]

    (second,) = await tg.press(CHAT, "next")
    assert second.actions == ["skip", "ref"] and second.text != question.text
    sent = await tg.press(CHAT, "ref")  # reveal on an open question: the reference, counted as Again
    assert sent[0].text.startswith("Reference answer:") and "Again" in sent[1].text
    (third,) = await tg.press(CHAT, "next")
    (skipped,) = await tg.press(CHAT, "skip")
    assert "Skipped" in skipped.text and third.actions == ["skip", "ref"]
    (stale,) = await tg.press(CHAT, "rate:999999:2")  # a forged or stale button: a clear reply
    assert "could not find" in stale.text


async def test_every_typed_command_answers(tg: Harness) -> None:
    for command, expected in [
        ("/help", "Commands:"),
        ("/settings", "Your settings:"),
        ("/stats", "No answers yet"),
        ("/lang zh", "已切换为中文"),
        ("/lang", "用法"),
        ("/nonsense", "未知命令"),
    ]:
        (reply,) = await tg.say(CHAT, command)
        assert expected in reply.text, command


async def test_stats_after_an_answer(tg: Harness) -> None:
    await tg.say(CHAT, "/drill")
    await tg.say(CHAT, "an answer")
    sent = await tg.say(CHAT, "/stats")
    assert any("reviews: 1 in all" in s.text for s in sent)


async def test_voice_without_a_backend_asks_for_text(tg: Harness) -> None:
    await tg.say(CHAT, "/drill")
    file_id = tg.server.add_file(b"OggS fake opus", "voice/file_7.oga")
    (reply,) = await tg.deliver(updates.voice(CHAT, file_id))
    assert "type your answer" in reply.text
    assert any(m == "getFile" for m, _ in tg.server.calls)


async def test_voice_answer_is_transcribed_shown_and_graded(tg: Harness) -> None:
    tg.app.service.deps.transcriber = FakeTranscriber(text="I would clip gradients and check the data.")
    await tg.say(CHAT, "/drill")
    file_id = tg.server.add_file(b"OggS fake opus", "voice/file_8.oga")
    sent = await tg.deliver(updates.voice(CHAT, file_id, seconds=12))
    texts = "\n".join(s.text for s in sent)
    assert "I would clip gradients and check the data." in texts and "Score:" in texts


async def test_a_voice_file_over_the_download_limit_is_refused_before_download(tg: Harness) -> None:
    await tg.say(CHAT, "/drill")
    (reply,) = await tg.deliver(updates.voice(CHAT, "huge", size=25_000_000))
    assert "25.0 MB" in reply.text
    assert not any(m == "getFile" for m, _ in tg.server.calls)


async def test_a_sticker_gets_a_clear_reply(tg: Harness) -> None:
    (reply,) = await tg.deliver(updates.sticker(CHAT))
    assert "text and voice" in reply.text


async def test_group_chats_are_ignored(tg: Harness) -> None:
    update = updates.text(-100500, "/drill")
    update["message"]["chat"] = {"id": -100500, "type": "supergroup", "title": "study group"}
    assert await tg.deliver(update) == []  # no reply in a group...
    assert await tg.app.store.identities(1) == [] and await tg.app.store.get_user(1) is None  # ...and no user made


async def test_a_reply_to_a_chat_that_blocked_the_bot_reports_it(tg: Harness) -> None:
    tg.server.blocked.add(612)
    assert await tg.runtime.sender.deliver(612, None, [Reply("hello")]) is False
    assert 612 in tg.runtime.sender.blocked
    tg.server.blocked.discard(612)
    tg.runtime.sender.unblock(612)
    assert await tg.runtime.sender.deliver(612, None, [Reply("hello again")]) is True
