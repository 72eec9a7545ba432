"""LOG_LEVEL=DEBUG never writes a secret on Discord either: the real discord.py client logs in, connects to
the fake gateway and answers an interaction, with logging set up as `python -m bot` sets it up. discord.py
logs each interaction's token at DEBUG (in the gateway event, and in the callback and webhook URLs it
posts the reply to); a token lets anyone answer in the bot's name for 15 minutes."""

from __future__ import annotations

import discord
import pytest
import yarl
from pydantic import SecretStr

from bot.bootstrap import App
from bot.config import Settings
from bot.logging_setup import REDACTED
from bot.platforms.discord.runtime import DiscordRuntime
from bot.platforms.discord.settings import DiscordSettings
from tests.log_capture import captured_logs
from tests.platforms.discord import payloads as p
from tests.platforms.discord.fake_discord import FakeDiscord

BOT_TOKEN = "MTAwMTAwMTAwMTAwMTAwMTAw.GdRlTk.q7Zr2VYx0wzNcB4sKfT1uHjPaLmE9oIiWv3XgQ"


async def test_the_bot_token_and_interaction_tokens_are_redacted(
    app: App, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    discord_settings = DiscordSettings(token=SecretStr(BOT_TOKEN), guild_id=700)
    settings = Settings(_env_file=None, log_level="DEBUG", log_library_level="DEBUG", discord=discord_settings)
    interaction = p.command("drill")
    interaction["token"] = "aW50ZXJhY3Rpb246OTAwMDAwMDpzZWNyZXQtdG9rZW4tZm9yLXRoaXMtb25l"
    with captured_logs(settings) as out:
        runtime = DiscordRuntime(app.service, discord_settings)
        await runtime.start()
        await fake.wait_for(lambda: fake.identify is not None)
        await fake.dispatch("INTERACTION_CREATE", interaction)
        await fake.wait_for(lambda: any("/webhooks/" in r.path for r in fake.requests))
        await runtime.stop()
    assert fake.identify is not None and fake.identify["token"] == BOT_TOKEN  # the real token was used
    logs = out.getvalue()
    assert "WebSocket Event" in logs and "/callback" in logs  # discord.py did log the event and the reply
    assert BOT_TOKEN not in logs and interaction["token"] not in logs
    assert f"'token': '{REDACTED}'" in logs  # in the gateway event
    assert f"/interactions/{interaction['id']}/{REDACTED}/callback" in logs
    assert f"/webhooks/1000/{REDACTED}" in logs
