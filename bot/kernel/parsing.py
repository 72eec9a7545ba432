"""Turn a typed line or a button action into a Command. Shared by every platform."""

from __future__ import annotations

from bot.kernel import commands as c
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


MAX_ID = 2**63 - 1  # a database id: larger numbers are no id (and overflow a BIGINT)


def _id(text: str) -> int:
    """A non-negative id from a button, or ValueError."""
    value = int(text)
    if not 0 <= value <= MAX_ID:
        raise ValueError(text)
    return value


def parse_action(user_id: int, action: str) -> c.Command:
    """Button actions: `verb` or `verb:arg[:arg]` (see the Button constructors in the service)."""
    verb, _, arg = action.partition(":")
    try:
        if verb == "next":
            return c.NextQuestion(user_id)
        if verb == "skip":
            return c.SkipQuestion(user_id)
        if verb == "ref":
            return c.RevealReference(user_id, _id(arg) if arg else None)
        if verb == "fu":
            return c.StartFollowUp(user_id, _id(arg))
        if verb == "tick":
            attempt, _, index = arg.partition(":")
            return c.TickPoint(user_id, _id(attempt), _id(index))
        if verb == "dis":
            return c.Disagree(user_id, _id(arg))
        if verb == "look":
            return c.SecondLook(user_id, _id(arg))
        if verb == "rate":
            attempt, _, rating = arg.partition(":")
            return c.OverrideRating(user_id, _id(attempt), int(rating))
        if verb == "set":
            name, _, value = arg.partition(":")
            return c.ChangeSetting(user_id, name, value)
        if verb == "forget":
            return c.ConfirmForget(user_id, arg == "yes")
        if verb == "rv":
            return c.PickReview(user_id, None if arg == "none" else _id(arg))
        if verb == "mk" and arg:
            return c.MockCommand(user_id, arg)
        if verb == "cr" and arg:
            tool, _, rest = arg.partition(":")
            return c.CareerAction(user_id, tool, rest)
        if verb == "flow" and arg in ("skip", "ok", "cancel"):
            return c.FlowAction(user_id, arg)
    except ValueError:
        pass
    return c.Invalid(user_id, "unknown", action)
