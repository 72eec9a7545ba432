"""A voice answer through the service: limits before any work, the transcript shown, then the grade
with speaking insights; every kind of bad audio gets a clear reply in the user's language."""

from __future__ import annotations

import openai
import pytest

from bot.features.deps import Deps, Limits
from bot.kernel import commands as c
from bot.kernel.ports import TranscriberUnavailable
from bot.speech.local_backend import LocalTranscriber, WhisperModelLike
from bot.speech.openai_backend import OpenAITranscriber
from tests.fake_openai import FakeOpenAI, Fault
from tests.fakes import FakeStore, FakeTranscriber
from tests.fixtures.make_audio import encode_ogg_opus, silence
from tests.integration.speech.conftest import user_with_open_question, voice_service


def openai_transcriber(server: FakeOpenAI) -> OpenAITranscriber:
    client = openai.AsyncOpenAI(base_url=server.base_url, api_key="k", timeout=5.0, max_retries=0)
    return OpenAITranscriber(client)


async def test_local_voice_note_is_shown_then_graded_with_insights(
    deps: Deps, store: FakeStore, whisper_model: WhisperModelLike, answer_en: bytes
) -> None:
    local = LocalTranscriber("whisper-base", loader=lambda *_: whisper_model)
    service = voice_service(deps, local)
    uid = await user_with_open_question(service)
    replies = await service.handle(c.SubmitVoice(uid, answer_en, "voice.ogg", duration=11))
    assert [r.kind for r in replies] == ["transcript", "grade"]
    assert replies[0].text.startswith("I heard:") and "checkpoint" in replies[0].text
    grade = replies[1].text
    assert "Score:" in grade and "Speaking (11 s):" in grade and "words a minute" in grade
    attempt = next(iter(store.attempts.values()))
    assert attempt.transcript is not None and "checkpoint" in attempt.transcript
    assert attempt.answer == attempt.transcript and attempt.audio_ref == "voice.ogg"
    assert attempt.audio_seconds == pytest.approx(10.6, abs=0.3)  # measured, not the platform's rounded 11


async def test_openai_voice_note_in_chinese(
    deps: Deps, store: FakeStore, openai_server: FakeOpenAI, answer_en: bytes
) -> None:
    openai_server.transcripts["zh"] = "嗯，那个，我会先检查数据，嗯，然后就是，看梯度范数，嗯，再把学习率调低。"
    service = voice_service(deps, openai_transcriber(openai_server))
    uid = await user_with_open_question(service, lang="zh")
    replies = await service.handle(c.SubmitVoice(uid, answer_en, "file_3.oga"))
    assert [r.kind for r in replies] == ["transcript", "grade"]
    assert replies[0].text.startswith("识别结果") and "梯度范数" in replies[0].text
    assert "口语表现" in replies[1].text and "“嗯”×3" in replies[1].text and "建议" in replies[1].text
    assert openai_server.requests[-1]["language"] == "zh"
    assert next(iter(store.attempts.values())).audio_seconds == pytest.approx(10.6, abs=0.3)


@pytest.mark.parametrize(
    ("audio", "reply"),
    [
        (b"", "That voice message is empty."),
        (b"OggS" + bytes(range(256)) * 40, "I could not read that audio file."),
        (b"%PDF-1.7\n" + b"0" * 4000, "I could not read that audio file."),
    ],
    ids=["zero-length", "corrupt-ogg", "not-audio"],
)
async def test_bad_audio_gets_a_clear_reply_and_no_work(
    deps: Deps, openai_server: FakeOpenAI, audio: bytes, reply: str
) -> None:
    service = voice_service(deps, openai_transcriber(openai_server))
    uid = await user_with_open_question(service)
    replies = await service.handle(c.SubmitVoice(uid, audio, "voice.ogg"))
    assert len(replies) == 1 and replies[0].kind == "error" and replies[0].text.startswith(reply)
    assert openai_server.requests == []
    again = await service.handle_text(uid, "I would check the data first.")  # the question is still open
    assert again[0].kind == "grade"


async def test_a_recording_over_the_duration_limit_is_refused_before_upload(
    deps: Deps, openai_server: FakeOpenAI
) -> None:
    service = voice_service(deps, openai_transcriber(openai_server))
    uid = await user_with_open_question(service)
    long = encode_ogg_opus(silence(301.0), 16_000)  # small (silence compresses) but 5 minutes and 1 second
    replies = await service.handle(c.SubmitVoice(uid, long, "voice.ogg"))
    assert replies[0].text.startswith("That recording is longer than the limit of 300 seconds.")
    assert openai_server.requests == []


