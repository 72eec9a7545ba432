"""After /forget, nothing is left (issue #36, item 5), through the terminal chat on a real SQLite file: the reply
says what was deleted, the charts and exports the terminal saved for the user are deleted too (another terminal
user's stay), and the next message greets and starts onboarding instead of making a default user silently."""

from __future__ import annotations

from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from bot.kernel.session import Onboarding
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for

DONE = {
    "en": "All your data has been deleted: 1 answer, 1 card in your deck, 1 interview, 1 reminder, your settings.",
    "zh": "你的全部数据已删除：1 次作答、题组里 1 张卡片、1 场面试、1 条提醒、你的设置。",
}
FILES = {"en": "Also deleted: 3 files this terminal saved for you (", "zh": "终端为你保存的 3 个文件也已删除（"}
WELCOME = {"en": "Welcome!", "zh": "欢迎！"}


@pytest.fixture
async def app(tmp_path: Path, bank: Bank) -> AsyncIterator[App]:
    a = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=bank, fuzz=False)
    yield a
    await a.close()


async def chat(app: App, folder: Path, who: str, *lines: str) -> str:
    out = StringIO()
    await run_console(app.service, who, StringIO("\n".join(lines) + "\n"), out, folder)
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_forget_deletes_the_saved_files_says_what_went_and_greets_the_next_message(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    folder = tmp_path / "exports"
    await app.service.user_for("console", "local", lang)
    await app.service.user_for("console", "other")
    await chat(app, folder, "other", "/drill", "an answer of someone else", "/stats")
    kept = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    printed = await chat(app, folder, "local", "/drill", "checking the data first", "/stats", "/export",
                         "/interview Acme | MLE | 2026-03-09 10:00")  # fmt: skip
    mine = sorted(p.name for p in folder.iterdir() if not p.name.startswith(".") and p.name not in kept)
    assert len(mine) == 3 and all(name in printed for name in mine)  # the chart, the JSON and the Markdown

    forgot = await chat(app, folder, "local", "/forget", "yes")
    after_yes = forgot.split("> yes", 1)[1]
    assert DONE[lang] in after_yes and FILES[lang] in after_yes
    assert all(name in after_yes for name in mine)
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == kept  # the other user's stay

    greeted = await chat(app, folder, "local", "/drill")
    assert WELCOME[lang] in greeted and "[1] English  [2] 中文" in greeted and "pipe-q-" not in greeted
    user = await app.service.user_for("console", "local")
    assert user.language == lang and not user.onboarded and await app.store.list_cards(user.id) == []
    assert isinstance(await app.store.get_session(user.id), Onboarding)
    again = await chat(app, folder, "local", "/forget", "yes")
    nothing = "saved no file for you" if lang == "en" else "终端没有为你保存过文件"
    assert nothing in again and ("your settings." if lang == "en" else "你的设置。") in again


async def test_a_new_user_is_not_greeted_twice_and_start_works_right_after_forget(app: App, tmp_path: Path) -> None:
    printed = await chat(app, tmp_path, "local", "/drill", "/forget", "yes", "/start", "1", "/help")
    after = printed.split("> yes", 1)[1]
    assert after.count("Welcome!") == 1 and "Which level are you preparing for?" in after
    assert after.split("> /help", 1)[1].startswith("\nCommands:")  # onboarding under way: commands work again
