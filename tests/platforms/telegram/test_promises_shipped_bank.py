"""Issue #36 items 2 and 3 through the real python-telegram-bot against the fake Bot API, on the shipped bank: the
mock debrief tells one story, and /review links what was asked to the right bank question."""

from __future__ import annotations

import pytest

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
from tests.platforms.telegram.conftest import Harness, MakeHarness
from tests.platforms.telegram.fake_bot_api import Sent
from tests.shipped import shipped_bank

CHAT = 613


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return shipped_bank()


@pytest.fixture
def bank(shipped: Bank) -> Bank:  # the harness's bank: the shipped one, for the matcher and the company's round
    return shipped


@pytest.mark.parametrize(("code", "lang"), [("en", "en"), ("zh-hans", "zh")])
async def test_the_telegram_mock_debrief_with_a_skip_tells_one_story(
    make_telegram: MakeHarness, code: str, lang: Lang
) -> None:
    tg = await make_telegram(grader=PartialGrader())
    tg.app.service.deps.mock_charts = RecordingMockChart()
    sent = []
    for line in mock_round(lang):
        sent += await tg.say(CHAT, line, language_code=code)
    texts = [s.text for s in sent if s.method in ("sendMessage", "sendPhoto", "editMessageText")]
    start = next(i for i, t in enumerate(texts) if t.startswith("Debrief ·" if lang == "en" else "复盘 ·"))
    assert any(s.method == "sendPhoto" for s in sent)  # the chart went with it
    await check_story(tg.app, await tg.user_id(CHAT), lang, "\n".join(texts[start:]))


def shown(sent: list[Sent]) -> str:
    return "\n".join(s.text for s in sent if s.method in ("sendMessage", "editMessageText", "sendPhoto"))


@pytest.mark.parametrize(("code", "lang"), [("en", "en"), ("zh-hans", "zh")])
async def test_telegram_review_offers_the_pre_ln_question_and_grades_the_recalled_answer_on_the_pick(
    tg: Harness, code: str, lang: Lang
) -> None:
    offered = await tg.say(CHAT, f"/review Anthropic | {PRE_LN[lang]} | {RECALLED}", language_code=code)
    uid = await tg.user_id(CHAT)
    index = await check_offered(tg.app, uid, lang, shown(offered))
    await check_linked_and_graded(tg.app, uid, lang, shown(await tg.press(CHAT, f"rv:{index}")))


@pytest.mark.parametrize(("code", "lang"), [("en", "en"), ("zh-hans", "zh")])
async def test_telegram_card_shows_the_question_as_asked_with_the_bank_rubric_named(
    tg: Harness, code: str, lang: Lang
) -> None:
    await tg.say(CHAT, f"/review Acme | {SURE[lang]}", language_code=code)
    assert f"\n{SURE[lang]}{SAYS[lang]['rubric']}" in shown(await tg.say(CHAT, "/drill", language_code=code))


@pytest.mark.parametrize(("code", "lang"), [("en", "en"), ("zh-hans", "zh")])
async def test_telegram_debrief_keeps_the_7b_tokens_question_as_the_users_own(
    tg: Harness, code: str, lang: Lang
) -> None:
    listing = shown(await tg.say(CHAT, f"/debrief Acme\n{TOKENS_NOTES}", language_code=code))
    await tg.say(CHAT, "log", language_code=code)
    await check_debrief_tokens(tg.app, await tg.user_id(CHAT), lang, listing)
