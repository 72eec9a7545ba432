"""Hostile audio (issue #16, items 3 and 7): a playlist posing as a voice note is never opened as one,
and a file of tiny packets is counted only just past the configured limit, not to the hour."""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import openai
import pytest

from bot.config import Settings
from bot.features.deps import Deps
from bot.kernel import commands as c
from bot.kernel.i18n import t, tn
from bot.kernel.models import Lang
from bot.kernel.ports import Transcriber, TranscriberUnavailable, TranscriptionError
from bot.speech.audio import probe_seconds, upload_name
from bot.speech.containers import open_audio, sniff
from bot.speech.factory import build_transcriber
from bot.speech.local_backend import LocalTranscriber, WhisperModelLike, decode
from bot.speech.openai_backend import OpenAITranscriber
from tests.fake_openai import FakeOpenAI
from tests.fakes import FakeStore
from tests.integration.speech.conftest import user_with_open_question, voice_service

ROOT = Path(__file__).resolve().parents[3]
# The file from the audit, byte for byte: FFmpeg, left to guess, reads it with its concat demuxer,
# which opens the file it names (relative to the bot's working directory).
FFCONCAT = b"ffconcat version 1.0\nfile 'tests/fixtures/audio/answer_en.ogg'\n"


@pytest.fixture
def in_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # where the playlist's relative path leads to a real recording


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def openai_transcriber(server: FakeOpenAI) -> OpenAITranscriber:
    client = openai.AsyncOpenAI(base_url=server.base_url, api_key="k", timeout=5.0, max_retries=0)
    return OpenAITranscriber(client)


# --- item 3: only an allowlist of containers, each opened as itself ---


@pytest.mark.usefixtures("in_the_repository")
def test_left_to_guess_ffmpeg_reads_the_file_the_playlist_names() -> None:
    """What the fix guards against, shown with PyAV directly: the 63 bytes play a recording from disk."""
    assert len(FFCONCAT) == 63
    with av.open(io.BytesIO(FFCONCAT), mode="r") as container:
        assert container.format.name == "concat"
        assert sum(1 for p in container.demux(container.streams.audio[0]) if p.size) > 400  # 10.6 s of Opus


@pytest.mark.usefixtures("in_the_repository")
def test_the_probe_refuses_the_playlist() -> None:
    assert sniff(FFCONCAT) is None
    with pytest.raises(TranscriptionError, match="not an accepted audio container"):
        probe_seconds(FFCONCAT)


@pytest.mark.usefixtures("in_the_repository")
async def test_the_local_transcriber_refuses_the_playlist(whisper_model: WhisperModelLike) -> None:
    transcriber = LocalTranscriber("whisper-base", loader=lambda *_: whisper_model)
    with pytest.raises(TranscriptionError) as measured:
        await transcriber.measure(FFCONCAT, "voice.ogg")
    with pytest.raises(TranscriptionError) as transcribed:
        await transcriber.transcribe(FFCONCAT, "voice.ogg", "en")
    for raised in (measured, transcribed):  # "could not read that audio", not "the service is down"
        assert not isinstance(raised.value, TranscriberUnavailable)


@pytest.mark.usefixtures("in_the_repository")
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_playlist_sent_as_a_voice_note_gets_the_unreadable_reply(
    deps: Deps, store: FakeStore, whisper_model: WhisperModelLike, lang: Lang
) -> None:
    service = voice_service(deps, LocalTranscriber("whisper-base", loader=lambda *_: whisper_model))
    uid = await user_with_open_question(service, lang=lang)
    replies = await service.handle(c.SubmitVoice(uid, FFCONCAT, "voice.ogg"))
    assert [(r.kind, r.text) for r in replies] == [("error", t(lang, "voice_unreadable"))]
    assert store.attempts == {}
    assert "OGG" in replies[0].text and "MP3" in replies[0].text  # the reply names what is accepted
    again = await service.handle_text(uid, "I would check the data first.")  # the question is still open
    assert again[0].kind == "grade"


