"""Discord sharded over replicas: DISCORD__SHARD_COUNT and DISCORD__SHARD_IDS give each replica its shard set
(discord.py's AutoShardedClient); bad sets are refused at start; one replica (shard 0's) syncs the commands."""

from __future__ import annotations

import discord
import pytest
from pydantic import SecretStr, ValidationError

from bot.bootstrap import App
from bot.config import Settings
from bot.platforms.discord.runtime import DiscordRuntime
from bot.platforms.discord.settings import DiscordSettings
from tests.platforms.discord.fake_discord import FakeDiscord

TOKEN = SecretStr("secret-token")


def test_shard_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD__SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD__SHARD_IDS", "[2, 3]")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.discord.shard_count == 4 and settings.discord.shard_ids == [2, 3]


@pytest.mark.parametrize(
    ("count", "ids", "said"),
    [(None, [0], "needs shard_count"), (2, [0, 2], "from 0 to 1"), (4, [1, 1], "distinct"), (4, [], "distinct"),
     (2, [-1], "from 0 to 1")],
)  # fmt: skip
def test_a_shard_set_outside_the_count_is_refused(count: int | None, ids: list[int], said: str) -> None:
    with pytest.raises(ValidationError, match=said):
        DiscordSettings(shard_count=count, shard_ids=ids)


def test_a_replica_runs_its_shard_set_on_the_sharded_client(app: App) -> None:
    runtime = DiscordRuntime(app.service, DiscordSettings(token=TOKEN, shard_count=4, shard_ids=[2, 3]))
    client = runtime.client
    assert isinstance(client, discord.AutoShardedClient)
    assert client.shard_count == 4 and client.shard_ids == [2, 3]
    every = DiscordRuntime(app.service, DiscordSettings(token=TOKEN, shard_count=3)).client
    assert isinstance(every, discord.AutoShardedClient) and every.shard_ids == [0, 1, 2]  # default: all shards


def test_one_process_stays_unsharded(app: App) -> None:
    client = DiscordRuntime(app.service, DiscordSettings(token=TOKEN)).client
    assert not isinstance(client, discord.AutoShardedClient) and client.shard_count is None


@pytest.mark.parametrize(("ids", "syncs"), [([0, 1], True), ([2, 3], False)])
async def test_only_the_replica_with_shard_0_syncs_the_commands(
    app: App, fake: FakeDiscord, ids: list[int], syncs: bool
) -> None:
    runtime = DiscordRuntime(app.service, DiscordSettings(token=TOKEN, guild_id=700, shard_count=4, shard_ids=ids))
    try:
        await runtime.client.login("secret-token")  # runs setup_hook, which syncs
        assert bool(fake.to("/guilds/700/commands", "PUT")) is syncs
    finally:
        await runtime.client.close()
