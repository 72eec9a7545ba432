"""The answer notebook in a Telegram private chat, through the real python-telegram-bot and the fake Bot API:
"Save to notebook" pressed under a grade (a callback query), /notes, a version spoken as a voice message, the
best version marked by its button, and the Markdown export sent as a document."""

from __future__ import annotations

from tests.fakes import FakeTranscriber
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness

CHAT = 612


async def test_save_a_grade_then_compare_and_export_in_a_private_chat(tg: Harness) -> None:
    await tg.say(CHAT, "/drill")
    (grade,) = await tg.say(CHAT, "First I check the data, then the gradient norm per layer.")
    save = next(a for a in grade.actions if a.startswith("cr:notes:save:"))
    assert ("Save to notebook", save) in [b for row in grade.buttons for b in row]
    saved = await tg.press(CHAT, save)
    assert any('Saved as version 1 of "Question pipe-q-000?" (70/100).' in s.text for s in saved)
    again = await tg.press(CHAT, save)  # pressed twice: still one version
    assert any("already version 1" in s.text for s in again)
    uid = await tg.user_id(CHAT)
    (note,) = await tg.app.service.deps.store.list_notes(uid)

    tg.app.service.deps.transcriber = FakeTranscriber(text="Spoken: the data first, then the gradients.", seconds=20)
    (ask,) = await tg.press(CHAT, f"cr:notes:write:{note.question_id}")
    assert "Write your new version" in ask.text
    file_id = tg.server.add_file(b"OggS fake opus", "voice/file_12.oga")
    spoken = await tg.deliver(updates.voice(CHAT, file_id, seconds=20))
    assert "Spoken: the data first" in spoken[0].text and any("Saved as version 2" in s.text for s in spoken)

    await tg.press(CHAT, f"cr:notes:best:{note.id}")
    (page,) = await tg.say(CHAT, "/notes 1")
    assert "v1 ★ · " in page.text and "v2 · " in page.text and "written by hand" in page.text
    assert page.actions[0] == f"cr:notes:open:{note.id}"
    sent = await tg.say(CHAT, "/notes export")
    (doc,) = [s for s in sent if s.method == "sendDocument"]
    assert doc.chat_id == CHAT
