"""Issue #36 items 2 and 3 through the real python-telegram-bot against the fake Bot API, on the shipped bank: the
mock debrief tells one story, and /review links what was asked to the right bank question."""

from __future__ import annotations

import pytest

from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from tests.mock_helpers import PartialGrader, RecordingMockChart
from tests.telegram.conftest import MakeHarness
from tests.test_first_hour_text import real_bank
from tests.test_mock_debrief_story import check_story, mock_round

CHAT = 613


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return real_bank()


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
