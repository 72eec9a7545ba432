"""Build the configured transcriber (TRANSCRIBE_BACKEND = openai | local | none)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from bot.kernel.ports import Transcriber
from bot.speech.settings import SpeechSettings, SpeechSettingsError


def build_transcriber(settings: SpeechSettings, pool: Any = None, deadline: float = 120.0) -> Transcriber | None:
    """None for `none`: the core then asks for a typed answer. Misconfiguration stops start-up with the name.
    `pool`: worker processes (bot/workers.py) for the local backend's transcriptions, each stopped past
    `deadline`; without one, they run in threads of this process."""
    backend = settings.backend
    if backend == "none":
        return None
    if backend == "openai":
        base_url, key = settings.base_url, settings.api_key
        if not (base_url or key):
            raise SpeechSettingsError(
                "TRANSCRIBE_BACKEND: 'openai' needs TRANSCRIBE_BASE_URL or an API key "
                "(TRANSCRIBE_API_KEY, or the LLM's LLM_BASE_URL / LLM_API_KEY / OPENAI_API_KEY)"
            )
        import openai  # here: the SDK takes a second to import, and most bots transcribe nothing

        from bot.speech.openai_backend import OpenAITranscriber

        client = openai.AsyncOpenAI(
            base_url=base_url or None,
            api_key=key.get_secret_value() if key else "not-needed",
            timeout=settings.timeout,
            max_retries=settings.retries,
        )
        return OpenAITranscriber(client, settings.model, max_seconds=settings.max_seconds)
    from bot.speech.local_backend import LocalTranscriber

    model = settings.whisper_model
    if _looks_like_path(model) and not Path(model).expanduser().is_dir():
        raise SpeechSettingsError(f"WHISPER_MODEL: '{model}' is not a folder with a faster-whisper model")
    if importlib.util.find_spec("faster_whisper") is None:
        raise SpeechSettingsError("TRANSCRIBE_BACKEND: 'local' needs faster-whisper: pip install '.[voice]'")
    if _looks_like_path(model):
        model = str(Path(model).expanduser())
    return LocalTranscriber(
        model,
        max_concurrent=settings.max_concurrent,
        max_seconds=settings.max_seconds,
        pool=pool,
        deadline=deadline,
    )


def _looks_like_path(model: str) -> bool:
    """'base', 'large-v3' or 'Systran/faster-whisper-small' are names faster-whisper downloads;
    '/models/base', './base' or '~/base' (or any folder that exists) is a model folder."""
    return model.startswith(("/", "~", ".")) or Path(model).is_dir()
