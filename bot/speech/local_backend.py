"""Transcription on this machine with faster-whisper (CTranslate2, CPU, int8).

In the bot (`serve`), each transcription runs in a worker process of a pool the composition root owns
(bot/workers.py, task "transcribe" in bot/worker_tasks.py; `max_concurrent` processes, each loading the
model once, on first use): past the deadline the process is killed, and its slot is held until it has
ended, so no transcription runs on after its reply, and the event loop never waits on one. Without a
pool (the command line, the benchmark, tests with a stand-in model) it runs in a thread
(asyncio.to_thread) behind a semaphore of `max_concurrent` slots; a thread cannot be stopped.
faster-whisper's segments are a lazy generator: the decoding happens while they are read, so they are
read inside the worker too.

The audio is decoded here, from a container opened by bot.speech.containers, and faster-whisper gets
the samples: given bytes, it would call av.open itself and let FFmpeg guess the format (an ffconcat
"voice note" then reads a file from the bot's own disk). Decoding stops one second past the limit
(`max_seconds`): the file was measured within it by its codec frames (bot/speech/audio.py), so more is
a file that lied, refused (AudioTooLong) with the memory it took bounded.
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
from bot.kernel.ports import AudioTooLong, TranscriberUnavailable, Transcription, TranscriptionError
from bot.speech.audio import STOP_AFTER_SECONDS, probe_seconds
from bot.speech.containers import open_audio
from bot.speech.hints import hint_for

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000  # what Whisper listens at
FIFO_SAMPLES = 500_000  # frames are resampled in batches of this many samples (one call per frame costs more)
DECODE_MARGIN = 1.0  # seconds decoded past the limit before the file is refused


class TaskPool(Protocol):
    """The worker pool of bot/workers.py, as this module uses it: a named task (bot/worker_tasks.py) under a
    deadline; past it the worker is stopped, and any failure of the worker raises."""

    async def run(self, name: str, *args: Any, timeout: float | None = None) -> Any: ...


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
        pool: TaskPool | None = None,
        deadline: float = 120.0,
    ) -> None:
        self.model_ref = model
        self.id = f"local:{Path(model).name or model}"
        self.beam_size = beam_size
        self.cpu_threads = cpu_threads
        self.max_concurrent = max_concurrent
        self.max_seconds = max_seconds  # MAX_AUDIO_SECONDS: measuring stops just past it, decoding a second later
        self.pool = pool  # worker processes (`max_concurrent` of them); None: threads in this process
        self.deadline = deadline  # a transcription in a worker process is stopped past it
        self._loader = loader
        self._model: WhisperModelLike | None = None
        self._load_lock = asyncio.Lock()
        self._slots = asyncio.Semaphore(max_concurrent)

    async def model(self) -> WhisperModelLike:
        """The model in this process (thread mode), loaded on first use."""
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
        if self.pool is not None:
            return await self._in_worker(self.pool, audio, lang)
        model = await self.model()
        async with self._slots:
            return await asyncio.to_thread(self._run, model, audio, lang)

    async def _in_worker(self, pool: TaskPool, audio: bytes, lang: Lang) -> Transcription:
        """In a worker process, stopped past the deadline (its slot is free only once it has ended)."""
        threads = self.cpu_threads or max(1, (os.cpu_count() or 1) // self.max_concurrent)
        try:
            outcome = await pool.run(
                "transcribe", self.model_ref, threads, self.beam_size, audio, lang, self.max_seconds,
                timeout=self.deadline,
            )  # fmt: skip
        except Exception as exc:  # past the deadline (the worker was stopped), or the worker died
            log.warning("transcription in a worker failed: %s", type(exc).__name__)
            raise TranscriberUnavailable(type(exc).__name__) from None
        return from_outcome(outcome)

    def _run(self, model: WhisperModelLike, audio: bytes, lang: Lang) -> Transcription:
        return run_model(model, audio, lang, self.beam_size, self.max_seconds)


def run_model(model: WhisperModelLike, audio: bytes, lang: Lang, beam_size: int, max_seconds: float) -> Transcription:
    """Decode (at most a second past `max_seconds`) and transcribe, in the thread or process that calls it."""
    samples = decode(audio, max_seconds)
    try:
        segments, info = model.transcribe(
            samples,
            language=lang,
            beam_size=beam_size,
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


# A worker process's result crosses the process boundary as plain values: ("ok", text, duration) or
# (the error's kind, its message), turned back into the result or the exception here.
_ERRORS: dict[str, type[TranscriptionError]] = {
    "too_long": AudioTooLong,
    "unreadable": TranscriptionError,
    "unavailable": TranscriberUnavailable,
}


def to_outcome(run: Callable[[], Transcription]) -> tuple[Any, ...]:
    try:
        result = run()
    except AudioTooLong as exc:
        return ("too_long", str(exc))
    except TranscriberUnavailable as exc:
        return ("unavailable", str(exc))
    except TranscriptionError as exc:
        return ("unreadable", str(exc))
    return ("ok", result.text, result.duration)


def from_outcome(outcome: tuple[Any, ...]) -> Transcription:
    if outcome[0] == "ok":
        return Transcription(text=outcome[1], duration=outcome[2])
    raise _ERRORS.get(outcome[0], TranscriberUnavailable)(outcome[1])


def decode(audio: bytes, max_seconds: float = STOP_AFTER_SECONDS) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The first audio stream as 16 kHz mono float32 samples, made as faster-whisper's decode_audio makes
    them (frames gathered in a FIFO, s16 through FFmpeg's resampler, undecodable frames skipped),
    from an accepted container only. AudioTooLong once more than `max_seconds` plus a second is decoded."""
    resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    fifo = av.AudioFifo()
    chunks: list[np.ndarray[Any, Any]] = []
    most = max_seconds + DECODE_MARGIN
    decoded = 0.0

    def resample(frame: av.AudioFrame | None) -> None:
        chunks.extend(out.to_ndarray() for out in resampler.resample(frame))

    try:
        with open_audio(audio) as container:
            if not container.streams.audio:
                raise TranscriptionError(f"no audio stream in a {container.format.name} file")
            for frame in _decodable(container.decode(container.streams.audio[0])):
                decoded += frame.samples / (frame.sample_rate or SAMPLE_RATE)
                if decoded > most:
                    raise AudioTooLong(f"more than {most:g} s decoded")
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
