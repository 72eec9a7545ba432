"""Build the configured transcriber (TRANSCRIBE_BACKEND = openai | local | none)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from bot.config import Settings, SettingsError
from bot.kernel.ports import Transcriber


def build_transcriber(settings: Settings, pool: Any = None, deadline: float = 120.0) -> Transcriber | None:
    """None for `none`: the core then asks for a typed answer. Misconfiguration stops start-up with the name.
    `pool`: worker processes (bot/workers.py) for the local backend's transcriptions, each stopped past
    `deadline`; without one, they run in threads of this process."""
    backend = settings.transcribe_backend
    if backend == "none":
        return None
    if backend == "openai":
        base_url = settings.transcribe_base_url or settings.llm.base_url
        key = settings.transcribe_api_key or settings.llm.api_key
        if not (base_url or key):
            raise SettingsError(
                "TRANSCRIBE_BACKEND: 'openai' needs TRANSCRIBE_BASE_URL or an API key "
                "(TRANSCRIBE_API_KEY, or the LLM's LLM_BASE_URL / LLM_API_KEY / OPENAI_API_KEY)"
            )
        import openai  # here: the SDK takes a second to import, and most bots transcribe nothing

        from bot.speech.openai_backend import OpenAITranscriber

        client = openai.AsyncOpenAI(
            base_url=base_url or None,
            api_key=key.get_secret_value() if key else "not-needed",
            timeout=settings.transcribe_timeout,
            max_retries=settings.llm.retries,
        )
        return OpenAITranscriber(client, settings.transcribe_model, max_seconds=settings.max_audio_seconds)
    from bot.speech.local_backend import LocalTranscriber

    model = settings.whisper_model
    if _looks_like_path(model) and not Path(model).expanduser().is_dir():
        raise SettingsError(f"WHISPER_MODEL: '{model}' is not a folder with a faster-whisper model")
    if importlib.util.find_spec("faster_whisper") is None:
        raise SettingsError("TRANSCRIBE_BACKEND: 'local' needs faster-whisper: pip install '.[voice]'")
    if _looks_like_path(model):
        model = str(Path(model).expanduser())
    return LocalTranscriber(
        model,
        max_concurrent=settings.transcribe_max_concurrent,
        max_seconds=settings.max_audio_seconds,
        pool=pool,
        deadline=deadline,
    )


def _looks_like_path(model: str) -> bool:
    """'base', 'large-v3' or 'Systran/faster-whisper-small' are names faster-whisper downloads;
    '/models/base', './base' or '~/base' (or any folder that exists) is a model folder."""
    return model.startswith(("/", "~", ".")) or Path(model).is_dir()
