"""The discord.py client: the command tree, the persistent buttons, DMs, and command sync."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.config import DiscordSettings
from bot.core.i18n import t
from bot.platforms.discord.bridge import Bridge
from bot.platforms.discord.commands import register
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


class DrillClient(discord.Client):
    def __init__(self, bridge: Bridge, settings: DiscordSettings) -> None:
        super().__init__(intents=discord.Intents.default())  # DMs arrive with their text; no privileged intent
        self.bridge = bridge
        self.settings = settings
        self.tree = DrillTree(self)
        register(self.tree)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ActionButton)
        await self.tree.set_translator(CatalogTranslator())
        if self.settings.sync_commands:
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
