"""LOG_LEVEL=DEBUG never writes a secret: the real TelegramRuntime (python-telegram-bot unmodified) against
the fake Bot API, logging set up as `python -m bot` sets it up, every record that reaches the root handlers
scanned. python-telegram-bot logs the Bot API URL (it holds the token) and setWebhook's parameters (the
secret), httpx every request URL: the redaction marker in their place shows they did."""

from __future__ import annotations

import logging
import socket
from typing import Any

import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.logging_setup import REDACTED
from bot.platforms.telegram.settings import TelegramSettings
from tests.log_capture import captured_logs
from tests.platforms.telegram.conftest import MakeHarness
from tests.platforms.telegram.fake_bot_api import TOKEN

WEBHOOK_SECRET = "hook-secret-5f2c9a"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def debug_settings(library_level: str | None = "DEBUG", telegram: dict[str, Any] | None = None) -> Settings:
    settings = Settings(_env_file=None, log_level="DEBUG", log_library_level=library_level)
    settings.telegram = TelegramSettings(token=SecretStr(TOKEN), **(telegram or {}))
    return settings


async def test_the_bot_token_is_redacted_from_every_library_log(make_telegram: MakeHarness) -> None:
    with captured_logs(debug_settings()) as out:
        tg = await make_telegram()
        await tg.say(901, "/start")
        await tg.press(901, "set:language:en")
        await tg.say(901, "/help")
    logs = out.getvalue()
    assert "Calling Bot API endpoint `sendMessage`" in logs  # the libraries did log at DEBUG
    assert TOKEN not in logs and TOKEN.split(":")[1] not in logs
    assert f"/bot{REDACTED}" in logs  # python-telegram-bot's "Set Bot API URL" and httpx's request lines


@pytest.mark.parametrize("configured", [True, False], ids=["configured-secret", "random-secret"])
async def test_the_webhook_secret_is_redacted(make_telegram: MakeHarness, configured: bool) -> None:
    port = free_port()
    options: dict[str, Any] = {"webhook_url": f"http://127.0.0.1:{port}/tg-hook", "webhook_port": port}
    if configured:
        options["webhook_secret"] = SecretStr(WEBHOOK_SECRET)
    with captured_logs(debug_settings(telegram=options)) as out:
        tg = await make_telegram(**options)
    assert tg.server.webhook is not None
    secret = tg.server.webhook["secret_token"]  # the configured one, or the random one the runtime made
    assert secret == WEBHOOK_SECRET or not configured
    logs = out.getvalue()
    assert "Calling Bot API endpoint `setWebhook`" in logs
    assert secret not in logs and TOKEN not in logs
    assert f"'secret_token': '{REDACTED}'" in logs


async def test_at_debug_the_libraries_stay_at_info_unless_asked(make_telegram: MakeHarness) -> None:
    with captured_logs(debug_settings(library_level=None)) as out:
        tg = await make_telegram()
        await tg.say(901, "/help")
        assert logging.getLogger("bot.platforms.telegram").isEnabledFor(logging.DEBUG)
        for name in ("telegram.ext", "httpcore", "discord", "openai", "aiosqlite", "sqlalchemy", "apscheduler"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
        assert not logging.getLogger("httpx").isEnabledFor(logging.INFO)  # one line per request, each long poll
    logs = out.getvalue()
    assert " DEBUG telegram" not in logs and " DEBUG httpcore" not in logs and " DEBUG aiosqlite" not in logs
    assert TOKEN not in logs
