"""The discord.py client: the command tree, the persistent buttons, DMs, and command sync.

With DISCORD__SHARD_COUNT set, the client is discord.py's AutoShardedClient running this replica's shards
(DISCORD__SHARD_IDS, default all of them): several replicas split the gateway between them, each with its
own shard set. Only the replica with shard 0 (which also receives the DMs) syncs the slash commands."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.kernel.i18n import t
from bot.platforms.discord.bridge import Bridge
from bot.platforms.discord.commands import register
from bot.platforms.discord.settings import DiscordSettings
from bot.platforms.discord.translator import CatalogTranslator, language_of
from bot.platforms.discord.views import ActionButton, submit

log = logging.getLogger(__name__)


class DrillTree(app_commands.CommandTree[discord.Client]):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Errors before a command's own handling (bad options, a failed check): say so, never crash."""
        log.warning("slash command %s failed: %s", interaction.command and interaction.command.name, error)
        if not interaction.response.is_done():
            lang = language_of(interaction.locale) or "en"
            await interaction.response.send_message(t(lang, "error"), ephemeral=interaction.guild_id is not None)


def shard_options(settings: DiscordSettings) -> dict[str, object]:
    """The sharded client's shard_count and shard_ids; none for one unsharded process."""
    if settings.shard_count is None:
        return {}
    ids = settings.shard_ids if settings.shard_ids is not None else list(range(settings.shard_count))
    return {"shard_count": settings.shard_count, "shard_ids": ids}


def syncs_commands(settings: DiscordSettings) -> bool:
    """One replica syncs the command tree: the unsharded one, or the one that runs shard 0."""
    return settings.sync_commands and (settings.shard_ids is None or 0 in settings.shard_ids)


class DrillClient(discord.Client):
    def __init__(self, bridge: Bridge, settings: DiscordSettings) -> None:
        # DMs arrive with their text; no privileged intent
        super().__init__(intents=discord.Intents.default(), **shard_options(settings))  # type: ignore[arg-type]
        self.bridge = bridge
        self.settings = settings
        self.tree = DrillTree(self)
        register(self.tree)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ActionButton)
        await self.tree.set_translator(CatalogTranslator())
        if syncs_commands(self.settings):
            await self.sync_commands()

    async def sync_commands(self) -> None:
        """To one guild when configured (instant, for development), else globally (may take an hour)."""
        if self.settings.guild_id:
            guild = discord.Object(self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("discord: %d commands synced to guild %s", len(synced), self.settings.guild_id)
        else:
            synced = await self.tree.sync()
            log.info("discord: %d commands synced globally", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.modal_submit:
            await submit(interaction)

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not isinstance(message.channel, discord.DMChannel):
            return  # in servers the bot answers slash commands and buttons only
        await self.bridge.direct_message(message)


class ShardedDrillClient(DrillClient, discord.AutoShardedClient):
    """The same client over discord.py's AutoShardedClient: this replica's shards only (see the docstring)."""


def make_client(bridge: Bridge, settings: DiscordSettings) -> DrillClient:
    return ShardedDrillClient(bridge, settings) if settings.shard_count is not None else DrillClient(bridge, settings)
