"""/notes, declared once with the kernel's registry (bot/kernel/registry.py); importing this module registers it."""

from __future__ import annotations

from bot.features.career.commands import tool_args, tool_command
from bot.kernel.registry import Arg, Entry, Slash, register

register(
    Entry(
        "notes",
        tool_command("notes"),
        aliases=("note", "notebook"),
        zh=("笔记", "答案本"),
        help_key="help.notes",
        help_rank=30,
        menu_key="menu.notes",
        rank=80,
        args=(Arg("question", key="opt.notes_question"),),
        slash=Slash(tool_args("notes", "question")),
    ),
)
