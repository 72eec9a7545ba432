"""Transcribed seconds are budgeted (issue #34, Medium 2): what a transcription is billed for counts whether or not
it succeeds, and a transcript longer than the audio measured counts in full."""

from __future__ import annotations

from dataclasses import replace

from bot.features.deps import Deps
from bot.kernel import commands as c
from bot.kernel.ports import TranscriberUnavailable
from tests.fakes import FakeStore, FakeTranscriber
from tests.integration.speech.conftest import user_with_open_question, voice_service


async def test_a_failed_transcription_counts_and_a_longer_transcript_counts_in_full(
    deps: Deps, store: FakeStore
) -> None:
    deps.limits = replace(deps.limits, transcribe_daily_seconds=100, transcribe_daily_total=0)
    transcriber = FakeTranscriber(seconds=40)
    service = voice_service(deps, transcriber)
    uid = await user_with_open_question(service)
    transcriber.fail = TranscriberUnavailable("down")
    (down,) = await service.handle(c.SubmitVoice(uid, b"OggS audio", "a.ogg"))
    assert "not working right now" in down.text
    assert await store.transcribed_seconds_since(uid, deps.clock.now()) == 40  # billed all the same
    transcriber.fail = None

    async def longer(audio: bytes, filename: str) -> float:  # the container says 20 s; the backend hears 40
        return 20.0

    transcriber.measure = longer  # type: ignore[method-assign]
    replies = await service.handle(c.SubmitVoice(uid, b"OggS audio", "b.ogg"))
    assert replies[0].kind == "transcript"
    assert await store.transcribed_seconds_since(uid, deps.clock.now()) == 80
    await service.handle_text(uid, "/drill")
    fits = await service.handle(c.SubmitVoice(uid, b"OggS audio", "c.ogg"))  # 80 + 20 = 100: not past it
    assert fits[0].kind == "transcript"
    await service.handle_text(uid, "/drill")
    (refused,) = await service.handle(c.SubmitVoice(uid, b"OggS audio", "d.ogg"))
    assert "(0 seconds left)" in refused.text and refused.kind == "error"


async def test_zero_turns_the_budgets_off(deps: Deps, store: FakeStore) -> None:
    deps.limits = replace(deps.limits, transcribe_daily_seconds=0, transcribe_daily_total=0, default_new_per_day=20)
    service = voice_service(deps, FakeTranscriber(seconds=299))
    uid = await user_with_open_question(service)
    for _ in range(8):  # 40 minutes of voice in a day, past the defaults' 30
        await service.handle_text(uid, "/drill")
        replies = await service.handle(c.SubmitVoice(uid, b"OggS audio", "a.ogg"))
        assert replies[0].kind == "transcript"
