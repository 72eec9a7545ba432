"""End to end: a real OGG/Opus voice note through python-telegram-bot (against the fake Bot API),
transcribed by the real local Whisper model, shown, graded, with speaking insights."""

from __future__ import annotations

from bot.speech.local_backend import LocalTranscriber, WhisperModelLike
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness

CHAT = 901


async def test_a_telegram_voice_note_is_transcribed_shown_and_graded(
    tg: Harness, whisper_model: WhisperModelLike, answer_en: bytes
) -> None:
    tg.app.service.deps.transcriber = LocalTranscriber("whisper-base", loader=lambda *_: whisper_model)
    await tg.say(CHAT, "/drill")
    file_id = tg.server.add_file(answer_en, "voice/file_9.oga")
    sent = await tg.deliver(updates.voice(CHAT, file_id, seconds=11, size=len(answer_en)), within=120)
    heard, graded = (s.text for s in sent if s.method == "sendMessage")
    assert heard.startswith("I heard:") and "checkpoint" in heard.lower()
    assert "Score:" in graded and "Speaking (11 s):" in graded and "words a minute" in graded
    (attempt,) = await tg.app.store.list_attempts(await tg.user_id(CHAT))
    assert attempt.transcript and "gradient" in attempt.transcript.lower()
    assert attempt.audio_seconds is not None and 10 < attempt.audio_seconds < 11.2


async def test_a_corrupt_telegram_voice_note_gets_a_clear_reply(tg: Harness, whisper_model: WhisperModelLike) -> None:
    tg.app.service.deps.transcriber = LocalTranscriber("whisper-base", loader=lambda *_: whisper_model)
    await tg.say(CHAT, "/drill")
    file_id = tg.server.add_file(b"OggS" + bytes(3000), "voice/file_10.oga")
    (reply,) = await tg.deliver(updates.voice(CHAT, file_id, seconds=4), within=120)
    assert reply.text.startswith("I could not read that audio file.")
