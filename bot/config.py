"""All settings in one pydantic-settings object, read from the environment and `.env`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.kernel.timeutil import zone

DATA_DIR = Path("data")


class TelegramSettings(BaseModel):
    token: SecretStr | None = None
    base_url: str = "https://api.telegram.org/bot"
    base_file_url: str = "https://api.telegram.org/file/bot"
    webhook_url: str | None = None
    """Set it to receive updates by webhook (the public https URL Telegram posts to); polling otherwise."""
    webhook_port: int = Field(default=8443, ge=1, le=65535)
    webhook_listen: str = "127.0.0.1"
    webhook_path: str | None = None
    """Local path the webhook server listens on; default: the path of webhook_url."""
    webhook_secret: SecretStr | None = None
    """Default: derived from the token, the same on every replica."""
    webhook_max_connections: int = Field(default=40, ge=1, le=100)
    """Webhook requests Telegram keeps open at once (each is answered once its update was handled)."""
    concurrent_updates: int = Field(default=256, ge=1, le=100_000)
    """Updates processed at once (each chat's own updates stay in order)."""
    chat_queue: int = Field(default=32, ge=1, le=10_000)
    """Updates of one chat in flight at once; past it the chat's new updates are skipped, and the user told."""
    connection_pool_size: int | None = Field(default=None, ge=1)
    """HTTP connections for sending; default concurrent_updates + 16."""
    rate_limit: float = Field(default=30.0, ge=0)
    """Messages per second overall (Telegram allows about 30); 0 turns the limiter off."""
    max_retries: int = Field(default=3, ge=0, le=10)
    """Retries of a request answered with 429 (after Telegram's retry_after)."""
    typing_after: float = Field(default=0.5, ge=0)
    progress_after: float = Field(default=4.0, ge=0)
    """Seconds before 'typing' is shown, and before a progress message that becomes the reply."""
    drafts: bool = True
    """While an LLM grades, show it at once as a message draft (sendMessageDraft, Bot API 9.3, in the installed
    python-telegram-bot from 22.6); off, or where the library lacks it, a progress message edited into the result."""


class DiscordSettings(BaseModel):
    token: SecretStr | None = None
    guild_id: int | None = None
    sync_commands: bool = True  # sync the slash commands at start-up (to guild_id when set, else globally)
    shard_count: int | None = Field(default=None, ge=1, le=10_000)
    """Shards over all replicas (discord.py's AutoShardedClient); unset: one process, unsharded."""
    shard_ids: list[int] | None = None
    """This replica's shards, e.g. [0, 1] (DISCORD__SHARD_IDS='[0,1]'); default: all of shard_count."""

    @model_validator(mode="after")
    def _shards(self) -> DiscordSettings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("shard_ids needs shard_count (the number of shards over all replicas)")
            bad = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if bad or not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(
                    f"shard_ids must be distinct shard numbers from 0 to {self.shard_count - 1} "
                    f"(shard_count {self.shard_count}); got {self.shard_ids}"
                )
        return self


class LLMSettings(BaseModel):
    base_url: str | None = None
    api_key: SecretStr | None = None
    model: str | None = None
    timeout: float = Field(default=30.0, gt=0)
    """Per HTTP read; `deadline` bounds a whole grading (retries and repair included)."""
    retries: int = Field(default=2, ge=0, le=10)
    deadline: float = Field(default=90.0, gt=0)
    output_mode: Literal["auto", "json_schema", "json_object"] = "auto"
    provider: Literal["auto", "openai", "deepseek", "dashscope", "ollama", "vllm", "llamacpp"] = "auto"
    """How the provider takes structured output (bot/grading/providers.py); `auto` knows OpenAI, DeepSeek and
    DashScope by their hosts and otherwise learns from the first refusal."""
    daily_limit: int = Field(default=50, ge=0)
    """LLM calls per user per local day: gradings, rubrics for /review, second checks."""
    daily_token_budget: int = Field(default=0, ge=0)
    """Tokens per UTC day over all users (0: no budget); past it everyone gets the offline grade."""
    samples: int = Field(default=1, ge=1, le=5)
    send_reference: bool = True
    concurrency: int = Field(default=16, ge=1, le=256)
    """Gradings in flight at once (1 for a local CPU server with one slot)."""


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
