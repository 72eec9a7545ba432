"""/debrief on Telegram through the fake Bot API: a .txt of interview notes sent after /debrief is downloaded,
split, listed with inline buttons, and logged with Log all; a long paste in two messages is one text."""

from __future__ import annotations

import itertools
import time
from typing import Any

from tests.platforms.telegram.conftest import Harness
from tests.platforms.telegram.updates import chat, user

CHAT = 4242
NOTES = """Acme, round 2
1. How does ZeRO stage 3 partition optimizer states, gradients and parameters across ranks?
I said every rank keeps a shard of all three and gathers the parameters per layer.
2. Your training loss suddenly becomes NaN. How do you debug it?
3. Why did you leave your last job?
"""
_ids = itertools.count(90_000)


def document(chat_id: int, file_id: str, name: str, size: int) -> dict[str, Any]:
    message = {
        "message_id": next(_ids), "date": int(time.time()), "chat": chat(chat_id), "from": user(chat_id),
        "document": {"file_id": file_id, "file_unique_id": file_id, "file_name": name, "mime_type": "text/plain",
                     "file_size": size},
    }  # fmt: skip
    return {"message": message}


async def test_a_notes_file_after_debrief_is_listed_with_buttons_and_logged(tg: Harness) -> None:
    (ask,) = await tg.say(CHAT, "/debrief Acme")
    assert ask.text.startswith("Paste your notes or the transcript of your Acme interview")
    file_id = tg.server.add_file(NOTES.encode(), "documents/notes.txt")
    (listing,) = await tg.deliver(document(CHAT, file_id, "notes.txt", len(NOTES.encode())))
    assert listing.text.startswith("Acme: I found 3 questions in your notes. Check the list:")
    assert "2. Your training loss suddenly becomes NaN. How do you debug it?" in listing.text
    assert listing.actions == [
        "cr:debrief:drop:1", "cr:debrief:drop:2", "cr:debrief:drop:3", "cr:debrief:log", "cr:debrief:cancel"
    ]  # fmt: skip
    await tg.press(CHAT, "cr:debrief:drop:3")
    sent = await tg.press(CHAT, "cr:debrief:log")
    done = next(s for s in sent if s.text.startswith("Logged"))
    assert done.text.startswith("Logged 2 questions from Acme for review.")
    assert "1. 70/100 How does ZeRO stage 3 partition" in done.text  # the recalled answer, graded
    items = await tg.app.store.list_review_items(await tg.user_id(CHAT))
    assert [i.question_id for i in items] == ["pipe-zero-001", "stab-nan-debug-001"]


async def test_an_oversized_file_is_refused_before_it_is_downloaded(tg: Harness) -> None:
    await tg.say(CHAT, "/debrief Acme")
    file_id = tg.server.add_file(b"x", "documents/big.txt")
    (reply,) = await tg.deliver(document(CHAT, file_id, "big.txt", 5_000_000))
    assert reply.text.startswith("That file is 5.0 MB; I take files up to 2 MB.")


async def test_a_paste_split_in_two_messages_by_telegram_becomes_one_list(tg: Harness) -> None:
    await tg.say(CHAT, "/debrief Acme")
    head, tail = NOTES.split("3. Why did you")
    (first,) = await tg.say(CHAT, head)
    assert first.text.startswith("Acme: I found 2 questions")
    added, second = await tg.say(CHAT, "3. Why did you" + tail)
    assert added.text == "I added your message to the notes and split them again."
    assert second.text.startswith("Acme: I found 3 questions")
