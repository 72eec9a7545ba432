"""The mock debrief tells one story (issue #36, item 2), through the terminal chat on a real SQLite file with the
shipped bank: a new user logs one company question, runs a mock on that company, answers Q1, Q2, Q4 and Q5
(every key point partly made, 72 each) and skips Q3. The verdict, its reasons, each question's lists, the gaps
and the chart come from one computation: the skipped question is said and drawn as skipped, "too many key points
missed" is never said of a round that missed none, and the round spans at least 3 subtopics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock
from tests.integration.test_app import settings_for
from tests.mock_helpers import PartialGrader, RecordingMockChart
from tests.shipped import shipped_bank

ASKED = {
    "en": "Why is Pre-LN more stable than Post-LN for deep transformers?",
    "zh": "为什么深层 Transformer 里 Pre-LN 比 Post-LN 更稳定？",
}
ANSWER = "Pre-LN keeps the residual path an identity, so gradients reach the early layers; I would warm up too."
STORY = {
    "en": {
        "head": "Overall: 58/100 · lean no hire\nA close call that usually fails.\n",
        "why": "Why: Q3 skipped, counted as 0 (the 4 answered average 72); key points 0 covered, {n} partly, 0 missed.",
        "skipped": "Skipped (counted as 0).",
        "missed_none": "Missed: none",
        "gap_skipped": "- Q3 skipped: drill “",
        "partly": ", only partly (Q",
        "mark": "skipped",
    },
    "zh": {
        "head": "总分：58/100 · 倾向不录用\n属于边缘，通常过不了。\n",
        "why": "原因：第 3 题跳过，按 0 分计（答了的 4 题平均 72 分）；要点答到 0 个、部分答到 {n} 个、漏掉 0 个。",
        "skipped": "已跳过（按 0 分计）。",
        "missed_none": "漏掉：无",
        "gap_skipped": "- 第 3 题跳过了：重练“",
        "partly": "，只答到一部分（第 ",
        "mark": "跳过",
    },
}
NEVER = ("too many key points missed", "No key point missed", "漏掉或说得含糊的要点太多", "没有漏掉的要点")


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return shipped_bank()


@pytest.fixture
async def app(tmp_path: Path, shipped: Bank) -> AsyncIterator[App]:
    a = await build_app(
        settings_for(tmp_path), grader=PartialGrader(), clock=FakeClock(), bank=shipped, fuzz=False,
        mock_charts=RecordingMockChart(),
    )  # fmt: skip
    yield a
    await a.close()


def mock_round(lang: Lang) -> list[str]:
    """The issue's reproduction as typed lines."""
    return [f"/review Anthropic | {ASKED[lang]} | {ANSWER}", "/mock Anthropic", ANSWER, ANSWER, "/skip", ANSWER, ANSWER]


async def check_story(app: App, user_id: int, lang: Lang, debrief: str) -> None:
    """What every platform's debrief of `mock_round` must say, and the chart it drew."""
    story, bank = STORY[lang], app.service.deps.bank
    [mock] = await app.store.list_mocks(user_id)
    partly = sum(len(q.rubric.key_points) for i in mock.items if i.attempt_id and (q := bank.get(i.question_id)))
    assert story["head"] in debrief
    assert story["why"].format(n=partly) in debrief
    assert story["skipped"] in debrief and debrief.count(story["missed_none"]) == 4
    assert story["gap_skipped"] in debrief and story["partly"] in debrief
    assert not any(claim in debrief for claim in NEVER)
    subtopics = {q.subtopic for item in mock.items if (q := bank.get(item.question_id))}
    assert len(subtopics) >= 3, subtopics  # not five questions on one subtopic
    chart = app.service.deps.mock_charts
    assert isinstance(chart, RecordingMockChart)
    [data] = chart.drawn
    assert data.questions == ["Q1", "Q2", "Q3", "Q4", "Q5"] and data.scores == [72, 72, None, 72, 72]
    assert data.marks == ["", "", story["mark"], "", ""] and story["mark"] in chart.texts[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_terminal_debrief_of_a_round_with_a_skip_tells_one_story(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    await app.service.user_for("console", "local", lang)
    out = StringIO()
    await run_console(app.service, "local", StringIO("\n".join(mock_round(lang)) + "\n"), out, tmp_path)
    text = out.getvalue()
    debrief = text[text.index("Debrief ·" if lang == "en" else "复盘 ·") :]
    await check_story(app, (await app.service.user_for("console", "local")).id, lang, debrief)