@pytest.mark.usefixtures("in_the_repository")
async def test_the_openai_backend_never_uploads_the_playlist(openai_server: FakeOpenAI) -> None:
    """The core measures first (which refuses it); a direct call is refused as well, before any upload:
    an OpenAI-compatible server that decodes with FFmpeg would read its own disk."""
    with pytest.raises(TranscriptionError):
        await openai_transcriber(openai_server).transcribe(FFCONCAT, "voice.ogg", "en")
    assert openai_server.requests == []


def tone(muxer: str, codec: str, rate: int, options: dict[str, str], seconds: float = 2.0) -> bytes:
    """A 440 Hz tone in `muxer`/`codec`, mono (`options` for the muxer)."""
    samples = np.arange(int(seconds * rate)) / rate
    pcm = (np.sin(2 * np.pi * 440 * samples) * 8000).astype(np.int16).reshape(1, -1)
    out = io.BytesIO()
    with av.open(out, mode="w", format=muxer, options=options) as container:
        stream = container.add_stream(codec, rate=rate, layout="mono")
        assert isinstance(stream, av.AudioStream)
        frame = av.AudioFrame.from_ndarray(pcm, format="s16", layout="mono")
        frame.sample_rate = rate
        resampler = av.AudioResampler(format=stream.codec_context.format.name, layout="mono", rate=rate)
        for chunk in [*resampler.resample(frame), *resampler.resample(None)]:
            for packet in stream.encode(chunk):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return out.getvalue()


ACCEPTED = {  # id: (muxer, codec, rate, muxer options, the demuxer it is opened with, the upload extension)
    "ogg-opus": ("ogg", "libopus", 48_000, {}, "ogg", ".ogg"),
    "webm-opus": ("webm", "libopus", 48_000, {}, "matroska", ".webm"),
    "mp3-id3": ("mp3", "libmp3lame", 16_000, {}, "mp3", ".mp3"),
    "mp3-bare": ("mp3", "libmp3lame", 16_000, {"id3v2_version": "0"}, "mp3", ".mp3"),
    "wav": ("wav", "pcm_s16le", 16_000, {}, "wav", ".wav"),
    "flac": ("flac", "flac", 16_000, {}, "flac", ".flac"),
    "m4a": ("ipod", "aac", 16_000, {}, "mov", ".m4a"),
    "mp4": ("mp4", "aac", 16_000, {}, "mov", ".m4a"),
    "mov": ("mov", "aac", 16_000, {}, "mov", ".m4a"),
}


@pytest.mark.parametrize("kind", ACCEPTED)
def test_every_accepted_container_is_measured_and_decoded(kind: str) -> None:
    muxer, codec, rate, options, demuxer, extension = ACCEPTED[kind]
    data = tone(muxer, codec, rate, options)
    assert kind != "mp3-bare" or not data.startswith(b"ID3")  # a frame header first
    found = sniff(data)
    assert found is not None and found.demuxer == demuxer
    with open_audio(data) as container:
        assert container.format.name == demuxer  # opened as that format: told, not guessed
    assert probe_seconds(data) == pytest.approx(2.0, abs=0.15)  # AAC's priming and padding frames decode too
    samples = decode(data)
    assert len(samples) == pytest.approx(32_000, abs=2_000)  # 2 s at 16 kHz
    assert 0.15 < float(np.abs(samples).max()) < 0.35  # the tone (8000 / 32768), not silence or noise
    assert upload_name("voice-message", data) == f"voice-message{extension}"


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xf1\x50\x80" + bytes(400),  # ADTS AAC: MPEG sync bits, but layer 0
        b"RIFF\x00\x00\x00\x00AVI LIST" + bytes(400),  # RIFF, but a video
        b"#EXTM3U\n#EXTINF:10.6,\ntests/fixtures/audio/answer_en.ogg\n",  # an HLS playlist
        b"1\n00:00:00,000 --> 00:00:10,000\nhello\n",  # SRT subtitles
    ],
    ids=["adts-aac", "riff-avi", "hls", "srt"],
)
def test_other_formats_are_not_opened(data: bytes) -> None:
    assert sniff(data) is None
    with pytest.raises(TranscriptionError, match="not an accepted audio container"):
        open_audio(data)


