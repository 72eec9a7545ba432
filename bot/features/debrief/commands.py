"""/debrief, declared once with the kernel's registry (bot/kernel/registry.py); importing this module registers it."""

from __future__ import annotations

from bot.features.career.commands import tool_command
from bot.kernel import commands as c
from bot.kernel.registry import Arg, Entry, Slash, SlashCall, register


def slash_debrief(call: SlashCall) -> c.Command:
    """`/debrief company | notes`; with a file, the company alone (the command then waits for the notes: the file)."""
    name, text = call.values.get("company", "").replace("|", "/"), call.values.get("text")
    args = f"{name} | {text}" if text and "file" not in call.values else name
    return c.CareerCommand(call.user_id, "debrief", args)


register(
    Entry(
        "debrief",
        tool_command("debrief"),
        zh=("复盘", "面经"),
        help_key="help.debrief",
        help_rank=50,
        menu_key="menu.debrief",
        rank=60,
        args=(
            Arg("company", desc_key="opt.debrief_company.desc"),
            Arg("text", high=6000, key="opt.notes_text"),
            Arg("file", "file", key="opt.notes_file"),
        ),
        slash=Slash(slash_debrief, file="file"),
    ),
)
