"""/apps, declared once with the kernel's registry (bot/kernel/registry.py); importing this module registers it."""

from __future__ import annotations

from bot.features.career.commands import tool_args, tool_command
from bot.kernel.registry import Arg, Entry, Slash, register

register(
    Entry(
        "apps",
        tool_command("apps"),
        aliases=("app", "board"),
        zh=("投递", "投递看板"),
        help_key="help.apps",
        help_rank=40,
        menu_key="menu.apps",
        rank=90,
        args=(Arg("action", high=2000),),
        slash=Slash(tool_args("apps", "action")),
    ),
)
