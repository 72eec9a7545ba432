"""`python -m bot transcribe FILE`: try a transcription backend on a file, as the bot would use it.

Prints the transcript and the speaking insights. Exit 0 on success, 2 for a bad file or setting,
1 when the transcriber itself failed (service down, model did not load).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from bot.config import Settings, SettingsError
from bot.features.drill.speaking import analyse, render_insights
from bot.kernel.models import Lang
from bot.kernel.ports import Transcriber, TranscriberUnavailable, Transcription, TranscriptionError
from bot.speech.factory import build_transcriber
from bot.speech.local_backend import LocalTranscriber
from bot.speech.settings import SpeechSettingsError


def _fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


async def _transcribe(
    transcriber: Transcriber, data: bytes, name: str, lang: Lang
) -> tuple[Transcription, float, float]:
    seconds = await transcriber.measure(data, name)
    if isinstance(transcriber, LocalTranscriber):
        await transcriber.model()  # load first, so the timing below is the transcription alone
    start = time.perf_counter()
    result = await transcriber.transcribe(data, name, lang)
    return result, seconds, time.perf_counter() - start


def run_transcribe(
    settings: Settings, file: str, lang: Lang = "en", backend: str | None = None, model: str | None = None
) -> int:
    path = Path(file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        return _fail(f"cannot read {file}: {exc.strerror}", 2)
    chosen = backend or settings.transcribe_backend
    # measured to the end (the bot stops just past MAX_AUDIO_SECONDS), so the note below can say by how much
    updates: dict[str, object] = {"transcribe_backend": chosen, "max_audio_seconds": 3600}
    if model:
        updates["whisper_model" if chosen == "local" else "transcribe_model"] = model
    try:
        transcriber = build_transcriber(settings.model_copy(update=updates).speech())
    except (SettingsError, SpeechSettingsError) as exc:
        return _fail(str(exc), 2)
    if transcriber is None:
        return _fail("no transcriber: set TRANSCRIBE_BACKEND=openai or local, or pass --backend", 2)
    try:
        result, seconds, elapsed = asyncio.run(_transcribe(transcriber, data, path.name, lang))
    except TranscriberUnavailable as exc:
        return _fail(f"{transcriber.id} failed: {exc}", 1)
    except TranscriptionError as exc:
        return _fail(f"{file} is not readable audio ({exc})", 2)
    rtf = elapsed / seconds if seconds > 0 else 0.0
    print(f"{transcriber.id}: {seconds:.1f} s of audio in {elapsed:.2f} s (real-time factor {rtf:.2f})")
    if seconds > settings.max_audio_seconds:
        print(f"note: longer than MAX_AUDIO_SECONDS={settings.max_audio_seconds}; the bot would refuse it")
    print(result.text or "(no speech heard)")
    insights = analyse(result.text, result.duration or seconds)
    if insights is not None:
        print(render_insights(insights, lang))
    return 0
