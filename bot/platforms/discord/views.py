"""Buttons and the answer modal.

Every button the bot sends has the custom_id `drill:<core action>`. ActionButton is a DynamicItem
registered once at start-up with that template, so any such button, on any message, however old
and across restarts, is routed to the core's `handle_action`. The study server's Answer button
(`drill:answer:<question id>`) opens a modal instead, whose text is graded privately.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.core import commands as c
from bot.core.i18n import t
from bot.core.study_server import ANSWER_ACTION
from bot.platforms.discord.bridge import PLATFORM, Bridge
from bot.platforms.discord.render import PREFIX

if TYPE_CHECKING:
    from bot.core.models import Lang, User
    from bot.core.replies import Reply

MODAL_ANSWER_CHARS = 4000  # Discord's longest text input
MODAL_TIMEOUT_S = 30 * 60.0  # forget a modal nobody submits


def bridge_of(interaction: discord.Interaction) -> Bridge:
    return interaction.client.bridge  # type: ignore[attr-defined, no-any-return]


class AnswerModal(discord.ui.Modal):
    def __init__(self, bridge: Bridge, question_id: str, lang: Lang) -> None:
        super().__init__(title=t(lang, "modal.title"), timeout=MODAL_TIMEOUT_S)
        self.bridge = bridge
        self.question_id = question_id
        self.answer: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=t(lang, "modal.label"),
            style=discord.TextStyle.paragraph,
            placeholder=t(lang, "modal.placeholder"),
            max_length=MODAL_ANSWER_CHARS,
        )
        self.add_item(self.answer)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async def grade(user: User) -> list[Reply]:
            cmd = c.AnswerServerQuestion(
                user.id, PLATFORM, str(interaction.guild_id), self.question_id, self.answer.value
            )
            return await self.bridge.service.handle(cmd)

        await self.bridge.in_server(interaction, grade)


async def press(interaction: discord.Interaction, action: str) -> None:
    bridge = bridge_of(interaction)
    if action.startswith(ANSWER_ACTION) and interaction.guild_id is not None:
        # Opening a form changes nothing, so no idempotency write delays it: Discord refuses a second response.
        user = await bridge.user(interaction.user, interaction.locale)
        modal = AnswerModal(bridge, action[len(ANSWER_ACTION) :], user.language)
        await interaction.response.send_modal(modal)
        return

    async def act(user: User) -> list[Reply]:
        return await bridge.service.handle_action(user.id, action)

    await bridge.respond(interaction, act)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(PREFIX) + r"(?P<action>.+)"):
    def __init__(self, action: str, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or action, custom_id=PREFIX + action))
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(match["action"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await press(interaction, self.action)
