"""The tasks a worker process runs (bot/workers.py), by name. Each loads what it needs once per process: the shipped
bank (from its cache, bot/content/cache.py), the offline grader with its sentence encoder, /review's matcher, and
(in the transcription pool's processes only) the Whisper model.

Arguments and results cross the process boundary by pickling: questions and grades are pydantic models; /review's
candidates come back as (question id, similarity) and the caller maps the ids to its own bank.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.kernel.models import Grade, Lang, Level, Question


@cache
def _grader() -> Any:
    from bot.grading.offline import OfflineGrader
    from bot.shipped_bank import use_shipped_weights

    use_shipped_weights()  # the offline grader's term weights: the shipped bank's, as in the bot's own process
    return OfflineGrader()


@cache
def _bank() -> Any:
    from bot.config import load_settings
    from bot.shipped_bank import load_default_bank

    return load_default_bank(load_settings())


def grade(question: Question, answer: str, lang: Lang, level: Level) -> Grade:
    return _grader().grade_sync(question, answer, lang, level)  # type: ignore[no-any-return]


def candidates(text: str, limit: int) -> list[tuple[str, float]]:
    return [(q.id, score) for q, score in _bank().candidates(text, limit)]


@cache
def _whisper(model: str, cpu_threads: int) -> Any:
    from bot.speech.local_backend import load_whisper

    return load_whisper(model, cpu_threads, 1)


def transcribe(
    model: str, cpu_threads: int, beam_size: int, audio: bytes, lang: Lang, max_seconds: float
) -> tuple[Any, ...]:
    """A voice answer transcribed (bot/speech/local_backend.py): its outcome as plain values, errors included."""
    from bot.kernel.ports import TranscriberUnavailable
    from bot.speech.local_backend import run_model, to_outcome

    def run() -> Any:
        try:
            whisper = _whisper(model, cpu_threads)
        except Exception as exc:  # a missing folder, a failed download, a broken model.bin
            raise TranscriberUnavailable(f"model {model!r} did not load ({type(exc).__name__})") from exc
        return run_model(whisper, audio, lang, beam_size, max_seconds)

    return to_outcome(run)


def warm() -> None:
    """Load the grader's encoder and term weights and the matcher's prompts, so the first task does not wait."""
    grader = _grader()
    grader.weights  # noqa: B018 - loads the bank's term weights
    if grader.embedder is not None:
        grader.embedder.warm()
    matcher = _bank().matcher
    if matcher is not None and hasattr(matcher, "warm"):
        matcher.warm()


def document(data: bytes, filename: str, max_chars: int) -> tuple[bool, str]:
    """(True, the file's text) or (False, why there is none: DocumentError's reason), read in this worker so a
    file that costs minutes of CPU costs a worker the pool stops at its deadline (bot/documents.py)."""
    from bot.documents import read_document
    from bot.kernel.ports import DocumentError

    try:
        return True, read_document(data, filename, max_chars)
    except DocumentError as err:
        return False, err.reason


def echo(value: Any) -> tuple[int, Any]:
    """The worker's process id and the value (the pool's own tests)."""
    import os

    return os.getpid(), value


def hang() -> None:
    """A task that never ends (the pool's own tests: deadlines and cancellation reach the worker)."""
    import threading

    threading.Event().wait()


def fail(message: str) -> None:
    raise ValueError(message)


TASKS: dict[str, Any] = {
    "grade": grade, "candidates": candidates, "document": document, "warm": warm, "echo": echo, "hang": hang,
    "fail": fail, "transcribe": transcribe,
}  # fmt: skip
