"""/mock, declared once with the kernel's registry (bot/kernel/registry.py); importing this module registers it."""

from __future__ import annotations

from bot.features.mock import mock
from bot.features.onboarding.commands import LEVEL_CHOICES
from bot.kernel import commands as c
from bot.kernel.registry import Arg, Entry, Slash, SlashCall, register

ACTIONS = ("go", "stop", "history", "share")
FOCUS_CHOICES = tuple((f"mock.choice.{x}", x) for x in ACTIONS) + tuple(
    (f"mock.focus.{x}", x) for x in ("stability", "pipeline", "mixed", "weakest")
)


def slash_mock(call: SlashCall) -> c.Command:
    """The options as /mock's words: a focus, company, level and length; an action alone (the rest do not apply)."""
    v = call.values
    words = [v.get("focus", ""), v.get("company", ""), v.get("level", ""), str(v.get("questions") or "")]
    if v.get("focus") in ACTIONS:
        words = [v["focus"]]
    return c.MockCommand(call.user_id, " ".join(w for w in words if w))


register(
    Entry(
        "mock",
        lambda user_id, rest, name: c.MockCommand(user_id, rest),
        zh=("模拟面试", "模拟"),
        help_key="help.mock",
        help_rank=10,
        menu_key="menu.mock",
        rank=30,
        args=(
            Arg("focus", "choice", choices=FOCUS_CHOICES),
            Arg("company", high=100, desc_key="opt.mock_company.desc"),
            Arg("level", "choice", choices=LEVEL_CHOICES),
            Arg("questions", "number", low=3, high=6),
        ),
        slash=Slash(slash_mock, public=lambda values: values.get("focus") == "share"),
        handlers={c.MockCommand: mock.mock_command},
    ),
)
