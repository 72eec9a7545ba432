"""A voice file that understates its length (issue #34, High 5): WebM/Matroska Opus in 60 ms frames whose blocks
claim 1 ms each. The container's account measured 600 s of speech as 10 s, so it was accepted and decoded whole.

The length is now the codec's (each Opus packet's TOC byte), the container's timestamps are checked against it
(a file within the limit whose timestamps disagree is refused with its own reply), decoding stops a second past the
limit, and a local transcription runs in a worker process that is stopped at the deadline: no transcription goes
on after its reply."""

from __future__ import annotations

import io
import tracemalloc
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import openai
import pytest

from bot.features.deps import Deps
from bot.kernel import commands as c
from bot.kernel.i18n import t, tn
from bot.kernel.models import Lang
from bot.kernel.ports import AudioTimingMismatch, AudioTooLong, TranscriberUnavailable, TranscriptionError
from bot.speech.audio import measure, opus_packet_samples, probe_seconds
from bot.speech.local_backend import LocalTranscriber, decode
from bot.speech.openai_backend import OpenAITranscriber
from bot.workers import ProcessPool
from tests.fake_openai import FakeOpenAI
from tests.fakes import FakeStore
from tests.fixtures.make_audio import ANSWER_EN_KEYWORDS
from tests.integration.speech.conftest import AUDIO, user_with_open_question, voice_service

RATE = 48_000
FRAME_MS = 60


def opus_payloads(seconds: float, frame_ms: int = FRAME_MS) -> tuple[list[bytes], bytes]:
    """A 440 Hz tone encoded by libopus in `frame_ms` packets, and the stream's header (extradata)."""
    samples = int(seconds * RATE)
    pcm = (np.sin(2 * np.pi * 440 * np.arange(samples) / RATE) * 8000).astype(np.int16).reshape(1, -1)
    codec = av.CodecContext.create("libopus", "w")
    assert isinstance(codec, av.AudioCodecContext)
    codec.sample_rate, codec.layout, codec.format = RATE, "mono", "s16"
    codec.time_base = Fraction(1, RATE)
    codec.options = {"frame_duration": str(frame_ms)}
    codec.open()
    size = RATE * frame_ms // 1000
    out: list[bytes] = []
    for start in range(0, samples - size + 1, size):
        frame = av.AudioFrame.from_ndarray(
            np.ascontiguousarray(pcm[:, start : start + size]), format="s16", layout="mono"
        )
        frame.sample_rate, frame.pts = RATE, start
        out += [bytes(p) for p in codec.encode(frame)]
    out += [bytes(p) for p in codec.encode(None)]
    assert codec.extradata is not None
    return out, bytes(codec.extradata)


def webm(payloads: list[bytes], header: bytes, claim_ms: int) -> bytes:
    """The packets muxed into WebM with block timestamps `claim_ms` apart (and that duration each)."""
    out = io.BytesIO()
    with av.open(out, mode="w", format="webm") as container:
        stream = container.add_stream("libopus", rate=RATE, layout="mono")
        assert isinstance(stream, av.AudioStream)
        stream.codec_context.extradata = header
        for i, payload in enumerate(payloads):
            packet = av.Packet(payload)
            packet.stream, packet.time_base = stream, Fraction(1, 1000)
            packet.pts = packet.dts = i * claim_ms
            packet.duration = claim_ms
            container.mux(packet)
    return out.getvalue()


@pytest.fixture(scope="module")
def tone() -> tuple[list[bytes], bytes]:
    return opus_payloads(20.0)  # 334 packets of 60 ms (the last one flushed by the encoder)


@pytest.fixture(scope="module")
def short_liar(tone: tuple[list[bytes], bytes]) -> bytes:
    """20 s of audio whose blocks claim 1 ms each: 0.33 s by the container."""
    return webm(*tone, claim_ms=1)


@pytest.fixture(scope="module")
def long_liar(tone: tuple[list[bytes], bytes]) -> bytes:
    """600 s of audio (10,000 packets of 60 ms: the tone's packets over and over) claiming 10 s."""
    payloads, header = tone
    return webm([payloads[i % 300 + 10] for i in range(10_000)], header, claim_ms=1)


