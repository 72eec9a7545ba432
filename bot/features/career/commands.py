"""The career tools' shared handlers (their commands, buttons and sent files), registered with the kernel's
registry (bot/kernel/registry.py) when imported; each tool declares its own command (its `commands` module)."""

from __future__ import annotations

from bot.features.career import router
from bot.kernel import commands as c
from bot.kernel.registry import REGISTRY, Build, Parse

REGISTRY.handle({c.CareerCommand: router.command, c.CareerAction: router.action, c.UploadDocument: router.upload})


def tool_command(tool: str) -> Parse:
    """The typed form of a career tool's command: `/<tool> words`."""
    return lambda user_id, rest, name: c.CareerCommand(user_id, tool, rest)


def tool_args(tool: str, option: str) -> Build:
    """A slash command whose one text option is the tool's words."""
    return lambda call: c.CareerCommand(call.user_id, tool, call.values.get(option, ""))
