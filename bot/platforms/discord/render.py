"""Core replies as Discord messages: text in chunks of at most 2,000 characters, buttons in rows of
at most five, images and files attached to the last chunk.

Buttons carry `drill:<action>` as their custom_id. The view that lays them out is never stored:
clicks are routed by the ActionButton template registered at start-up, so a button works after a
restart and nothing is kept in memory per message.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.kernel import actions
from bot.kernel.fences import REOPEN_CHARS, balance, has_code
from bot.kernel.replies import Attachment, Button, Reply
from bot.text.split import split

log = logging.getLogger(__name__)
PREFIX = "drill:"
MAX_CONTENT = 2000
MAX_LABEL = 80
MAX_CUSTOM_ID = 100
ROW_WIDTH = 5
MAX_ROWS = 5
NO_MENTIONS = discord.AllowedMentions.none()


class Layout(discord.ui.View):
    """Buttons for display only; see the module docstring for why it is not dispatchable.

    It holds the rows as the JSON Discord takes (what `discord.ui.Button.to_component_dict` writes) and
    no `discord.ui.Button` items: building eight of those and laying them out took more CPU than the
    rest of rendering a graded reply (bench/discord_interactions.py --profile), and an item-less view
    also leaves nothing for discord.py to keep per message after an interaction response."""

    def __init__(self, rows: list[list[dict[str, Any]]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def is_dispatchable(self) -> bool:
        return False

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self.rows]


def _style(action: str) -> discord.ButtonStyle:
    """Red for deleting everything, blue for the next question and a study server's Answer, grey for the rest."""
    payload = actions.decode(action)
    if payload == actions.ConfirmForget(answer="yes"):
        return discord.ButtonStyle.danger
    if isinstance(payload, actions.Next | actions.AnswerDaily):
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def view_for(buttons: list[list[Button]]) -> Layout | None:
    rows: list[list[Button]] = []
    for row in buttons:
        rows.extend(row[i : i + ROW_WIDTH] for i in range(0, len(row), ROW_WIDTH))
    if len(rows) > MAX_ROWS:
        log.warning("a reply has %d button rows; Discord shows %d", len(rows), MAX_ROWS)
    laid_out: list[list[dict[str, Any]]] = []
    for row in rows[:MAX_ROWS]:
        out = []
        for b in row:
            custom_id = PREFIX + b.action
            if len(custom_id) > MAX_CUSTOM_ID:
                log.warning("button action too long for Discord, dropped: %r", b.action[:40])
                continue
            label = b.label if len(b.label) <= MAX_LABEL else b.label[: MAX_LABEL - 1] + "…"
            out.append({"type": 2, "style": _style(b.action).value, "disabled": False, "label": label,
                        "custom_id": custom_id})  # fmt: skip
        if out:
            laid_out.append(out)
    return Layout(laid_out) if laid_out else None


def chunks(text: str, size: int = MAX_CONTENT) -> list[str]:
    """Split by characters (bot/text/split.py), never inside a character, and send no blank message. Code keeps its
    ``` fences, which Discord renders as a code block: a block cut by a split is closed at the end of its part and
    reopened at the start of the next (the parts are cut shorter by what that adds), so each message shows its
    code as code."""
    code = has_code(text)
    parts = [p for p in split(text, size - REOPEN_CHARS if code else size) if p.strip()]
    return balance(parts) if code else parts


def _file(a: Attachment) -> discord.File:
    return discord.File(io.BytesIO(a.data), filename=a.filename)


def messages(reply: Reply) -> list[dict[str, Any]]:
    """Keyword arguments for `send` (channel or follow-up), one dict per message."""
    parts: list[dict[str, Any]] = [{"content": c} for c in chunks(reply.text)]
    extra: dict[str, Any] = {}
    view = view_for(reply.buttons)
    if view is not None:
        extra["view"] = view
    files = [_file(a) for a in (reply.image, reply.file) if a is not None]
    if files:
        extra["files"] = files
    if extra:
        if not parts:
            parts.append({})
        parts[-1].update(extra)
    for part in parts:
        part["allowed_mentions"] = NO_MENTIONS
    return parts
