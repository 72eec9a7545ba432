"""Probing: what is audio and how long it is, from the container alone, before any transcription."""

from __future__ import annotations

import io
import random

import av
import pytest

from bot.kernel.ports import TranscriptionError
from bot.speech.audio import probe_seconds, upload_name
from tests.fixtures.make_audio import encode_ogg_opus, silence

CORRUPT = random.Random(0).randbytes(20_000)


def test_the_fixture_is_a_telegram_style_voice_note(answer_en: bytes) -> None:
    with av.open(io.BytesIO(answer_en)) as container:
        stream = container.streams.audio[0]
        assert (container.format.name, stream.codec_context.name, stream.rate, stream.channels) == (
            "ogg",
            "opus",
            48_000,
            1,
        )
    assert probe_seconds(answer_en) == pytest.approx(10.6, abs=0.3)


def test_a_long_recording_is_measured_without_decoding() -> None:
    long = encode_ogg_opus(silence(301.0), 16_000)
    assert probe_seconds(long) == pytest.approx(301.0, abs=0.1)
    assert 60 < probe_seconds(long, stop_after=60) < 61  # a hostile hours-long file is not counted to the end


@pytest.mark.parametrize(
    "data",
    [
        b"",
        CORRUPT,
        b"OggS" + CORRUPT,  # an Ogg signature and then garbage
        "这不是音频，只是一段文字。\n".encode() * 100,
        b"\x89PNG\r\n\x1a\n" + CORRUPT,
    ],
    ids=["empty", "random", "fake-ogg", "text", "png"],
)
def test_what_is_not_audio_is_refused(data: bytes) -> None:
    with pytest.raises(TranscriptionError):
        probe_seconds(data)


def test_a_truncated_voice_note_is_measured_as_far_as_it_goes(answer_en: bytes) -> None:
    assert 0 < probe_seconds(answer_en[:4000]) < 5


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("voice.ogg", b"OggS", "voice.ogg"),
        ("file_12.oga", b"OggS", "file_12.ogg"),  # Telegram's name for voice notes
        ("voice-message", b"OggS", "voice-message.ogg"),
        ("clip.bin", b"RIFF....WAVE", "clip.wav"),
        ("memo", b"\x00\x00\x00\x20ftypM4A ", "memo.m4a"),
        ("", b"", "voice.ogg"),
    ],
)
def test_upload_names_use_an_extension_the_endpoint_accepts(name: str, data: bytes, expected: str) -> None:
    assert upload_name(name, data) == expected
