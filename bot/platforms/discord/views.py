"""Buttons and the answer modal.

Every button the bot sends has the custom_id `drill:<core action>`. ActionButton is a DynamicItem
registered once at start-up with that template, so any such button, on any message, however old
and across restarts, is routed to the core's `handle_action`. The study server's Answer button
(`drill:answer:<question id>`) opens a modal instead, whose text is graded privately.

The modal is stateless, like the buttons: its custom_id names the question (`drill-modal:answer:<id>`)
and it is never kept in discord.py's view store, so its submission is read from the interaction
itself (`submitted_answer`) and graded the same way before and after a restart; a form the member
left open while the bot restarted is not lost.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.kernel import commands as c
from bot.kernel.actions import AnswerDaily, decode
from bot.kernel.i18n import t
from bot.platforms.discord.bridge import PLATFORM, Bridge
from bot.platforms.discord.render import PREFIX

if TYPE_CHECKING:
    from bot.kernel.models import Lang, User
    from bot.kernel.replies import Reply

MODAL_ANSWER_CHARS = 4000  # Discord's longest text input
MODAL_PREFIX = "drill-modal:answer:"
ANSWER_INPUT_ID = "answer"


def bridge_of(interaction: discord.Interaction) -> Bridge:
    return interaction.client.bridge  # type: ignore[attr-defined, no-any-return]


def answer_modal(question_id: str, lang: Lang) -> discord.ui.Modal:
    """The answer form for `question_id`, already stopped: discord.py does not keep it, the submission is
    routed by its custom_id (DrillClient.on_interaction)."""
    modal = discord.ui.Modal(title=t(lang, "modal.title"), custom_id=MODAL_PREFIX + question_id, timeout=None)
    modal.add_item(
        discord.ui.TextInput(
            label=t(lang, "modal.label"),
            style=discord.TextStyle.paragraph,
            placeholder=t(lang, "modal.placeholder"),
            max_length=MODAL_ANSWER_CHARS,
            custom_id=ANSWER_INPUT_ID,
        )
    )
    modal.stop()
    return modal


def submitted_answer(components: Any) -> str | None:
    """The answer input's value in a modal submission (rows of inputs, or labels around one), or None."""
    if isinstance(components, list):
        for item in components:
            found = submitted_answer(item)
            if found is not None:
                return found
    elif isinstance(components, dict):
        if components.get("custom_id") == ANSWER_INPUT_ID and isinstance(components.get("value"), str):
            return str(components["value"])
        for key in ("components", "component"):
            if key in components:
                found = submitted_answer(components[key])
                if found is not None:
                    return found
    return None


async def submit(interaction: discord.Interaction) -> None:
    """A submitted answer form, whenever it was opened; other modal submissions are not ours."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not custom_id.startswith(MODAL_PREFIX):
        return
    question_id = custom_id[len(MODAL_PREFIX) :]
    text = submitted_answer(data.get("components")) or ""
    bridge = bridge_of(interaction)

    async def grade(user: User) -> list[Reply]:
        cmd = c.AnswerServerQuestion(user.id, PLATFORM, str(interaction.guild_id), question_id, text)
        return await bridge.service.handle(cmd)

    await bridge.in_server(interaction, grade)


async def press(interaction: discord.Interaction, action: str) -> None:
    bridge = bridge_of(interaction)
    payload = decode(action)
    if isinstance(payload, AnswerDaily) and interaction.guild_id is not None:
        # Opening a form changes nothing, so no idempotency write delays it: Discord refuses a second response.
        user = await bridge.user(interaction.user, interaction.locale)
        await interaction.response.send_modal(answer_modal(payload.question, user.language))
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
