"""All settings in one pydantic-settings object, read from the environment and `.env`: the bot's own, and each
adapter's model (Telegram, Discord, the LLM grader) composed from the part that owns it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.grading.settings import LLMSettings
from bot.kernel.timeutil import zone
from bot.platforms.discord.settings import DiscordSettings
from bot.platforms.telegram.settings import TelegramSettings
from bot.speech.settings import SpeechSettings

DATA_DIR = Path("data")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", env_nested_delimiter="__", extra="ignore"
    )

    database_url: str = f"sqlite+aiosqlite:///{DATA_DIR / 'bot.db'}"
    default_language: Literal["zh", "en"] = "en"
    default_timezone: str = "UTC"
    new_per_day: int = Field(default=5, ge=0, le=50)
    max_answer_chars: int = Field(default=6000, ge=100, le=100_000)
    content_dir: Path | None = None
    cache_dir: Path | None = None
    """The bank's derived data between runs (bot/content/cache.py); default $XDG_CACHE_HOME or ~/.cache, /drill-bot."""
    workers: int = Field(default=0, ge=0, le=64)
    """CPU worker processes for the offline grade and /review's matching (bot/workers.py); 0: one per core but one,
    at least one."""
    worker_mode: Literal["auto", "process", "thread"] = "auto"
    """auto: processes when serving Telegram or Discord, a thread for the terminal chat (one user: it needs no
    parallel grading, and starts faster)."""
    worker_timeout_seconds: float = Field(default=20.0, gt=0, le=600)
    """A worker task still running after this long is stopped (its answer is kept and graded again later)."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_library_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] | None = None
    """The libraries' loggers (telegram, discord, httpx, sqlalchemy ...); default: LOG_LEVEL but at least INFO."""
    scheduler_enabled: bool = True
    scheduler_tick_seconds: float = Field(default=30.0, ge=1, le=600)
    scheduler_stale_seconds: float = Field(default=300.0, ge=1)
    """A claimed push not marked sent after this long (a crash) is taken over and sent."""
    update_stale_seconds: float = Field(default=180.0, ge=1)
    """A redelivered webhook update claimed this long ago and never finished (its replica died) is taken over:
    longer than any command (a transcription, an LLM grading with its retries)."""
    grading_stuck_seconds: float = Field(default=150.0, ge=1)
    """An answer still being graded after this long was left by a process that stopped: it is graded again (the
    drill) or queued for a regrade (a mock interview). Longer than any grading (the LLM's deadline is 90 s), and
    shorter than UPDATE_STALE_SECONDS: a replica that takes over a stale update finds its answer already stuck,
    so it grades it then instead of answering "being graded" and letting the user's next message go first."""
    skip_push_if_practised: bool = True
    telegram: TelegramSettings = Field(default_factory=TelegramSettings)
    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    # Flat aliases that people expect (TELEGRAM_TOKEN, DISCORD_TOKEN, LLM_MODEL, OPENAI_API_KEY ...)
    telegram_token: SecretStr | None = None
    telegram_base_url: str | None = None
    telegram_base_file_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_port: int | None = None
    telegram_webhook_secret: SecretStr | None = None
    discord_token: SecretStr | None = None
    discord_guild_id: int | None = None
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    openai_api_key: SecretStr | None = None
    llm_model: str | None = None
    # Voice answers. The openai backend uses the LLM's base URL and key unless its own are set.
    transcribe_backend: Literal["openai", "local", "none"] = "none"
    whisper_model: str = "base"
    transcribe_model: str = "whisper-1"
    transcribe_base_url: str | None = None
    transcribe_api_key: SecretStr | None = None
    transcribe_timeout: float = Field(default=60.0, gt=0)
    transcribe_max_concurrent: int = Field(default=1, ge=1, le=16)
    max_audio_seconds: int = Field(default=300, ge=1, le=3600)
    max_audio_mb: int = Field(default=20, ge=1, le=2000)
    transcribe_daily_seconds: int = Field(default=1800, ge=0, le=10_000_000)
    """Seconds of voice answers transcribed per account over the last 24 hours (0: no limit)..."""
    transcribe_daily_seconds_total: int = Field(default=36_000, ge=0, le=1_000_000_000)
    """...and over all users per UTC day (0: no budget). Past either a voice answer is not transcribed."""
    max_reviews_per_day: int = Field(default=50, ge=1, le=100_000)
    """/review entries one user may log a local day..."""
    max_reviews: int = Field(default=2000, ge=1, le=1_000_000)
    """...and in all (each may carry a 6,000-character answer: this bounds a user's /export)."""
    max_interviews_per_day: int = Field(default=20, ge=1, le=100_000)
    """/interview logs one user may add a local day..."""
    max_interviews: int = Field(default=500, ge=1, le=1_000_000)
    """...and in all."""
    rate_per_minute: int = Field(default=30, ge=0, le=10_000)
    """Messages (texts, buttons, voice notes) one user may send a minute on Telegram or Discord; 0: no limit."""
    rate_burst: int = Field(default=12, ge=1, le=10_000)
    """...and at once, before the per-minute rate applies."""

    @field_validator("default_timezone")
    @classmethod
    def _tz(cls, v: str) -> str:
        if zone(v) is None:
            raise ValueError(f"'{v}' is not an IANA timezone (e.g. Asia/Shanghai)")
        return v

    @field_validator("database_url")
    @classmethod
    def _db(cls, v: str) -> str:
        if not v.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
            raise ValueError("must start with sqlite+aiosqlite:// or postgresql+asyncpg://")
        return v

    def model_post_init(self, _context: object) -> None:
        tg, dc, llm = self.telegram, self.discord, self.llm
        if self.telegram_token and not tg.token:
            tg.token = self.telegram_token
        for name in ("base_url", "base_file_url", "webhook_url", "webhook_port", "webhook_secret"):
            flat = getattr(self, f"telegram_{name}")
            if flat is not None and name not in tg.model_fields_set:
                setattr(tg, name, flat)
        if "base_file_url" not in tg.model_fields_set and tg.base_url.endswith("/bot"):
            tg.base_file_url = tg.base_url.removesuffix("bot") + "file/bot"  # a self-hosted Bot API server
        if self.discord_token and not dc.token:
            dc.token = self.discord_token
        if self.discord_guild_id and not dc.guild_id:
            dc.guild_id = self.discord_guild_id
        llm.base_url = llm.base_url or self.llm_base_url
        llm.api_key = llm.api_key or self.llm_api_key or self.openai_api_key
        llm.model = llm.model or self.llm_model

    def speech(self) -> SpeechSettings:
        """The transcribers' settings (TRANSCRIBE_*, WHISPER_MODEL, MAX_AUDIO_SECONDS); the audio API falls back
        on the LLM's server and key."""
        return SpeechSettings(
            backend=self.transcribe_backend,
            whisper_model=self.whisper_model,
            model=self.transcribe_model,
            base_url=self.transcribe_base_url or self.llm.base_url,
            api_key=self.transcribe_api_key or self.llm.api_key,
            timeout=self.transcribe_timeout,
            retries=self.llm.retries,
            max_concurrent=self.transcribe_max_concurrent,
            max_seconds=self.max_audio_seconds,
        )


class SettingsError(Exception):
    """Invalid configuration, with a message that names each bad setting."""


def load_settings() -> Settings:
    """Settings from the environment and the dotenv file `ENV_FILE` names (default `.env`; empty: none)."""
    env_file = os.environ.get("ENV_FILE", ".env") or None
    try:
        return Settings(_env_file=env_file)
    except ValidationError as err:
        lines = []
        for e in err.errors():
            name = "_".join(str(p) for p in e["loc"]).upper()
            lines.append(f"{name}: {e['msg']}")
        raise SettingsError("invalid settings:\n  " + "\n  ".join(lines)) from None
