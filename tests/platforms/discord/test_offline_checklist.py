"""Offline on Discord (issue #32): the checklist and the user's own rating, through discord.py against the fake
Discord server, in both languages."""

from __future__ import annotations

import pytest

from bot.grading.offline import OfflineGrader
from bot.kernel.bank import Bank
from tests.conftest import example_question
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.test_commands import followups

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


@pytest.fixture
def grader() -> OfflineGrader:  # type: ignore[override]
    return GRADER


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_offline_the_member_rates_from_the_checklist(bot: Harness, lang: str) -> None:
    uid = await bot.user_id(1)
    user = await bot.service.deps.store.get_user(uid)
    assert user is not None
    await bot.service.deps.store.save_user(user.model_copy(update={"language": lang}))
    await bot.interact(p.command("drill"))
    sent = followups(await bot.interact(p.command("answer", text=ANSWERS[lang])))
    header = "Offline check, not a verdict" if lang == "en" else "离线检查，不是评分结论"
    check = next(s for s in sent if header in s.content)  # (a progress note may come first on a slow machine)
    rate = next(s for s in sent if any(i.startswith("drill:rate:") for i in s.custom_ids()))
    for claim in ("correctness", "正确性", "/100", "Score", "得分"):
        assert claim not in check.content + rate.content
    assert ("Offline check, not a verdict" if lang == "en" else "离线检查，不是评分结论") in check.content
    ids = rate.custom_ids()
    (attempt,) = await bot.service.deps.store.list_attempts(uid)
    assert ids[0].startswith(f"drill:rate:{attempt.id}:") and attempt.rating_by == "unrated"
    assert len(rate.json["components"]) <= 5  # Discord shows five rows: the prompt fits
    tick = next(i for i in ids if i.startswith("drill:tick:"))
    message = p.message_with_components([(tick, "I said")])
    ticked = followups(await bot.interact(p.button(tick, message)))[0]
    assert ("Ticked:" if lang == "en" else "已标记：") in ticked.content
    accept = ticked.custom_ids()[0]
    rated = followups(await bot.interact(p.button(accept, p.message_with_components([(accept, "ok")]))))[0]
    assert ("Rating set to" if lang == "en" else "评级已改为") in rated.content
    (attempt,) = await bot.service.deps.store.list_attempts(uid)
    assert attempt.rating_by == "user" and len(attempt.ticked) == 1
