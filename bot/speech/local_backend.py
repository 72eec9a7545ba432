"""Transcription on this machine with faster-whisper (CTranslate2, CPU, int8).

The model runs in a worker thread (asyncio.to_thread) so the event loop keeps serving other users,
behind a semaphore so at most `max_concurrent` transcriptions share the CPU at once; the rest wait
their turn. The model is loaded on first use, once. faster-whisper's segments are a lazy generator:
the decoding happens while they are read, so they are read inside the worker thread too.

The audio is decoded here, from a container opened by bot.speech.containers, and faster-whisper gets
the samples: given bytes, it would call av.open itself and let FFmpeg guess the format (an ffconcat
"voice note" then reads a file from the bot's own disk).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

import av
import numpy as np

from bot.kernel.models import Lang
from bot.kernel.ports import TranscriberUnavailable, Transcription, TranscriptionError
from bot.speech.audio import STOP_AFTER_SECONDS, probe_seconds
from bot.speech.containers import open_audio
from bot.speech.hints import hint_for

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000  # what Whisper listens at
FIFO_SAMPLES = 500_000  # frames are resampled in batches of this many samples (one call per frame costs more)


class WhisperModelLike(Protocol):
    """What we use of faster_whisper.WhisperModel (tests substitute a gated stand-in)."""

    def transcribe(self, audio: Any, **options: Any) -> tuple[Iterable[Any], Any]: ...


def load_whisper(model: str, cpu_threads: int = 0, workers: int = 1) -> WhisperModelLike:
    """faster-whisper on the CPU in int8; `model` is a folder, or a name that faster-whisper downloads.
    `workers` lets that many transcriptions run in parallel, each on `cpu_threads` threads."""
    try:
        from faster_whisper import WhisperModel  # type: ignore[import-untyped]
    except ImportError as exc:  # the `voice` extra is not installed
        raise TranscriberUnavailable("faster-whisper is not installed: pip install '.[voice]'") from exc
    threads = cpu_threads or max(1, (os.cpu_count() or 1) // workers)
    return WhisperModel(  # type: ignore[no-any-return]
        model, device="cpu", compute_type="int8", cpu_threads=threads, num_workers=workers
    )


class LocalTranscriber:
    def __init__(
        self,
        model: str,
        max_concurrent: int = 1,
        cpu_threads: int = 0,
        beam_size: int = 5,
        loader: Callable[[str, int, int], WhisperModelLike] = load_whisper,
        max_seconds: float = STOP_AFTER_SECONDS,
    ) -> None:
        self.model_ref = model
        self.id = f"local:{Path(model).name or model}"
        self.beam_size = beam_size
        self.cpu_threads = cpu_threads
        self.max_concurrent = max_concurrent
        self.max_seconds = max_seconds  # MAX_AUDIO_SECONDS: measuring stops just past it
        self._loader = loader
        self._model: WhisperModelLike | None = None
        self._load_lock = asyncio.Lock()
        self._slots = asyncio.Semaphore(max_concurrent)

    async def model(self) -> WhisperModelLike:
        async with self._load_lock:
            if self._model is None:
                log.info("loading Whisper model %s", self.model_ref)
                try:
                    self._model = await asyncio.to_thread(
                        self._loader, self.model_ref, self.cpu_threads, self.max_concurrent
                    )
                except TranscriptionError:
                    raise
                except Exception as exc:  # a missing folder, a failed download, a broken model.bin
                    log.exception("could not load Whisper model %s", self.model_ref)
                    raise TranscriberUnavailable(f"model {self.model_ref!r} did not load") from exc
            return self._model

    async def measure(self, audio: bytes, filename: str) -> float:
        return await asyncio.to_thread(probe_seconds, audio, self.max_seconds)

    async def transcribe(self, audio: bytes, filename: str, lang: Lang) -> Transcription:
        model = await self.model()
        async with self._slots:
            return await asyncio.to_thread(self._run, model, audio, lang)

    def _run(self, model: WhisperModelLike, audio: bytes, lang: Lang) -> Transcription:
        samples = decode(audio)
        try:
            segments, info = model.transcribe(
                samples,
                language=lang,
                beam_size=self.beam_size,
                vad_filter=True,  # skips silence: faster, and no words invented in the pauses
                initial_prompt=hint_for(lang),
            )
            text = "".join(segment.text for segment in segments).strip()
        except (av.FFmpegError, ValueError, IndexError) as exc:
            raise TranscriptionError(f"undecodable audio: {exc}") from exc
        except Exception as exc:
            log.exception("local transcription failed")
            raise TranscriberUnavailable(type(exc).__name__) from exc
        return Transcription(text=text, duration=float(info.duration))


def decode(audio: bytes) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The first audio stream as 16 kHz mono float32 samples, made as faster-whisper's decode_audio makes
    them (frames gathered in a FIFO, s16 through FFmpeg's resampler, undecodable frames skipped),
    from an accepted container only."""
    resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    fifo = av.AudioFifo()
    chunks: list[np.ndarray[Any, Any]] = []

    def resample(frame: av.AudioFrame | None) -> None:
        chunks.extend(out.to_ndarray() for out in resampler.resample(frame))

    try:
        with open_audio(audio) as container:
            if not container.streams.audio:
                raise TranscriptionError(f"no audio stream in a {container.format.name} file")
            for frame in _decodable(container.decode(container.streams.audio[0])):
                frame.pts = None  # the FIFO would check timestamps that a damaged file gets wrong
                fifo.write(frame)
                if fifo.samples >= FIFO_SAMPLES:
                    resample(fifo.read())
        if fifo.samples:
            resample(fifo.read())
        resample(None)  # flush
    except (av.FFmpegError, ValueError) as exc:
        raise TranscriptionError(f"undecodable audio: {exc}") from exc
    pcm = np.concatenate(chunks, axis=None) if chunks else np.zeros(0, dtype=np.int16)
    return pcm.astype(np.float32) / 32768.0


def _decodable(frames: Iterator[av.AudioFrame]) -> Iterator[av.AudioFrame]:
    while True:
        try:
            yield next(frames)
        except StopIteration:
            return
        except av.InvalidDataError:
            continue
