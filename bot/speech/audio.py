"""Audio probing with PyAV: is this audio, and how long is it, read before any transcription.

Only the container is demuxed (no decoding), so a 20 MB file is measured in milliseconds. Packet
durations come from the codec's own framing (for Opus, each packet's table of contents), which is
what the decoder will produce, so a file cannot claim to be short and decode to hours. Counting
stops just past the caller's limit: a file of 2.5 ms packets holds 400 of them a second, and every
packet read past the limit would be work spent on a file that is refused anyway.
"""

from __future__ import annotations

import math
from pathlib import PurePath

import av

from bot.kernel.ports import TranscriptionError
from bot.speech.containers import open_audio, sniff

# MAX_AUDIO_SECONDS is at most an hour: the bound for a caller that has no limit of its own.
STOP_AFTER_SECONDS = 3601.0


def probe_seconds(data: bytes, stop_after: float = STOP_AFTER_SECONDS) -> float:
    """Seconds of audio in the first audio stream (counting stops at the first packet past `stop_after`);
    raises TranscriptionError if `data` is not audio in an accepted container."""
    if not data:
        raise TranscriptionError("empty file")
    try:
        with open_audio(data) as container:
            if not container.streams.audio:
                raise TranscriptionError(f"no audio stream in a {container.format.name} file")
            seconds = _packet_seconds(container, container.streams.audio[0], stop_after)
            if seconds is None:
                seconds = _container_seconds(container)
    except av.FFmpegError as exc:
        raise TranscriptionError(f"unreadable audio: {exc}") from exc
    return seconds


def _packet_seconds(container: av.container.InputContainer, stream: av.AudioStream, stop_after: float) -> float | None:
    """The packets' durations summed until the sum passes `stop_after`, or None when a packet has none.
    Summed as integers in the stream's time base: a Fraction per packet would cost more than the demuxing."""
    time_base = stream.time_base
    if time_base is None:
        return None
    bound = math.floor(stop_after / time_base)  # in ticks: past it means past `stop_after` seconds
    ticks = 0
    for packet in container.demux(stream):
        if packet.size == 0:
            continue  # the flush packet at the end
        if packet.duration is None:
            return None
        ticks += packet.duration
        if ticks > bound:
            break
    return float(ticks * time_base)


def _container_seconds(container: av.container.InputContainer) -> float:
    if container.duration is None:
        raise TranscriptionError("audio of unknown length")
    return container.duration / av.time_base


def upload_name(filename: str, data: bytes) -> str:
    """A file name whose extension the OpenAI-compatible endpoint accepts (it goes by the extension):
    the extension of the container the bytes are, whatever the platform called the file
    (Telegram names voice notes *.oga, Discord voice-message.ogg)."""
    kind = sniff(data)
    return f"{PurePath(filename).stem or 'voice'}{kind.extension if kind else '.ogg'}"
