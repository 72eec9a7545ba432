"""Commands and words a user tries (issue #36, item 4), through the terminal chat on a real SQLite file: every
command's Chinese name, listed in /help; the level names of either language; a timezone that is not one gets the
one it most likely meant; /quit and /exit end a piped chat; the drill's header names the question."""

from __future__ import annotations

from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.i18n import t
from bot.kernel.models import Lang
from bot.kernel.parsing import parse_line
from bot.kernel.registry import REGISTRY, help_text
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for


@pytest.fixture
async def app(tmp_path: Path, bank: Bank) -> AsyncIterator[App]:
    a = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=bank, fuzz=False)
    yield a
    await a.close()


async def chat(app: App, tmp_path: Path, lang: Lang, *lines: str) -> list[tuple[str, str]]:
    """Pipe `lines` through the terminal chat of a user in `lang`; (message, what was printed after it) each."""
    await app.service.user_for("console", "local", lang)
    out = StringIO()
    await run_console(app.service, "local", StringIO("\n".join(lines) + "\n"), out, tmp_path)
    pairs = []
    for block in out.getvalue().split("> ")[1:]:
        message, _, reply = block.partition("\n")
        pairs.append((message, reply))
    return pairs


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_chinese_command_names_work_in_the_terminal(app: App, tmp_path: Path, lang: Lang) -> None:
    (helped, stats, drilled) = await chat(app, tmp_path, lang, "/帮助", "/统计", "/练习")
    assert helped[1].startswith("Commands:" if lang == "en" else "命令")
    assert "Unknown command" not in stats[1] and "未知命令" not in stats[1]
    assert "pipe-" in drilled[1] or "stab-" in drilled[1]  # a question, its id in the header


def test_every_command_has_a_chinese_name_that_help_lists() -> None:
    english = ["start", "help", "drill", "skip", "reveal", "stats", "forget", "export", "pause", "resume", "mock",
               "review", "interview", "debrief", "jd", "notes", "apps", "company", "settings", "lang", "privacy"]  # fmt: skip
    zh_help = help_text("zh")
    for name in english:
        chinese = [k for k, v in REGISTRY.chinese_names().items() if v == name]
        assert chinese, name
        for alias in chinese:  # the same command, with or without words after it
            assert parse_line(1, f"/{alias} a | b") == parse_line(1, f"/{name} a | b"), alias
            assert parse_line(1, f"/{alias}") == parse_line(1, f"/{name}"), alias
        assert f"/{name}（/{chinese[0]}）" in zh_help, name  # the first Chinese name, beside the English one
    assert type(parse_line(1, "/帮助")) is c.ShowHelp and type(parse_line(1, "/练习")) is c.NextQuestion
    assert "/帮助 is /help" in help_text("en")
    assert isinstance(parse_line(1, "/复盘"), c.CareerCommand) and parse_line(1, "/复盘").tool == "debrief"  # type: ignore[attr-defined]
    assert parse_line(1, "/设置 级别 校招") == c.ChangeSetting(1, "level", "校招")


@pytest.mark.parametrize(
    ("typed", "saved"),
    [("校招", "campus"), ("工程师", "engineer"), ("研究员", "researcher"), ("Campus hire", "campus"),
     ("researcher", "researcher"), ("ENGINEER", "engineer")],
)  # fmt: skip
async def test_settings_level_takes_the_names_of_both_languages(
    app: App, tmp_path: Path, typed: str, saved: str
) -> None:
    ((_, reply),) = await chat(app, tmp_path, "zh", f"/settings level {typed}")
    assert reply.startswith(f"已保存级别：{t('zh', f'level.{saved}')}。")
    user = await app.service.user_for("console", "local")
    assert user.level == saved


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_timezone_that_is_not_one_gets_the_one_it_meant_and_a_press_saves_it(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    (refused, pressed) = await chat(app, tmp_path, lang, "/settings tz Asia/Beijing", "1")
    meant = "Did you mean Asia/Shanghai?" if lang == "en" else "你是不是想用 Asia/Shanghai？"
    assert meant in refused[1] and "[1] Asia/Shanghai" in refused[1]
    assert "Asia/Shanghai" in pressed[1]
    assert (await app.service.user_for("console", "local")).timezone == "Asia/Shanghai"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("America/San_Francisco", "America/Los_Angeles"), ("Asia/Shangai", "Asia/Shanghai"),
     ("asia/tokyo", "Asia/Tokyo"), ("Europe/Londn", "Europe/London"), ("Asia/Hangzhou", "Asia/Shanghai")],
)  # fmt: skip
async def test_region_city_forms_and_typos_get_a_suggestion(app: App, tmp_path: Path, typed: str, meant: str) -> None:
    ((_, reply),) = await chat(app, tmp_path, "en", f"/settings tz {typed}")
    assert f"Did you mean {meant}?" in reply


@pytest.mark.parametrize(
    ("typed", "zone"),
    [("Bangalore", "Asia/Kolkata"), ("首尔", "Asia/Seoul"), ("西雅图", "America/Los_Angeles"),
     ("Sydney", "Australia/Sydney"), ("Toronto", "America/Toronto"), ("hong kong", "Asia/Hong_Kong"),
     ("纽约", "America/New_York"), ("Berlin", "Europe/Berlin")],
)  # fmt: skip
async def test_common_city_names_are_their_timezone(app: App, tmp_path: Path, typed: str, zone: str) -> None:
    ((_, reply),) = await chat(app, tmp_path, "en", f"/settings tz {typed}")
    assert f"Saved: timezone is now {zone}." in reply


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_onboarding_offers_the_timezone_meant_and_moves_on_when_pressed(
    app: App, tmp_path: Path, lang: Lang
) -> None:
    pick = "1" if lang == "en" else "2"
    turns = await chat(app, tmp_path, lang, "/start", pick, "2", "3", "Asia/Beijing", "#1", "08:00")
    refused = turns[4][1]
    assert "[#1] Asia/Shanghai" in refused  # the step still waits for typed text: the button is #1
    assert ("08:30" in turns[5][1]) and "Asia/Shanghai" in turns[6][1]
    assert (await app.service.user_for("console", "local")).timezone == "Asia/Shanghai"


@pytest.mark.parametrize("word", ["/quit", "/exit", "/退出"])
async def test_quit_and_exit_end_a_piped_chat(app: App, tmp_path: Path, word: str) -> None:
    turns = await chat(app, tmp_path, "en", "/help", word, "/stats")
    assert [m for m, _ in turns] == ["/help", word]  # nothing after it is read
    assert turns[1][1] == "" and "Unknown command" not in "".join(r for _, r in turns)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_drill_header_names_the_question(app: App, tmp_path: Path, lang: Lang) -> None:
    ((_, question),) = await chat(app, tmp_path, lang, "/drill")
    header = question.splitlines()[0]
    assert header.endswith("· pipe-q-000] (new)" if lang == "en" else "· pipe-q-000]（新题）"), header
