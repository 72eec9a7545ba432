"""The `openai` backend, with the real `openai` client against the fake OpenAI-compatible server."""

from __future__ import annotations

import openai
import pytest

from bot.kernel.ports import TranscriberUnavailable, TranscriptionError
from bot.speech.openai_backend import OpenAITranscriber
from tests.fake_openai import FakeOpenAI, Fault


def transcriber_for(server: FakeOpenAI, model: str = "whisper-1") -> OpenAITranscriber:
    client = openai.AsyncOpenAI(base_url=server.base_url, api_key="test-key", timeout=5.0, max_retries=0)
    return OpenAITranscriber(client, model)


async def test_the_voice_note_is_sent_as_is_with_the_language_hint(openai_server: FakeOpenAI, answer_en: bytes) -> None:
    openai_server.transcripts["en"] = "I clip the gradient norm at one."
    t = transcriber_for(openai_server, "whisper-large-v3")
    result = await t.transcribe(answer_en, "file_7.oga", "en")
    assert result.text == "I clip the gradient norm at one."
    form = openai_server.requests[-1]
    assert (form["model"], form["language"], form["file"], form["response_format"]) == (
        "whisper-large-v3",
        "en",
        "file_7.ogg",
        "json",
    )
    assert "Umm" in form["prompt"]  # the hint keeps hesitations in the transcript
    assert openai_server.uploads == [answer_en]  # OGG/Opus, byte for byte
    assert t.id == "openai:whisper-large-v3"


async def test_the_chinese_hint_reaches_the_service(openai_server: FakeOpenAI, answer_en: bytes) -> None:
    openai_server.transcripts["zh"] = "嗯，我会先检查数据，再看梯度范数。"
    result = await transcriber_for(openai_server).transcribe(answer_en, "voice.ogg", "zh")
    assert result.text == "嗯，我会先检查数据，再看梯度范数。"
    form = openai_server.requests[-1]
    assert form["language"] == "zh" and "梯度" in form["prompt"]


async def test_measure_reads_the_file_locally(openai_server: FakeOpenAI, answer_en: bytes) -> None:
    assert await transcriber_for(openai_server).measure(answer_en, "voice.ogg") == pytest.approx(10.6, abs=0.3)
    assert openai_server.requests == []


async def test_a_file_the_service_rejects_is_unreadable(openai_server: FakeOpenAI) -> None:
    with pytest.raises(TranscriptionError) as err:
        await transcriber_for(openai_server).transcribe(b"", "voice.ogg", "en")  # the fake answers 400
    assert not isinstance(err.value, TranscriberUnavailable)


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_service_errors_mean_the_transcriber_is_unavailable(
    openai_server: FakeOpenAI, answer_en: bytes, status: int
) -> None:
    openai_server.script.append(Fault("status", status=status))
    with pytest.raises(TranscriberUnavailable):
        await transcriber_for(openai_server).transcribe(answer_en, "voice.ogg", "en")


async def test_an_unreachable_service_is_unavailable(answer_en: bytes) -> None:
    server = FakeOpenAI()
    await server.start()
    url = server.base_url
    await server.stop()  # nothing listens on that port any more
    client = openai.AsyncOpenAI(base_url=url, api_key="k", timeout=2.0, max_retries=0)
    with pytest.raises(TranscriberUnavailable):
        await OpenAITranscriber(client).transcribe(answer_en, "voice.ogg", "en")
