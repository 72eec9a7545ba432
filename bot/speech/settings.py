"""The transcribers' settings, built from the bot's settings by bot/config.py (`Settings.speech`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, SecretStr


class SpeechSettingsError(Exception):
    """A voice setting that cannot work (a backend without its key, a model folder that is not there)."""


class SpeechSettings(BaseModel):
    backend: Literal["openai", "local", "none"] = "none"
    whisper_model: str = "base"
    """The local backend's faster-whisper model: a name it downloads or a model folder."""
    model: str = "whisper-1"
    """The OpenAI-compatible audio API's model."""
    base_url: str | None = None
    api_key: SecretStr | None = None
    timeout: float = 60.0
    retries: int = 2
    max_concurrent: int = 1
    max_seconds: int = 300
