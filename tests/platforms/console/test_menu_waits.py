"""A typed answer while a menu waits (issue #36, item 9), through the terminal chat on a real SQLite file: text
typed while buttons wait for a press is told what they wait for, with the buttons again, never "There is no open
question": the /mock Start menu, a /jd reading's days, an offline check's rating, the bank questions /review
offers. Once another command moves on, the menu is forgotten."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.grading.offline import OfflineGrader
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from bot.kernel.session import Idle, InMock
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for
from tests.shipped import shipped_bank

NO_QUESTION = {"en": "There is no open question", "zh": "当前没有待回答的题目"}
MOCK_WAITS = {"en": "it waits for you to press Start", "zh": "请点“开始”"}


async def chat(app: App, tmp_path: Path, lang: Lang, *lines: str) -> list[tuple[str, str]]:
    await app.service.user_for("console", "local", lang)
    out = StringIO()
    await run_console(app.service, "local", StringIO("\n".join(lines) + "\n"), out, tmp_path)
    parts = re.split(r"^> (.*)$", out.getvalue(), flags=re.M)[1:]
    return list(zip(parts[::2], parts[1::2], strict=True))


@pytest.fixture
async def app(tmp_path: Path, bank: Bank) -> AsyncIterator[App]:
    a = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=bank, fuzz=False)
    yield a
    await a.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_typed_answer_at_the_mock_start_menu_is_told_to_press_start(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    start = "[1] Start" if lang == "en" else "[1] 开始"
    turns = await chat(app, tmp_path, lang, "/mock", "I would clip the gradient norm at 1.0", "and lower the LR", "1")
    menu, typed, again, started = (out for _, out in turns)
    assert start in menu
    for reply in (typed, again):  # typing again is told again
        assert MOCK_WAITS[lang] in reply and NO_QUESTION[lang] not in reply and start in reply
    assert ("Question 1 of 5" if lang == "en" else "第 1/5 题") in started  # the number pressed the button shown again
    uid = (await app.service.user_for("console", "local")).id
    assert isinstance(await app.store.get_session(uid), InMock) and await app.store.list_attempts(uid) == []


async def test_the_menu_is_forgotten_once_another_command_moves_on(app: App, tmp_path: Path) -> None:
    turns = await chat(app, tmp_path, "en", "/mock", "/stats", "an answer")
    assert NO_QUESTION["en"] in turns[2][1] and MOCK_WAITS["en"] not in turns[2][1]
    uid = (await app.service.user_for("console", "local")).id
    assert await app.store.get_session(uid) == Idle()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_typed_answer_at_an_offline_rating_is_told_the_rating_waits(
    tmp_path: Path, bank: Bank, lang: Lang
) -> None:
    app = await build_app(settings_for(tmp_path), grader=OfflineGrader(), clock=FakeClock(), bank=bank, fuzz=False)
    try:
        turns = await chat(
            app, tmp_path, lang, "/drill", "I check the data for NaN first.", "and then the gradients", ""
        )
    finally:
        uid = (await app.service.user_for("console", "local")).id
        attempts = await app.store.list_attempts(uid)
        await app.close()
    waits = turns[2][1]
    assert ("your last answer waits for your rating" if lang == "en" else "你上一题的回答在等你评级") in waits
    assert "[1] ✓ " in waits and ("suggested: " if lang == "en" else "建议：") in waits  # the rating buttons again
    assert ("Rating set to" if lang == "en" else "评级已改为") in turns[3][
        1
    ]  # Enter accepts the suggestion shown again
    assert [a.answer for a in attempts] == ["I check the data for NaN first."] and attempts[0].rating_by == "user"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_text_typed_while_review_offers_bank_questions_is_told_to_pick(tmp_path: Path, lang: Lang) -> None:
    app = await build_app(
        settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=shipped_bank(), fuzz=False
    )
    try:
        turns = await chat(app, tmp_path, lang, "/review Acme | What causes loss spikes?", "hmm, the second one?")
    finally:
        await app.close()
    waits = turns[1][1]
    assert ("The bank questions offered wait for your pick" if lang == "en" else "上面列出的题库题在等你选择") in waits
    assert ("None of these" if lang == "en" else "都不是") in waits and NO_QUESTION[lang] not in waits
