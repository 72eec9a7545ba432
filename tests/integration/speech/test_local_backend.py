"""The `local` backend: a real Whisper base model on the committed recordings, and a gated
stand-in model that shows the event loop stays free while a transcription runs."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.features.deps import Deps
from bot.kernel import commands as c
from bot.kernel.ports import TranscriberUnavailable, TranscriptionError
from bot.speech.local_backend import LocalTranscriber, WhisperModelLike
from tests.fixtures.make_audio import ANSWER_EN_KEYWORDS
from tests.integration.speech.conftest import user_with_open_question, voice_service

WAIT = 30.0  # a guard against hanging, never a pause: every wait below ends as soon as its event is set


def real(model: WhisperModelLike, **kwargs: Any) -> LocalTranscriber:
    return LocalTranscriber("whisper-base", loader=lambda *_: model, **kwargs)


async def test_the_base_model_hears_the_english_answer(whisper_model: WhisperModelLike, answer_en: bytes) -> None:
    result = await real(whisper_model).transcribe(answer_en, "voice.ogg", "en")
    text = result.text.lower()
    assert all(word in text for word in ANSWER_EN_KEYWORDS), result.text
    assert result.duration == pytest.approx(10.6, abs=0.3)


async def test_silence_gives_an_empty_transcript(whisper_model: WhisperModelLike, silence_ogg: bytes) -> None:
    result = await real(whisper_model).transcribe(silence_ogg, "voice.ogg", "en")
    assert result.text == ""


async def test_undecodable_bytes_are_a_transcription_error(whisper_model: WhisperModelLike) -> None:
    t = real(whisper_model)
    with pytest.raises(TranscriptionError):
        await t.measure(b"OggS" + bytes(5000), "voice.ogg")
    with pytest.raises(TranscriptionError):
        await t.transcribe(b"not audio at all" * 100, "voice.ogg", "en")


def test_the_id_names_the_model(whisper_base: Path) -> None:
    # (the whisper_model fixture loads this folder with the production loader: by path, CPU, int8)
    assert LocalTranscriber(str(whisper_base)).id == "local:whisper-base"
    assert LocalTranscriber("large-v3").id == "local:large-v3"


async def test_a_model_that_does_not_load_is_unavailable(tmp_path: Path, answer_en: bytes) -> None:
    t = LocalTranscriber(str(tmp_path))  # a folder without model.bin
    with pytest.raises(TranscriberUnavailable):
        await t.transcribe(answer_en, "voice.ogg", "en")


@dataclass
class Segment:
    text: str


@dataclass
class Info:
    duration: float


class GatedModel:
    """Blocks each transcription in its worker thread until the test opens the gate."""

    def __init__(self, text: str = " I clip the gradient norm at one.", parties: int = 1) -> None:
        self.text = text
        self.gate = threading.Event()
        self.entered = threading.Semaphore(0)
        self.barrier = threading.Barrier(parties, timeout=WAIT)
        self.lock = threading.Lock()
        self.active = self.peak = self.calls = 0
        self.options: dict[str, Any] = {}

    def transcribe(self, audio: Any, **options: Any) -> tuple[list[Segment], Info]:
        with self.lock:
            self.calls += 1
            self.active += 1
            self.peak = max(self.peak, self.active)
            self.options = options
        self.entered.release()
        self.barrier.wait()
        opened = self.gate.wait(WAIT)
        with self.lock:
            self.active -= 1
        assert opened, "the test never opened the gate"
        return [Segment(self.text)], Info(duration=10.6)


async def entered(model: GatedModel) -> None:
    assert await asyncio.to_thread(model.entered.acquire, True, WAIT)


async def test_the_event_loop_answers_others_during_a_transcription(deps: Deps, answer_en: bytes) -> None:
    model = GatedModel()
    service = voice_service(deps, LocalTranscriber("gated", loader=lambda *_: model))
    speaker = await user_with_open_question(service, "speaker")
    typist = await user_with_open_question(service, "typist")
    voice = asyncio.create_task(service.handle(c.SubmitVoice(speaker, answer_en, "voice.ogg")))
    await entered(model)  # the speaker's audio is inside the model, in a worker thread
    typed = await service.handle_text(typist, "I would check the data first, then the gradient norm.")
    assert typed[0].kind == "grade" and not voice.done()
    model.gate.set()
    spoken = await voice
    assert [r.kind for r in spoken] == ["transcript", "grade"]
    assert model.options["language"] == "en" and model.options["vad_filter"] is True


async def test_at_most_max_concurrent_transcriptions_run_at_once(answer_en: bytes) -> None:
    model = GatedModel()
    t = LocalTranscriber("gated", max_concurrent=1, loader=lambda *_: model)
    first = asyncio.create_task(t.transcribe(answer_en, "a.ogg", "en"))
    second = asyncio.create_task(t.transcribe(answer_en, "b.ogg", "zh"))
    await entered(model)
    for _ in range(20):
        await asyncio.sleep(0)  # give the second call every chance to start (it must wait its turn)
    assert model.calls == 1 and not second.done()
    model.gate.set()
    await asyncio.gather(first, second)
    assert (model.calls, model.peak) == (2, 1)


async def test_two_slots_let_two_transcriptions_overlap(answer_en: bytes) -> None:
    model = GatedModel(parties=2)  # each call waits at a barrier until the other one is in the model too
    t = LocalTranscriber("gated", max_concurrent=2, loader=lambda *_: model)
    calls = [asyncio.create_task(t.transcribe(answer_en, f"{i}.ogg", "en")) for i in range(2)]
    await entered(model)
    await entered(model)
    model.gate.set()
    await asyncio.gather(*calls)
    assert model.peak == 2


async def test_the_model_is_loaded_once(answer_en: bytes) -> None:
    model = GatedModel()
    model.gate.set()
    loads: list[tuple[str, int, int]] = []

    def loader(ref: str, threads: int, workers: int) -> GatedModel:
        loads.append((ref, threads, workers))
        return model

    t = LocalTranscriber("gated", max_concurrent=3, loader=loader)
    await asyncio.gather(*(t.transcribe(answer_en, "v.ogg", "en") for _ in range(3)))
    assert loads == [("gated", 0, 3)] and model.calls == 3  # 3 workers for 3 slots; threads: cores / workers
