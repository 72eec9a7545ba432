"""The drill's commands (/drill, /skip, /reveal, Discord's /answer), its buttons' handlers and the regrade round
the scheduler sends, declared once with the kernel's registry (bot/kernel/registry.py); importing this module
registers them.

An answer, /skip and /reveal are handled by the mock interview's door (bot/features/mock/mock.py): the drill's,
or the mock interview's while one runs."""

from __future__ import annotations

from bot.features.drill import drill, graded, regrade
from bot.features.mock import mock
from bot.kernel import commands as c
from bot.kernel.registry import REGISTRY, Arg, Entry, Slash, no_words, register

register(
    Entry(
        "drill",
        no_words(c.NextQuestion),
        aliases=("next",),
        zh=("练习", "下一题"),
        menu_key="menu.drill",
        rank=20,
        slash=Slash(),
        handlers={c.NextQuestion: drill.next_question},
    ),
    Entry(
        "answer",
        args=(Arg("text", high=6000), Arg("audio", "audio")),
        rank=25,
        slash=Slash(
            lambda call: c.SubmitAnswer(call.user_id, call.values["text"], source=call.source),
            needs_one_of=("text", "audio"),
            missing_key="answer.usage",
            audio="audio",
        ),
        handlers={c.SubmitAnswer: mock.answer},
    ),
    Entry("skip", no_words(c.SkipQuestion), zh=("跳过",), rank=200, handlers={c.SkipQuestion: mock.skip}),
    Entry(
        "reveal",
        no_words(c.RevealReference),
        zh=("答案", "参考答案"),
        rank=210,
        handlers={c.RevealReference: mock.reveal},
    ),
)
REGISTRY.handle(
    {
        c.OverrideRating: graded.override_rating,
        c.StartFollowUp: graded.start_follow_up,
        c.TickPoint: graded.tick_point,
        c.Disagree: graded.disagree,
        c.SecondLook: graded.second_look,
    }
)
REGISTRY.handle_jobs({c.RegradeRound: regrade.regrade_round})  # sent by the scheduler: no name, no menu line