async def test_the_platforms_duration_and_the_size_are_checked_first(deps: Deps) -> None:
    fake = FakeTranscriber()
    service = voice_service(deps, fake)
    uid = await user_with_open_question(service, lang="zh")
    too_long = await service.handle(c.SubmitVoice(uid, b"OggS....", "voice.ogg", duration=900))
    assert "超过了 300 秒的上限" in too_long[0].text
    big = b"\0" * (deps.limits.max_audio_bytes + 1)
    too_big = await service.handle(c.SubmitVoice(uid, big, "voice.ogg", duration=30))
    assert "上限是 20 MB" in too_big[0].text
    assert fake.calls == []  # the transcriber was not even asked to measure


async def test_service_failures_and_silence(deps: Deps, openai_server: FakeOpenAI, answer_en: bytes) -> None:
    service = voice_service(deps, openai_transcriber(openai_server))
    uid = await user_with_open_question(service)
    openai_server.script.append(Fault("status", status=500))
    down = await service.handle(c.SubmitVoice(uid, answer_en, "voice.ogg"))
    assert down[0].text.startswith("Speech recognition is not working right now")
    openai_server.transcripts["en"] = "   "
    silent = await service.handle(c.SubmitVoice(uid, answer_en, "voice.ogg"))
    assert silent[0].text.startswith("I could not hear any words")


async def test_local_silence_is_not_graded(
    deps: Deps, store: FakeStore, whisper_model: WhisperModelLike, silence_ogg: bytes
) -> None:
    service = voice_service(deps, LocalTranscriber("whisper-base", loader=lambda *_: whisper_model))
    uid = await user_with_open_question(service)
    replies = await service.handle(c.SubmitVoice(uid, silence_ogg, "voice.ogg"))
    assert replies[0].text.startswith("I could not hear any words") and store.attempts == {}


async def test_without_a_transcriber_the_user_is_asked_to_type(deps: Deps) -> None:
    service = voice_service(deps, None)
    uid = await user_with_open_question(service, lang="zh")
    replies = await service.handle(c.SubmitVoice(uid, b"OggS", "voice.ogg"))
    assert replies[0].text == "本机器人暂未开启语音作答，请用文字回答。"


async def test_no_open_question_means_no_work(deps: Deps) -> None:
    fake = FakeTranscriber()
    service = voice_service(deps, fake)
    user = await service.user_for("test", "idle", "en")
    replies = await service.handle(c.SubmitVoice(user.id, b"OggS", "voice.ogg"))
    assert "/drill" in replies[0].text and fake.calls == []


async def test_a_follow_up_can_be_answered_by_voice(deps: Deps, store: FakeStore) -> None:
    fake = FakeTranscriber("I would clip at 1.0, chosen from the gradient-norm history of a good run.", seconds=8)
    service = voice_service(deps, fake)
    uid = await user_with_open_question(service)
    first = await service.handle(c.SubmitVoice(uid, b"OggS", "voice.ogg"))
    attempt_id = max(store.attempts)
    await service.handle_action(uid, f"fu:{attempt_id}")
    second = await service.handle(c.SubmitVoice(uid, b"OggS", "voice.ogg"))
    assert [r.kind for r in first] == [r.kind for r in second] == ["transcript", "grade"]
    assert store.attempts[max(store.attempts)].is_follow_up
    assert "pace: 105 words a minute" in second[1].text  # 14 words in 8 seconds


async def test_a_transcriber_error_names_nothing_internal(deps: Deps) -> None:
    fake = FakeTranscriber()
    fake.fail = TranscriberUnavailable("ConnectionRefusedError at 10.0.0.5:443")
    service = voice_service(deps, fake)
    uid = await user_with_open_question(service)
    replies = await service.handle(c.SubmitVoice(uid, b"OggS", "voice.ogg"))
    assert "10.0.0.5" not in replies[0].text and replies[0].kind == "error"


def test_limits_default_to_five_minutes_and_twenty_megabytes() -> None:
    assert (Limits().max_audio_seconds, Limits().max_audio_bytes) == (300, 20_000_000)


async def test_a_transcript_passes_the_same_edge_rules_as_typed_text(deps: Deps, store: FakeStore) -> None:
    fake = FakeTranscriber("I check the data\x00 first,\x1b[2J then the gradient norm.\ud800")
    service = voice_service(deps, fake)
    uid = await user_with_open_question(service)
    replies = await service.handle(c.SubmitVoice(uid, b"OggS", "voice.ogg"))
    attempt = next(iter(store.attempts.values()))
    assert attempt.transcript == attempt.answer == "I check the data first,[2J then the gradient norm."
    assert "\x00" not in replies[0].text and "\x1b" not in replies[0].text


async def test_a_transcript_of_control_characters_only_is_silence(deps: Deps, store: FakeStore) -> None:
    service = voice_service(deps, FakeTranscriber("\x00\x07 \x1b"))
    uid = await user_with_open_question(service)
    replies = await service.handle(c.SubmitVoice(uid, b"OggS", "voice.ogg"))
    assert replies[0].text.startswith("I could not hear any words") and store.attempts == {}
