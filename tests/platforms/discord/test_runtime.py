"""`python -m bot run` with DISCORD_TOKEN: the runtime logs in, connects to the gateway in a task of
the bot's own event loop, serves interactions that arrive over it, and stops cleanly."""

from __future__ import annotations

import discord
import pytest
import yarl
from pydantic import SecretStr

from bot.bootstrap import App
from bot.config import Settings
from bot.platforms.discord.runtime import DiscordRuntime
from bot.platforms.discord.settings import DiscordSettings
from bot.runner import platform_runtimes
from tests.platforms.discord import payloads as p
from tests.platforms.discord.fake_discord import FakeDiscord


async def test_start_returns_while_connected_then_serves_and_stops(
    app: App, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    runtime = DiscordRuntime(app.service, DiscordSettings(token=SecretStr("secret-token"), guild_id=700))
    await runtime.start()  # returns: the gateway runs in a task
    assert fake.to("/guilds/700/commands", "PUT")  # commands synced to the development guild first
    await fake.wait_for(lambda: fake.identify is not None)
    assert fake.identify is not None and fake.identify["token"] == "secret-token"

    await fake.dispatch("INTERACTION_CREATE", p.command("drill"))
    await fake.wait_for(lambda: any("/webhooks/" in r.path for r in fake.requests))
    (answer,) = [r for r in fake.requests if "/webhooks/" in r.path]
    assert "Question pipe-q-000?" in answer.content

    await runtime.stop()
    await fake.wait_for(lambda: fake.gateway is None)
    assert runtime.client.is_closed()


async def test_a_bad_token_stops_start_up_with_the_error(app: App, fake: FakeDiscord) -> None:
    runtime = DiscordRuntime(app.service, DiscordSettings(token=SecretStr("bad")))
    fake.reject_token = True
    with pytest.raises(discord.LoginFailure):
        await runtime.start()
    assert runtime.client.is_closed()


def test_the_runner_serves_discord_when_a_token_is_set(app: App) -> None:
    settings = Settings(_env_file=None, discord_token="abc", discord_guild_id=700)  # type: ignore[call-arg]
    (runtime,) = [r for r in platform_runtimes(app, settings) if r.name == "discord"]
    assert isinstance(runtime, DiscordRuntime) and runtime.notifier.platform == "discord"
    assert runtime.settings.guild_id == 700