def container_seconds(data: bytes) -> float:
    """What the probe measured before: the container's packet durations summed."""
    with av.open(io.BytesIO(data), format="matroska") as container:
        stream = container.streams.audio[0]
        assert stream.time_base is not None
        return float(sum(p.duration or 0 for p in container.demux(stream) if p.size) * stream.time_base)


def test_the_toc_byte_gives_each_packets_length() -> None:
    assert opus_packet_samples(bytes([31 << 3])) == 960  # CELT 20 ms, one frame
    assert opus_packet_samples(bytes([(31 << 3) | 3, 3])) == 2880  # three frames of 20 ms: 60 ms
    assert opus_packet_samples(bytes([(16 << 3) | 1])) == 240  # two frames of 2.5 ms
    assert opus_packet_samples(bytes([(3 << 3) | 2])) == 5760  # SILK two frames of 60 ms: 120 ms
    assert opus_packet_samples(bytes([(3 << 3) | 3, 3])) == 0  # 180 ms: the decoder rejects it
    assert opus_packet_samples(bytes([(31 << 3) | 3])) == 0  # code 3 without its frame count
    assert opus_packet_samples(b"") == 0


def test_the_container_understates_the_file(short_liar: bytes, long_liar: bytes) -> None:
    """What the audit found: by the container's account 20 s is 0.33 s and 600 s is 10 s."""
    assert container_seconds(short_liar) == pytest.approx(0.333, abs=0.01)
    assert container_seconds(long_liar) == pytest.approx(10.0, abs=0.01)
    assert len(decode(short_liar)) == pytest.approx(20 * 16_000, abs=1_000)  # while the decoder makes 20 s


def test_the_codec_measures_the_frames_and_the_timestamps_are_checked(short_liar: bytes, long_liar: bytes) -> None:
    found = measure(short_liar)
    assert found.seconds == pytest.approx(20.04, abs=0.01)
    assert found.container_seconds == pytest.approx(0.333, abs=0.01)
    assert not found.agrees()
    with pytest.raises(AudioTimingMismatch, match=r"says 0\.3 s, the codec.s frames 20\.0 s"):
        probe_seconds(short_liar, stop_after=300)
    # past the limit it is too long, whatever its timestamps say; counting stops at the first packet past 300 s
    assert 300 < probe_seconds(long_liar, stop_after=300) <= 300.06


def test_an_honest_webm_is_measured_as_it_was(tone: tuple[list[bytes], bytes]) -> None:
    honest = webm(*tone, claim_ms=FRAME_MS)
    assert probe_seconds(honest, stop_after=300) == pytest.approx(20.04, abs=0.01)
    assert container_seconds(honest) == pytest.approx(20.04, abs=0.01)


def test_the_committed_voice_notes_agree_with_their_frames() -> None:
    for name in ("answer_en.ogg", "answer_long_en.ogg", "silence.ogg"):
        found = measure((AUDIO / name).read_bytes())
        assert found.agrees() and found.container_seconds is not None, name
        assert abs(found.seconds - found.container_seconds) < 0.1, (name, found)


def openai_transcriber(server: FakeOpenAI, max_seconds: float) -> OpenAITranscriber:
    client = openai.AsyncOpenAI(base_url=server.base_url, api_key="k", timeout=5.0, max_retries=0)
    return OpenAITranscriber(client, max_seconds=max_seconds)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_file_whose_timestamps_disagree_is_refused_with_a_clear_reply(
    deps: Deps, store: FakeStore, openai_server: FakeOpenAI, short_liar: bytes, lang: Lang
) -> None:
    service = voice_service(deps, openai_transcriber(openai_server, deps.limits.max_audio_seconds))
    uid = await user_with_open_question(service, lang=lang)
    replies = await service.handle(c.SubmitVoice(uid, short_liar, "voice.webm"))
    assert [(r.kind, r.text) for r in replies] == [("error", t(lang, "voice_timing"))]
    assert ("timing" if lang == "en" else "时间信息") in replies[0].text
    assert openai_server.requests == [] and store.attempts == {}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_ten_minutes_claiming_ten_seconds_is_refused_as_too_long(
    deps: Deps, openai_server: FakeOpenAI, long_liar: bytes, lang: Lang
) -> None:
    assert deps.limits.max_audio_seconds == 300
    service = voice_service(deps, openai_transcriber(openai_server, 300))
    uid = await user_with_open_question(service, lang=lang)
    replies = await service.handle(c.SubmitVoice(uid, long_liar, "voice.webm"))
    assert [(r.kind, r.text) for r in replies] == [
        ("error", t(lang, "voice_too_long", limit_seconds=tn(lang, "count.second", 300)))
    ]
    assert openai_server.requests == []


