"""Issue #36 items 2 and 3 through discord.py's real event parsing against the fake Discord, on the shipped bank:
the mock debrief tells one story, and /review links what was asked to the right bank question."""

from __future__ import annotations

import pytest

from bot.bootstrap import App
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from tests.mock_helpers import PartialGrader, RecordingMockChart
from tests.platforms.console.test_mock_debrief_story import check_story, mock_round
from tests.platforms.console.test_review_match_story import (
    PRE_LN,
    RECALLED,
    SAYS,
    SURE,
    TOKENS_NOTES,
    check_debrief_tokens,
    check_linked_and_graded,
    check_offered,
)
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.fake_discord import Recorded
from tests.shipped import shipped_bank


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return shipped_bank()


@pytest.fixture
def bank(shipped: Bank) -> Bank:  # the app's bank: the shipped one, for the matcher and the company's round
    return shipped


@pytest.fixture
def grader() -> PartialGrader:
    return PartialGrader()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_discord_mock_debrief_with_a_skip_tells_one_story(bot: Harness, app: App, lang: Lang) -> None:
    bot.service.deps.mock_charts = RecordingMockChart()
    await bot.message(p.dm_message(f"/lang {lang}", user_id=31))
    requests = []
    for line in mock_round(lang):
        requests += await bot.message(p.dm_message(line, user_id=31))
    texts = [r.content for r in requests if r.path.endswith("/messages") and r.content]
    start = next(i for i, t in enumerate(texts) if t.startswith("Debrief ·" if lang == "en" else "复盘 ·"))
    assert any(name.endswith(".png") for r in requests for name in r.files)  # the chart went with it
    await check_story(app, await bot.user_id(31), lang, "\n".join(texts[start:]))


def shown(requests: list[Recorded]) -> str:
    return "\n".join(r.content for r in requests if r.path.endswith("/messages") and r.content)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_discord_review_offers_the_pre_ln_question_and_grades_the_recalled_answer_on_the_pick(
    bot: Harness, app: App, lang: Lang
) -> None:
    await bot.message(p.dm_message(f"/lang {lang}", user_id=32))
    offered = await bot.message(p.dm_message(f"/review Anthropic | {PRE_LN[lang]} | {RECALLED}", user_id=32))
    uid = await bot.user_id(32)
    index = await check_offered(app, uid, lang, shown(offered))
    offer = next(r for r in offered if any(i.endswith(f"rv:{index}") for i in r.custom_ids()))
    button = next(i for i in offer.custom_ids() if i.endswith(f"rv:{index}"))
    picked = await bot.interact(p.button(button, p.message_from(offer.json), user_id=32))
    texts = "\n".join(
        (r.json or {}).get("content") or (r.json or {}).get("data", {}).get("content") or "" for r in picked
    )
    await check_linked_and_graded(app, uid, lang, texts)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_discord_card_shows_the_question_as_asked_with_the_bank_rubric_named(bot: Harness, lang: Lang) -> None:
    await bot.message(p.dm_message(f"/lang {lang}", user_id=33))
    await bot.message(p.dm_message(f"/review Acme | {SURE[lang]}", user_id=33))
    assert f"\n{SURE[lang]}{SAYS[lang]['rubric']}" in shown(await bot.message(p.dm_message("/drill", user_id=33)))


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_discord_debrief_keeps_the_7b_tokens_question_as_the_users_own(
    bot: Harness, app: App, lang: Lang
) -> None:
    await bot.message(p.dm_message(f"/lang {lang}", user_id=34))
    listing = shown(await bot.message(p.dm_message(f"/debrief Acme\n{TOKENS_NOTES}", user_id=34)))
    await bot.message(p.dm_message("log", user_id=34))
    await check_debrief_tokens(app, await bot.user_id(34), lang, listing)
