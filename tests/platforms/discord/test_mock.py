"""/mock through discord.py: started by the slash command with its options, answered with /answer,
ephemeral in a server (a mock's answers are private), and listed by /mock focus:history."""

from __future__ import annotations

import pytest

from bot.kernel.bank import Bank
from tests.mock_helpers import PLAIN_ANSWER, mock_bank
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.test_commands import EPHEMERAL, deferred, followups


@pytest.fixture
def bank() -> Bank:
    return mock_bank()


async def test_a_mock_interview_by_slash_commands_stays_private_in_a_server(bot: Harness) -> None:
    requests = await bot.interact(p.command("mock", focus="stability", questions=3, level="engineer"))
    assert deferred(requests)
    sent = followups(requests)
    assert "Mock interview: training stability, Engineer, 3 questions" in sent[0].content
    assert "Question 1 of 3" in sent[-1].content and all(s.flags == EPHEMERAL for s in sent)
    contents: list[str] = []
    for _ in range(12):
        bot.service.deps.clock.advance(minutes=2)  # type: ignore[attr-defined]
        sent = followups(await bot.interact(p.command("answer", text=PLAIN_ANSWER)))
        contents = [s.content for s in sent]
        assert all(s.flags == EPHEMERAL for s in sent)
        if any("Debrief" in x for x in contents):
            break
    assert any("Overall: 70/100 · hire" in x for x in contents)
    assert all(len(x) <= 2000 for x in contents)
    charts = [blob for s in sent for name, blob in s.files.items() if name.startswith("mock-")]
    assert len(charts) == 1 and charts[0][:8] == b"\x89PNG\r\n\x1a\n"  # the debrief's chart, attached
    history = followups(await bot.interact(p.command("mock", focus="history")))
    assert "training stability · 3/3 answered · 70 (hire)" in history[0].content
    uid = await bot.user_id(1)
    attempts = await bot.service.deps.store.list_attempts(uid)
    assert sum(not a.is_follow_up for a in attempts) == 3 and all(
        a.source and a.source.startswith("mock:") for a in attempts
    )


async def test_the_suggested_mock_by_its_button_in_direct_messages(bot: Harness) -> None:
    requests = await bot.interact(p.command("mock", guild_id=None))
    (suggested,) = followups(requests)
    assert "drill:mk:go" in suggested.custom_ids() and suggested.flags == 0
    pressed = await bot.interact(p.button("drill:mk:go", p.message_from(suggested.json), guild_id=None))
    assert any("Question 1 of 5" in s.content for s in followups(pressed))
    stopped = followups(await bot.interact(p.command("mock", guild_id=None, focus="stop")))
    assert "Mock interview stopped" in stopped[0].content


async def test_a_member_may_share_the_last_score_in_the_channel_never_the_answers(bot: Harness) -> None:
    none = followups(await bot.interact(p.command("mock", focus="share")))
    assert "no finished mock interview to share" in none[0].content
    await bot.interact(p.command("mock", focus="stability", questions=3))
    for _ in range(12):
        bot.service.deps.clock.advance(minutes=2)  # type: ignore[attr-defined]
        sent = followups(await bot.interact(p.command("answer", text=PLAIN_ANSWER)))
        if any("Debrief" in s.content for s in sent):
            break
    requests = await bot.interact(p.command("mock", focus="share"))
    assert deferred(requests, ephemeral=False)  # public: the member chose to post it
    (post,) = followups(requests)
    assert post.content == "<@1> Mock interview: training stability · 3/3 answered · 70/100 (hire)"
    assert post.flags == 0 and post.json["allowed_mentions"] == {"parse": []}
    assert PLAIN_ANSWER not in post.content
