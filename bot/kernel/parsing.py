"""Turn a typed line or a button action into a Command. Shared by every platform."""

from __future__ import annotations

from bot.kernel import commands as c
from bot.kernel.actions import MAX_ID as MAX_ID  # re-exported: tests import it here
from bot.kernel.actions import decode
from bot.kernel.registry import REGISTRY


def command_name(head: str) -> str:
    """The English name of a typed command: `/Help@bot` -> help, `/帮助` -> help; an unknown name as it is."""
    name = head[1:].split("@", 1)[0].lower()
    entry = REGISTRY.typed(name)
    return entry.name if entry is not None and name in entry.zh else name


def split_fields(text: str) -> list[str]:
    """Split `a | b | c` (also the full-width ｜) into stripped fields."""
    return [p.strip() for p in text.replace("｜", "|").split("|")]


def parse_line(user_id: int, line: str) -> c.Command:
    """A typed line: a command by one of its names in the registry (bot/kernel/registry.py), else free text."""
    text = line.strip()
    if not text.startswith("/"):
        return c.FreeText(user_id, line)
    head, *tail = text.split(None, 1)  # the command ends at a space or a line break ("/jd\n<pasted text>")
    name = command_name(head)
    rest = tail[0].strip() if tail else ""
    entry = REGISTRY.typed(name)
    if entry is None or entry.parse is None:
        return c.Invalid(user_id, "unknown", head.split("@", 1)[0])
    cmd = entry.parse(user_id, rest, name)
    return cmd if cmd is not None else c.Invalid(user_id, "usage", name, entry.usage_key)


def parse_action(user_id: int, action: str) -> c.Command:
    """A button's action: its typed payload (bot/kernel/actions.py, the one place buttons are decoded) as the
    command it sends; an action no payload reads is unknown."""
    payload = decode(action)
    return payload.command(user_id) if payload is not None else c.Invalid(user_id, "unknown", action)
