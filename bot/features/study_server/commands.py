"""A study server's commands (Discord's /leaderboard and /setup) and the handler of its daily question's answers,
declared once with the kernel's registry (bot/kernel/registry.py); importing this module registers them."""

from __future__ import annotations

from bot.features.onboarding.commands import LANG_CHOICES
from bot.features.study_server import study_server
from bot.kernel import commands as c
from bot.kernel.registry import REGISTRY, Arg, ChannelRef, Entry, Slash, SlashCall, register


def slash_setup(call: SlashCall) -> c.Command:
    v = call.values
    channel: ChannelRef = v["channel"]
    return c.SetupServer(
        call.user_id,
        server_id=str(call.server_id),
        channel_id=channel.id,
        channel_label=channel.label,
        daily_time=v.get("time", ""),
        timezone=v.get("timezone", ""),
        language=v.get("language", ""),
        enabled=v.get("enabled", True),
        manager=call.manager,
    )


register(
    Entry(
        "leaderboard",
        rank=220,
        slash=Slash(
            lambda call: c.ShowLeaderboard(call.user_id, call.platform, str(call.server_id), mention=call.mention),
            server_only=True,
            public=lambda values: True,  # posted in the channel, for a member who may post there
            public_kind=None,
        ),
        handlers={c.ShowLeaderboard: study_server.show_leaderboard},
    ),
    Entry(
        "setup",
        rank=230,
        args=(
            Arg("channel", "channel", required=True),
            Arg("time", high=16),
            Arg("timezone", high=64),
            Arg("language", "choice", choices=LANG_CHOICES, key="opt.server_language"),
            Arg("enabled", "switch", default=True),
        ),
        slash=Slash(slash_setup, server_only=True, managers_only=True),
        handlers={c.SetupServer: study_server.setup_server},
    ),
)
REGISTRY.handle({c.AnswerServerQuestion: study_server.answer_server_question})
