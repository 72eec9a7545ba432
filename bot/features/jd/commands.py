"""/jd, declared once with the kernel's registry (bot/kernel/registry.py); importing this module registers it."""

from __future__ import annotations

from bot.features.career.commands import tool_command
from bot.kernel import commands as c
from bot.kernel.registry import Arg, Entry, Slash, register

register(
    Entry(
        "jd",
        tool_command("jd"),
        zh=("职位", "职位描述", "岗位"),
        help_key="help.jd",
        help_rank=20,
        menu_key="menu.jd",
        rank=70,
        args=(Arg("text", high=6000, key="opt.jd_text"), Arg("file", "file", key="opt.jd_file")),
        slash=Slash(  # a file: /jd waits for the text, and the file is it
            lambda call: c.CareerCommand(
                call.user_id, "jd", "" if "file" in call.values else call.values.get("text", "")
            ),
            file="file",
        ),
    ),
)