# --- item 7: measuring stops just past MAX_AUDIO_SECONDS ---

PACKET_TICKS = 120  # 2.5 ms at 48 kHz: Opus's shortest frame


def tiny_packet_ogg(packets: int) -> bytes:
    """OGG/Opus of `packets` packets of 2.5 ms (400 a second): one silent packet encoded, muxed again and again
    (encoding every packet would take the test seconds)."""
    out = io.BytesIO()
    with av.open(out, mode="w", format="ogg") as container:
        stream = container.add_stream("libopus", rate=48_000, layout="mono", options={"frame_duration": "2.5"})
        assert isinstance(stream, av.AudioStream)
        frame = av.AudioFrame.from_ndarray(np.zeros((1, PACKET_TICKS), dtype=np.int16), format="s16", layout="mono")
        frame.sample_rate = 48_000
        payload = bytes([*stream.encode(frame), *stream.encode(None)][0])
        for i in range(packets):
            packet = av.Packet(payload)
            packet.stream = stream
            packet.time_base = Fraction(1, 48_000)
            packet.pts = packet.dts = i * PACKET_TICKS
            packet.duration = PACKET_TICKS
            container.mux(packet)
    return out.getvalue()


PACKET = PACKET_TICKS / 48_000


@pytest.fixture(scope="module")
def four_minutes_of_tiny_packets() -> bytes:
    data = tiny_packet_ogg(96_000)
    assert probe_seconds(data) == pytest.approx(240.0)  # (counted to the end when no limit is given)
    return data


def test_the_probe_stops_at_the_first_packet_past_the_limit(four_minutes_of_tiny_packets: bytes) -> None:
    # the result is the sum of the durations of the packets read: 4,001 of the 96,000
    assert probe_seconds(four_minutes_of_tiny_packets, stop_after=10) == pytest.approx(10 + PACKET)
    assert probe_seconds(tiny_packet_ogg(4000), stop_after=10) == 10.0  # exactly at the limit: counted whole
    assert probe_seconds(tiny_packet_ogg(4001), stop_after=10) == pytest.approx(10 + PACKET)  # one packet over


@pytest.mark.parametrize("backend", ["openai", "local"])
async def test_the_configured_transcriber_stops_just_past_max_audio_seconds(
    backend: str, four_minutes_of_tiny_packets: bytes, openai_server: FakeOpenAI, whisper_base: Path
) -> None:
    """MAX_AUDIO_SECONDS reaches the probe: a 4-minute file of 2.5 ms packets is read for 10 s, not 240 s."""
    transcriber = build_transcriber(
        settings(
            transcribe_backend=backend,
            transcribe_base_url=openai_server.base_url,
            whisper_model=str(whisper_base),
            max_audio_seconds=10,
        ).speech()
    )
    assert transcriber is not None
    measured = await transcriber.measure(four_minutes_of_tiny_packets, "voice.ogg")
    assert 10 < measured <= 10 + PACKET + 1e-9


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_long_file_of_tiny_packets_is_refused_without_a_made_up_length(
    deps: Deps, openai_server: FakeOpenAI, four_minutes_of_tiny_packets: bytes, lang: Lang
) -> None:
    """Counting stopped at 10 s, so the reply cannot say how long the file is: it says it is over the limit."""
    deps.limits = replace(deps.limits, max_audio_seconds=10)
    transcriber: Transcriber | None = build_transcriber(
        settings(transcribe_backend="openai", transcribe_base_url=openai_server.base_url, max_audio_seconds=10).speech()
    )
    service = voice_service(deps, transcriber)
    uid = await user_with_open_question(service, lang=lang)
    replies = await service.handle(c.SubmitVoice(uid, four_minutes_of_tiny_packets, "voice.ogg"))
    assert [(r.kind, r.text) for r in replies] == [
        ("error", t(lang, "voice_too_long", limit_seconds=tn(lang, "count.second", 10)))
    ]
    assert "10" in replies[0].text and "240" not in replies[0].text
    assert openai_server.requests == []
