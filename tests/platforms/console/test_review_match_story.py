"""/review and /debrief match well and show what was asked (issue #36, item 3), through the terminal chat on a real
SQLite file with the shipped bank and its matcher: "Why is Pre-LN more stable than Post-LN" is not linked without
asking to the DeepNorm question (it names Post-LN, which that question does not ask about) but offered with the
right one, which a press links; the recalled answer is then graded as an attempt that schedules the card; a reply
never says "no close question" above close questions; a linked card shows the user's own words with the bank
rubric named beside them; /debrief keeps "how would you choose tokens for a 7B" as the user's own question."""

from __future__ import annotations

from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from bot.kernel.session import PickingReview
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for
from tests.shipped import shipped_bank

PRE_LN = {
    "en": "Why is Pre-LN more stable than Post-LN for deep transformers?",
    "zh": "为什么深层 Transformer 里 Pre-LN 比 Post-LN 更稳定？",
}
RECALLED = "Post-LN normalises after the residual add, so early gradients blow up without warmup; Pre-LN does not."
SURE = {"en": "Why do MoE models need a load balancing loss?", "zh": "MoE 为什么要加负载均衡的辅助损失？"}
SAYS = {
    "en": {
        "offered": "Logged for Anthropic as your own question for now.\nIt may be one of these bank questions",
        "later": "Your answer is graded once you choose.",
        "linked": "graded with the rubric of the bank question “You reproduce a 24-layer Post-LN",
        "graded": "Your answer is graded below, as a review of its card",
        "rubric": "\n(Graded with the rubric of bank question stab-moe-001: “Why does an MoE model need a load-balancing",
        "maybe": "your own question; maybe bank:",
        "likely": "likely bank",
        "new": "new personal question",
    },
    "zh": {
        "offered": "已记录（Anthropic），先作为你自己的题目保存。\n它可能是下面某道题库题目",
        "later": "选好之后，我会给你当时的回答评分。",
        "linked": "按题库中“你复现一个 24 层 Post-LN",
        "graded": "下面是你当时回答的评分，计入这张卡片的复习",
        "rubric": "\n（按题库题 stab-moe-001 的评分要点评分：“",
        "maybe": "你自己的题目；也许是题库：",
        "likely": "可能是题库",
        "new": "新的个人题目",
    },
}
NO_CLOSE = ("no close match", "题库中没有相近的题")
TOKENS_NOTES = (
    "1. How would you choose tokens for a 7B?\nI said about 20 tokens per parameter.\n2. Why is the sky blue?"
)


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return shipped_bank()


@pytest.fixture
async def app(tmp_path: Path, shipped: Bank) -> AsyncIterator[App]:
    a = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=shipped, fuzz=False)
    yield a
    await a.close()


async def check_offered(app: App, user_id: int, lang: Lang, reply: str) -> int:
    """The Pre-LN /review's reply: offered, not linked, not contradicted; the index of the right question."""
    assert SAYS[lang]["offered"] in reply and SAYS[lang]["later"] in reply
    assert not any(words in reply for words in NO_CLOSE)
    (item,) = await app.store.list_review_items(user_id)
    assert not item.matched_bank and item.question_id != "stab-init-004"  # not the DeepNorm question, unasked
    state = await app.store.get_session(user_id)
    assert isinstance(state, PickingReview) and "stab-norm-002" in state.candidates
    assert await app.store.list_attempts(user_id) == []  # nothing graded against a question not chosen yet
    return state.candidates.index("stab-norm-002")


async def check_linked_and_graded(app: App, user_id: int, lang: Lang, reply: str) -> None:
    """After the pick: linked to stab-norm-002, the recalled answer graded as an attempt that scheduled its card."""
    assert SAYS[lang]["linked"] in reply and SAYS[lang]["graded"] in reply
    (item,) = await app.store.list_review_items(user_id)
    assert item.matched_bank and item.question_id == "stab-norm-002"
    (attempt,) = await app.store.list_attempts(user_id)
    assert attempt.question_id == "stab-norm-002" and attempt.answer == RECALLED and attempt.grade is not None
    assert attempt.source == "review" and f"{attempt.grade.score}/100" in reply  # the grade shown with the link
    card = await app.store.card_for_question(user_id, "stab-norm-002")
    assert card is not None and card.due > app.service.deps.clock.now()  # scheduled by the grade, not due now


async def check_debrief_tokens(app: App, user_id: int, lang: Lang, listing: str) -> None:
    """/debrief's list of TOKENS_NOTES, then Log all: the 7B question is no likely bank question and is not
    graded against one."""
    first = listing[listing.index("1. How would you choose tokens for a 7B?\n    → ") :].split("\n")[1]
    assert first.startswith("    → " + SAYS[lang]["maybe"]) or first.startswith("    → " + SAYS[lang]["new"])
    assert SAYS[lang]["likely"] not in listing
    items = await app.store.list_review_items(user_id)
    assert items and not items[0].matched_bank
    assert all(a.question_id.startswith("personal:") for a in await app.store.list_attempts(user_id))


async def chat(app: App, tmp_path: Path, lang: Lang, *lines: str) -> str:
    await app.service.user_for("console", "local", lang)
    out = StringIO()
    await run_console(app.service, "local", StringIO("\n".join(lines) + "\n"), out, tmp_path)
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_terminal_offers_the_pre_ln_question_links_the_pick_and_grades_the_recalled_answer(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    uid = (await app.service.user_for("console", "local", lang)).id
    offered = await chat(app, tmp_path, lang, f"/review Anthropic | {PRE_LN[lang]} | {RECALLED}")
    index = await check_offered(app, uid, lang, offered)
    picked = await chat(app, tmp_path, lang, str(index + 1))  # a typed number picks from the list
    await check_linked_and_graded(app, uid, lang, picked)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_terminal_card_shows_the_question_as_asked_with_the_bank_rubric_named(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    out = await chat(app, tmp_path, lang, f"/review Acme | {SURE[lang]}", "/drill")
    drilled = out[out.index("> /drill") :]
    assert f"\n{SURE[lang]}{SAYS[lang]['rubric']}" in drilled


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_terminal_debrief_keeps_the_7b_tokens_question_as_the_users_own(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    uid = (await app.service.user_for("console", "local", lang)).id
    out = await chat(app, tmp_path, lang, "/debrief Acme", '"""', TOKENS_NOTES, '"""', "log")
    await check_debrief_tokens(app, uid, lang, out)
