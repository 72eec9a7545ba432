"""Audio probing with PyAV: is this audio, and how long is it, read before any transcription.

The length is the codec's, never the container's: a container's timestamps are whatever the file says
(a WebM whose blocks claim 1 ms each while every Opus packet holds 60 ms measured 600 s of speech as
10 s), while the decoder produces what the codec frames hold. For Opus, the length of each packet is
read from its table-of-contents byte (RFC 6716, section 3.1: the frame size and the frame count), so
nothing is decoded (the pre-skip a decoder drops, a few ms, is counted: the count errs long, never
short); every other codec is decoded and its samples counted. Counting stops just past the
caller's limit: past it the file is refused anyway, and a file of 2.5 ms packets holds 400 of them a
second.

The container's own account (the span of its timestamps) is read beside it over the same packets: when
the two disagree by more than `TIMING_SLACK` the file misstates its length, and it is refused
(AudioTimingMismatch) rather than handed to a transcriber or a service that may believe the container.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import PurePath

import av

from bot.kernel.ports import AudioTimingMismatch, TranscriptionError
from bot.speech.containers import open_audio, sniff

# MAX_AUDIO_SECONDS is at most an hour: the bound for a caller that has no limit of its own.
STOP_AFTER_SECONDS = 3601.0
OPUS_RATE = 48_000  # Opus counts in 48 kHz samples whatever the input rate
# (seconds, share): the container may differ from the codec by up to 1 s plus 10 % (encoder delay, padding,
# a recorder's rounding); beyond it, the file's timestamps do not describe its audio
TIMING_SLACK = (1.0, 0.10)
# Opus frame sizes in 48 kHz samples by TOC configuration (RFC 6716, table 2): SILK 10/20/40/60 ms (0-11),
# hybrid 10/20 ms (12-15), CELT 2.5/5/10/20 ms (16-31)
_OPUS_FRAME = (
    *(480, 960, 1920, 2880) * 3,
    *(480, 960) * 2,
    *(120, 240, 480, 960) * 4,
)
_OPUS_MAX_PACKET = 5760  # 120 ms: the longest packet a decoder accepts
# CPU seconds measuring may take (300 s of MP3, AAC or FLAC takes under 0.1 s): a file of packets that decode to
# nothing (so its count never reaches the limit) is refused when they are spent, read every `_CHECK_EVERY` packets
BUDGET_SECONDS = 2.0
_CHECK_EVERY = 256


def opus_packet_samples(packet: bytes) -> int:
    """48 kHz samples an Opus packet decodes to, from its TOC byte; 0 for a packet the decoder rejects."""
    if not packet:
        return 0
    toc = packet[0]
    frame = _OPUS_FRAME[toc >> 3]
    code = toc & 0x03
    if code == 0:
        frames = 1
    elif code in (1, 2):
        frames = 2
    elif len(packet) < 2:
        return 0
    else:
        frames = packet[1] & 0x3F
    samples = frames * frame
    return samples if 0 < samples <= _OPUS_MAX_PACKET else 0


@dataclass(frozen=True)
class Measure:
    seconds: float
    """The codec's length of the packets read (all of them, or up to the first one past the limit)."""
    container_seconds: float | None
    """The span of the container's timestamps over the same packets; None when it gives none."""

    def agrees(self) -> bool:
        if self.container_seconds is None:
            return True
        fixed, share = TIMING_SLACK
        return abs(self.container_seconds - self.seconds) <= fixed + share * self.seconds


def probe_seconds(data: bytes, stop_after: float = STOP_AFTER_SECONDS) -> float:
    """Seconds of audio in the first audio stream by its codec (counting stops at the first packet past
    `stop_after`). Raises AudioTimingMismatch when the container's timestamps disagree with that (on a file
    within `stop_after`: a longer one is refused as too long), TranscriptionError if `data` is not audio in
    an accepted container."""
    found = measure(data, stop_after)
    if found.seconds <= stop_after and not found.agrees():
        raise AudioTimingMismatch(
            f"the container says {found.container_seconds:.1f} s, the codec's frames {found.seconds:.1f} s"
        )
    return found.seconds


def measure(data: bytes, stop_after: float = STOP_AFTER_SECONDS, budget: float = BUDGET_SECONDS) -> Measure:
    """The codec's and the container's length of the first audio stream, read until `stop_after` is passed;
    TranscriptionError past `budget` CPU seconds of this thread."""
    if not data:
        raise TranscriptionError("empty file")
    try:
        with open_audio(data) as container:
            if not container.streams.audio:
                raise TranscriptionError(f"no audio stream in a {container.format.name} file")
            return _measure(container, container.streams.audio[0], stop_after, time.thread_time() + budget)
    except av.FFmpegError as exc:
        raise TranscriptionError(f"unreadable audio: {exc}") from exc


class _Span:
    """The container's timestamps over the packets read: first start to last end, or the durations summed."""

    def __init__(self, stream: av.AudioStream) -> None:
        self.time_base = stream.time_base
        self.first: int | None = None
        self.end: int | None = None
        self.summed = 0
        self.timed = True

    def add(self, packet: av.Packet[av.AudioStream]) -> None:
        duration = packet.duration or 0
        self.summed += duration
        if packet.pts is None:
            self.timed = False
            return
        self.first = packet.pts if self.first is None else min(self.first, packet.pts)
        self.end = packet.pts + duration if self.end is None else max(self.end, packet.pts + duration)

    def seconds(self) -> float | None:
        if self.time_base is None:
            return None
        if self.timed and self.first is not None and self.end is not None:
            return float((self.end - self.first) * self.time_base)
        return float(self.summed * self.time_base) if self.summed else None


def _spent(count: int, until: float) -> None:
    if count % _CHECK_EVERY == 0 and time.thread_time() > until:
        raise TranscriptionError(f"measuring took more than {BUDGET_SECONDS:g} s of CPU ({count} packets read)")


def _measure(
    container: av.container.InputContainer, stream: av.AudioStream, stop_after: float, until: float
) -> Measure:
    span = _Span(stream)
    if stream.codec_context.name == "opus":
        bound = math.floor(stop_after * OPUS_RATE)  # summed as integers: a Fraction per packet costs more
        samples = 0
        for count, packet in enumerate(container.demux(stream), 1):
            _spent(count, until)
            if packet.size == 0:
                continue  # the flush packet at the end
            span.add(packet)
            samples += opus_packet_samples(bytes(packet))
            if samples > bound:
                break
        return Measure(samples / OPUS_RATE, span.seconds())
    seconds = 0.0
    codec = stream.codec_context
    for count, packet in enumerate(container.demux(stream), 1):
        _spent(count, until)
        if packet.size:
            span.add(packet)
        try:
            frames = codec.decode(packet if packet.size else None)
        except av.InvalidDataError:
            continue  # the decoder skips it, and so does the count
        seconds += sum(frame.samples / frame.sample_rate for frame in frames if frame.sample_rate)
        if seconds > stop_after:
            break
    return Measure(seconds, span.seconds())


def upload_name(filename: str, data: bytes) -> str:
    """A file name whose extension the OpenAI-compatible endpoint accepts (it goes by the extension):
    the extension of the container the bytes are, whatever the platform called the file
    (Telegram names voice notes *.oga, Discord voice-message.ogg)."""
    kind = sniff(data)
    return f"{PurePath(filename).stem or 'voice'}{kind.extension if kind else '.ogg'}"
