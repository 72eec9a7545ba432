"""Offline on Telegram (issue #32): the checklist and the user's own rating, through python-telegram-bot against the
fake Bot API, in both languages."""

from __future__ import annotations

import pytest

from bot.grading.offline import OfflineGrader
from bot.kernel.bank import Bank
from tests.conftest import example_question
from tests.platforms.telegram.conftest import MakeHarness

CHAT = 4242
ANSWERS = {
    "en": "First I reproduce from the last checkpoint with the same data order, then I check that batch for NaN "
    "or Inf and out-of-range labels.",
    "zh": "我会先从最近的 checkpoint 用同样的数据顺序复现，再检查那个 batch 里有没有 NaN/Inf 和越界的 label。",
}


GRADER = OfflineGrader(semantic=False)


@pytest.fixture
def bank() -> Bank:
    GRADER.grade_sync(example_question(), "warm up: the bank's term weights are built once", "en")
    return Bank([example_question()])


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_offline_the_user_rates_from_the_checklist(make_telegram: MakeHarness, lang: str) -> None:
    tg = await make_telegram(grader=GRADER)
    code = "zh-hans" if lang == "zh" else "en"
    await tg.say(CHAT, "/drill", language_code=code)
    check, rate = await tg.say(CHAT, ANSWERS[lang], language_code=code)
    for claim in ("correctness", "正确性", "/100", "Score", "得分"):
        assert claim not in check.text + rate.text
    assert ("Offline check, not a verdict" if lang == "en" else "离线检查，不是评分结论") in check.text
    assert "✓" in check.text and "✗" in check.text
    assert ("Suggested rating" if lang == "en" else "建议评级") in rate.text
    accept_label, accept = rate.buttons[0][0]
    assert accept_label.endswith("(suggested)" if lang == "en" else "（建议）") and accept.startswith("rate:")
    ticks = [data for row in rate.buttons for _, data in row if data.startswith("tick:")]
    uid = await tg.user_id(CHAT)
    (attempt,) = await tg.app.store.list_attempts(uid)
    assert attempt.rating_by == "unrated" and attempt.rating == 1

    (ticked,) = await tg.press(CHAT, ticks[0])  # "I did say that"
    assert ("Ticked:" if lang == "en" else "已标记：") in ticked.text
    (attempt,) = await tg.app.store.list_attempts(uid)
    assert len(attempt.ticked) == 1
    accept = ticked.buttons[0][0][1]  # the suggestion after the tick
    (rated,) = await tg.press(CHAT, accept)
    assert ("Rating set to" if lang == "en" else "评级已改为") in rated.text
    (attempt,) = await tg.app.store.list_attempts(uid)
    assert attempt.rating_by == "user" and f"rate:{attempt.id}:{attempt.rating}" == accept
