"""Audio probing with PyAV: is this audio, and how long is it, read before any transcription.

Only the container is demuxed (no decoding), so a 20 MB file is measured in milliseconds. Packet
durations come from the codec's own framing (for Opus, each packet's table of contents), which is
what the decoder will produce, so a file cannot claim to be short and decode to hours.
"""

from __future__ import annotations

import io
from pathlib import PurePath

import av

from bot.core.ports import TranscriptionError

# Extensions OpenAI's transcription endpoint accepts, and magic bytes to pick one when the name
# has none of them (Telegram names voice notes *.oga, Discord voice-message.ogg).
ACCEPTED_SUFFIXES = {".flac", ".m4a", ".mp3", ".mp4", ".mpeg", ".mpga", ".oga", ".ogg", ".wav", ".webm"}
MAGIC = [
    (b"OggS", ".ogg"),
    (b"RIFF", ".wav"),
    (b"fLaC", ".flac"),
    (b"ID3", ".mp3"),
    (b"\xff\xfb", ".mp3"),
    (b"\xff\xf3", ".mp3"),
    (b"\x1a\x45\xdf\xa3", ".webm"),
]


# MAX_AUDIO_SECONDS is at most an hour: past that, counting on is wasted work on a file that is refused.
STOP_AFTER_SECONDS = 3601.0


def probe_seconds(data: bytes, stop_after: float = STOP_AFTER_SECONDS) -> float:
    """Seconds of audio in the first audio stream (counting stops past `stop_after`);
    raises TranscriptionError if `data` is not audio."""
    if not data:
        raise TranscriptionError("empty file")
    try:
        with av.open(io.BytesIO(data), mode="r", metadata_errors="ignore") as container:
            if not container.streams.audio:
                raise TranscriptionError(f"no audio stream in a {container.format.name} file")
            stream = container.streams.audio[0]
            total, unknown = 0.0, False
            for packet in container.demux(stream):
                if packet.size == 0:
                    continue  # the flush packet at the end
                if packet.duration is None or packet.time_base is None:
                    unknown = True
                    break
                total += float(packet.duration * packet.time_base)
                if total > stop_after:
                    break
            if unknown:
                total = _container_seconds(container)
    except av.FFmpegError as exc:
        raise TranscriptionError(f"unreadable audio: {exc}") from exc
    return total


def _container_seconds(container: av.container.InputContainer) -> float:
    if container.duration is None:
        raise TranscriptionError("audio of unknown length")
    return container.duration / av.time_base


def upload_name(filename: str, data: bytes) -> str:
    """A file name whose extension the OpenAI-compatible endpoint accepts (it goes by the extension)."""
    path = PurePath(filename or "voice")
    suffix = path.suffix.lower()
    if suffix == ".oga":
        return path.with_suffix(".ogg").name
    if suffix in ACCEPTED_SUFFIXES:
        return path.name
    for magic, ext in MAGIC:
        if data.startswith(magic):
            return path.with_suffix(ext).name
    if data[4:8] == b"ftyp":
        return path.with_suffix(".m4a").name
    return path.with_suffix(".ogg").name
