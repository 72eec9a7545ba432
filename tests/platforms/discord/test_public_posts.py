"""Issue #34 Low 1: what a member makes the bot post for everyone. `/mock share` names a company only as the
company table spells it, or as plain words (no link, masked link, mention or Markdown the member typed), and
`/mock share` and `/leaderboard` answer the member alone where they may not send messages themselves."""

from __future__ import annotations

import pytest

from bot.features.mock.models import MockItem, MockSession, MockSummary
from bot.kernel.bank import Bank
from bot.kernel.i18n import t
from bot.platforms.discord.bridge import public_text
from tests.mock_helpers import mock_bank
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.test_commands import EPHEMERAL, deferred, followups

SEND_MESSAGES = 1 << 11
SEND_IN_THREADS = 1 << 38
PUBLIC_THREAD = 11


@pytest.fixture
def bank() -> Bank:
    return mock_bank()


async def finished_company_mock(bot: Harness, member: int, company: str) -> None:
    """A company mock the member finished (its questions came from interviews they logged)."""
    uid = await bot.user_id(member)
    store, now = bot.service.deps.store, bot.service.deps.clock.now()
    items = [MockItem(question_id="stab-nan-debug-001", budget_seconds=240)]
    mock = await store.create_mock(MockSession(id=0, user_id=uid, focus="company", company=company,
                                               level="engineer", items=items, created_at=now))  # fmt: skip
    assert mock is not None
    summary = MockSummary(score=72, verdict="hire", answered=1)
    await store.save_mock(mock.model_copy(update={"state": "finished", "finished_at": now, "summary": summary}))


async def share(bot: Harness, member: int, **payload: object) -> tuple[bool, list[str], list[int]]:
    """/mock share: (public, the messages' text, their flags)."""
    requests = await bot.interact(p.command("mock", user_id=member, focus="share", **payload))  # type: ignore[arg-type]
    sent = followups(requests)
    return deferred(requests, ephemeral=False), [s.content for s in sent], [s.flags for s in sent]


async def test_a_shared_company_mock_names_a_known_company_by_the_table(bot: Harness) -> None:
    await bot.interact(p.command("help", user_id=1))  # the member exists
    await finished_company_mock(bot, 1, "字节 ")
    public, (post,), flags = await share(bot, 1)
    assert public and flags == [0]
    assert post == "<@1> Mock interview: what ByteDance asked · 1/1 answered · 72/100 (hire)"


async def test_a_typed_company_is_posted_as_plain_words_without_links_mentions_or_markdown(bot: Harness) -> None:
    await bot.interact(p.command("help", user_id=2))
    typed = "[Acme **Corp**](https://evil.example/login) @everyone <@&123> `x`"
    await finished_company_mock(bot, 2, typed)
    public, (post,), _ = await share(bot, 2)
    assert public
    assert post == "<@2> Mock interview: what Acme Corp https evil example login asked · 1/1 answered · 72/100 (hire)"
    for kept_out in ("](", "://", "evil.example", "**", "@everyone", "<@&", "`"):
        assert kept_out not in post


async def test_a_company_of_symbols_only_is_a_company(bot: Harness) -> None:
    await bot.interact(p.command("help", user_id=3))
    await finished_company_mock(bot, 3, "<@> ://** [](.)")
    _, (post,), _ = await share(bot, 3)
    assert post == "<@3> Mock interview: what a company asked · 1/1 answered · 72/100 (hire)"


async def test_text_posted_for_everyone_has_its_markdown_and_mentions_escaped() -> None:
    assert public_text("[a](https://x.example) **b** @everyone") == (
        "\\[a](https://x.example) \\*\\*b\\*\\* @\u200beveryone"
    )
    assert public_text("Mock interview: training stability · 3/3 answered · 70/100 (hire)") == (
        "Mock interview: training stability · 3/3 answered · 70/100 (hire)"
    )  # the bot's own words read as they are


async def test_a_member_who_may_not_send_messages_sees_the_share_alone(bot: Harness) -> None:
    await bot.interact(p.command("help", user_id=4, locale="zh-CN"))
    await finished_company_mock(bot, 4, "Acme")
    public, posts, flags = await share(bot, 4, permissions=p.MEMBER_PERMISSIONS & ~SEND_MESSAGES)
    assert not public and flags == [EPHEMERAL, EPHEMERAL]
    assert posts[0].startswith("模拟面试：Acme 问过的方向") and "<@4>" not in posts[0]
    assert posts[1] == t("zh", "discord.private_here") == "这条只有你能看到：你在这个频道没有发言权限。"
    public, posts, flags = await share(bot, 4)  # allowed to post: public again
    assert public and flags == [0] and posts == ["<@4> 模拟面试：Acme 问过的方向 · 答了 1/1 题 · 72/100（推荐录用）"]


async def test_a_member_who_may_not_send_messages_sees_the_leaderboard_alone(bot: Harness) -> None:
    muted = p.command("leaderboard", user_id=5, permissions=p.MEMBER_PERMISSIONS & ~SEND_MESSAGES)
    requests = await bot.interact(muted)
    assert deferred(requests, ephemeral=True)
    board, note = followups(requests)
    assert "No graded answers yet." in board.content and board.flags == EPHEMERAL
    assert note.content == "Only you can see this: you can't send messages in this channel."
    requests = await bot.interact(p.command("leaderboard", user_id=5))
    assert deferred(requests, ephemeral=False) and len(followups(requests)) == 1


async def test_in_a_thread_it_is_the_permission_to_send_in_threads_that_counts(bot: Harness) -> None:
    def in_thread(permissions: int) -> dict[str, object]:
        payload = p.command("leaderboard", user_id=6, permissions=permissions)
        payload["channel"] = {"id": str(p.CHANNEL_ID), "type": PUBLIC_THREAD, "guild_id": str(p.GUILD_ID),
                              "name": "study thread", "parent_id": "711", "owner_id": "1", "message_count": 3, "member_count": 2,
                              "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                                  "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                                  "locked": False}}  # fmt: skip
        return payload

    channel_only = p.MEMBER_PERMISSIONS  # may post in the channel, not in its threads
    assert deferred(await bot.interact(in_thread(channel_only)), ephemeral=True)
    assert deferred(await bot.interact(in_thread(channel_only | SEND_IN_THREADS)), ephemeral=False)
