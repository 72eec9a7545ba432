"""The audio containers the bot reads, told apart by their first bytes and opened only as that format.

Left to guess, FFmpeg picks a demuxer from the content, and some demuxers open whatever the data names:
the 63-byte ffconcat playlist `ffconcat version 1.0\\nfile 'tests/fixtures/audio/answer_en.ogg'` made
the bot transcribe a file from its own working directory (hls, image2 and the subtitle demuxers read
other files or URLs too). So the bytes are sniffed into one of the accepted formats before anything
opens them, that demuxer is named to av.open (FFmpeg then cannot choose another one), and the opened
container's format is checked once more. Nothing here decodes: it only decides what may be opened.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import av
from av.container import InputContainer

from bot.kernel.ports import TranscriptionError


@dataclass(frozen=True)
class Container:
    demuxer: str
    """FFmpeg's demuxer, forced with av.open(format=...)."""
    extension: str
    """The extension an OpenAI-compatible endpoint recognises it by."""
    options: dict[str, str] = field(default_factory=dict)
    """Demuxer options: MP4's data references could point at other files (FFmpeg's default is off; kept off)."""


OGG = Container("ogg", ".ogg")  # Telegram voice notes, Discord voice messages (Opus)
MATROSKA = Container("matroska", ".webm")  # WebM from browsers and Android recorders, and MKA
MP3 = Container("mp3", ".mp3")
WAV = Container("wav", ".wav")
FLAC = Container("flac", ".flac")
MP4 = Container("mov", ".m4a", {"enable_drefs": "0", "use_absolute_path": "0"})  # M4A, MP4, MOV (iPhone memos)
ACCEPTED = (OGG, MATROSKA, MP3, WAV, FLAC, MP4)


def sniff(data: bytes) -> Container | None:
    """The accepted container `data` starts like, or None: anything else is never opened."""
    if data.startswith(b"OggS"):
        return OGG
    if data.startswith(b"\x1a\x45\xdf\xa3"):  # the EBML header of Matroska and WebM
        return MATROSKA
    if data.startswith(b"fLaC"):
        return FLAC
    if data.startswith(b"RIFF") and data[8:12] == b"WAVE":
        return WAV
    if data[4:8] == b"ftyp":  # an ISO base media file: its first box names the brand
        return MP4
    if data.startswith(b"ID3") or _mpeg_layer3_frame(data):
        return MP3
    return None


def _mpeg_layer3_frame(data: bytes) -> bool:
    """An MP3 without an ID3 tag starts with a frame header: 11 sync bits, a version that is not
    the reserved one, and layer III (ADTS AAC has the same sync bits but layer 0, and is not accepted)."""
    return (
        len(data) >= 2
        and data[0] == 0xFF
        and data[1] & 0xE0 == 0xE0
        and data[1] & 0x18 != 0x08
        and data[1] & 0x06 == 0x02
    )


def open_audio(data: bytes) -> InputContainer:
    """`data` opened as the accepted container its first bytes name; TranscriptionError for anything else.
    The caller closes it (it is a context manager)."""
    kind = sniff(data)
    if kind is None:
        raise TranscriptionError("not an accepted audio container (OGG, WebM/Matroska, MP3, WAV, FLAC, M4A/MP4)")
    try:
        container = av.open(
            io.BytesIO(data), mode="r", format=kind.demuxer, options=dict(kind.options), metadata_errors="ignore"
        )
    except av.FFmpegError as exc:
        raise TranscriptionError(f"unreadable {kind.demuxer} file: {exc}") from exc
    if container.format.name != kind.demuxer:
        container.close()
        raise TranscriptionError(f"opened as {container.format.name}, expected {kind.demuxer}")
    return container
