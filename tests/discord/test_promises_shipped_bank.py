"""Issue #36 items 2 and 3 through discord.py's real event parsing against the fake Discord, on the shipped bank:
the mock debrief tells one story, and /review links what was asked to the right bank question."""

from __future__ import annotations

import pytest

from bot.bootstrap import App
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from tests.discord import payloads as p
from tests.discord.conftest import Harness
from tests.mock_helpers import PartialGrader, RecordingMockChart
from tests.test_first_hour_text import real_bank
from tests.test_mock_debrief_story import check_story, mock_round


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return real_bank()


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
