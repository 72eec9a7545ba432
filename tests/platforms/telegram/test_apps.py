"""/apps in a Telegram private chat, through the real python-telegram-bot and the fake Bot API: the
step-by-step add, stage moves by button and by Chinese words, the board as a photo with its buttons, a
note typed after its button, and a follow-up reminder."""

from __future__ import annotations

from tests.platforms.telegram.conftest import Harness

CHAT = 612


async def test_the_application_board_in_a_private_chat(tg: Harness) -> None:
    (asked,) = await tg.say(CHAT, "/apps add")
    assert asked.text == "Which company?" and asked.actions == ["cr:apps:cancel"]
    assert "The role at ByteDance?" in (await tg.say(CHAT, "字节"))[0].text
    (notes,) = await tg.say(CHAT, "LLM infra")
    assert "Any notes" in notes.text and notes.actions[0] == "cr:apps:skip"
    (added,) = await tg.press(CHAT, "cr:apps:skip")
    assert "Added #1 ByteDance at Applied" in added.text
    uid = await tg.user_id(CHAT)
    (app,) = await tg.app.store.list_applications(uid)
    (moved,) = await tg.press(CHAT, f"cr:apps:mv:{app.id}:screen:0")
    assert "moved to Screen" in moved.text
    assert "moved to Technical round 2" in (await tg.say(CHAT, "/apps 1 二面"))[0].text
    (ask_note,) = await tg.press(CHAT, f"cr:apps:note:{app.id}")
    assert "Your note on ByteDance?" in ask_note.text
    assert "Note saved on ByteDance (1 of 50)" in (await tg.say(CHAT, "asked about FSDP sharding"))[0].text
    assert "remind you to follow up on ByteDance in 7 days" in (await tg.say(CHAT, "/apps 1 remind 7"))[0].text
    sent = await tg.say(CHAT, "/apps")
    photo = next(s for s in sent if s.method == "sendPhoto")
    text = "\n".join(s.text for s in sent)
    assert "Technical (1)" in text and "#1 ByteDance · LLM infra · Technical round 2" in text
    assert any(f"cr:apps:show:{app.id}" in s.actions for s in sent) and photo is not None
    (opened,) = await tg.press(CHAT, f"cr:apps:show:{app.id}")
    assert "asked about FSDP sharding" in opened.text and "Follow-up reminder" in opened.text
    assert all(len(a.encode()) <= 64 for a in opened.actions)