@pytest.fixture(scope="module")
def ten_minutes() -> bytes:
    """600 s of 60 ms Opus packets in an honest WebM (long, not lying: decoding alone must stop)."""
    payloads, header = opus_payloads(3.0)
    return webm([payloads[i % 40 + 5] for i in range(10_000)], header, claim_ms=FRAME_MS)


def peak_bytes(run: object) -> int:
    tracemalloc.start()
    try:
        run()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_decoding_stops_a_second_past_the_limit(ten_minutes: bytes) -> None:
    with pytest.raises(AudioTooLong, match="more than 11 s decoded"):
        decode(ten_minutes, max_seconds=10)

    def bounded() -> None:
        with pytest.raises(AudioTooLong):
            decode(ten_minutes, max_seconds=10)

    samples: list[int] = []
    whole = peak_bytes(lambda: samples.append(len(decode(ten_minutes, max_seconds=700))))
    assert samples == [pytest.approx(600 * 16_000, abs=2_000)]  # the control: with room, all 600 s decode
    assert whole > 50_000_000  # 600 s held as int16 chunks, then as float32
    assert peak_bytes(bounded) < 3_000_000  # 11 s at most: the memory taken is bounded by the limit


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_file_decoded_past_the_limit_gets_the_too_long_reply(
    deps: Deps, ten_minutes: bytes, lang: Lang
) -> None:
    """A transcriber whose measure was fooled (here: one that says 5 s) is stopped by the decoder all the same."""

    class Fooled(LocalTranscriber):
        async def measure(self, audio: bytes, filename: str) -> float:
            return 5.0

    model_calls: list[object] = []

    class Model:
        def transcribe(self, audio: object, **options: object) -> tuple[list[object], object]:
            model_calls.append(audio)
            raise AssertionError("never reached: decoding stops first")

    deps.limits = replace(deps.limits, max_audio_seconds=10)
    service = voice_service(deps, Fooled("fooled", loader=lambda *_: Model(), max_seconds=10))
    uid = await user_with_open_question(service, lang=lang)
    replies = await service.handle(c.SubmitVoice(uid, ten_minutes, "voice.webm"))
    assert [(r.kind, r.text) for r in replies] == [
        ("error", t(lang, "voice_too_long", limit_seconds=tn(lang, "count.second", 10)))
    ]
    assert model_calls == []


async def test_a_local_transcription_runs_in_a_worker_process_stopped_at_the_deadline(whisper_base: Path) -> None:
    """The model runs in a worker process; past the deadline that process is killed, and it has ended by the time
    the caller hears of it (its slot is free only then): nothing transcribes on after the reply."""
    pool = ProcessPool(size=1, timeout=120)
    try:
        transcriber = LocalTranscriber(str(whisper_base), pool=pool, deadline=120)
        heard = await transcriber.transcribe((AUDIO / "answer_en.ogg").read_bytes(), "voice.ogg", "en")
        assert all(word in heard.text.lower() for word in ANSWER_EN_KEYWORDS), heard.text  # the real model, there
        (worker,) = pool._workers
        assert worker.process.pid is not None and worker.process.is_alive()
        transcriber.deadline = 0.3  # 57 s of speech: far longer than that, the model already loaded
        with pytest.raises(TranscriberUnavailable):
            await transcriber.transcribe((AUDIO / "answer_long_en.ogg").read_bytes(), "voice.ogg", "en")
        assert not worker.process.is_alive() and worker.process.exitcode is not None  # ended before we returned
        assert pool._workers == set() and pool._started == 0  # the slot is free, for a new worker
    finally:
        await pool.close()


def test_measuring_stops_when_its_cpu_budget_is_spent(long_liar: bytes) -> None:
    """A file whose packets decode to nothing never reaches the limit: the budget ends the count instead (shown with
    a budget already spent; 256 packets are read before the first look at the clock)."""
    assert measure(long_liar, 300, budget=60).seconds > 300
    with pytest.raises(TranscriptionError, match="measuring took more than"):
        measure(long_liar, 300, budget=-1)
