"""The Telegram adapter's settings (TELEGRAM__*), composed into the bot's settings by bot/config.py."""

from __future__ import annotations

from pydantic import BaseModel, Field, SecretStr


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
