"""Issue #36 ("Promises kept") through discord.py's real event parsing against the fake Discord: typed direct
messages with the Chinese command names, and the other items of the issue as Discord users meet them."""

from __future__ import annotations

import pytest

from bot.grading.offline import OfflineGrader
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.test_commands import EPHEMERAL
from tests.platforms.telegram.test_promises_kept import PRIVACY, llm_facts


def sent(requests: list) -> list[str]:  # type: ignore[type-arg]
    return [r.content for r in requests if r.path.endswith("/messages")]


@pytest.mark.parametrize(("lang", "says"), [("en", "Commands:"), ("zh", "命令：（括号里是中文命令名")])
async def test_chinese_command_names_work_in_discord_direct_messages(bot: Harness, lang: str, says: str) -> None:
    await bot.message(p.dm_message(f"/lang {lang}", user_id=5))
    (helped, *_) = sent(await bot.message(p.dm_message("/帮助", user_id=5)))
    assert helped.startswith(says)
    (drilled, *_) = sent(await bot.message(p.dm_message("/练习", user_id=5)))
    assert "· pipe-q-000]" in drilled  # a question, its id in the header


@pytest.mark.parametrize(("lang", "asked"), [("en", "**Follow-up:** "), ("zh", "**追问：**")])
async def test_the_markdown_export_has_the_follow_up_question_its_answer_and_grade(
    bot: Harness, lang: str, asked: str
) -> None:
    await bot.message(p.dm_message(f"/lang {lang}", user_id=6))
    await bot.message(p.dm_message("/drill", user_id=6))
    requests = await bot.message(p.dm_message("the main answer", user_id=6))
    grade = next(r for r in requests if r.path.endswith("/messages"))
    follow_up = next(i for i in grade.custom_ids() if i.startswith("drill:fu:"))
    await bot.interact(p.button(follow_up, p.message_from(grade.json), user_id=6))
    await bot.message(p.dm_message("clip at 1.0 after measuring the norm", user_id=6))
    requests = await bot.message(p.dm_message("/export", user_id=6))
    (markdown,) = [blob for r in requests for name, blob in r.files.items() if name.endswith(".md")]
    text = markdown.decode("utf-8")
    assert f"{asked}What threshold would you choose, and why?\n\n> clip at 1.0 after measuring the norm" in text


@pytest.mark.parametrize(("locale", "says"), [("en-US", "it waits for you to press Start"), ("zh-CN", "请点“开始”")])
async def test_an_answer_at_the_mock_menu_is_told_what_the_menu_waits_for(bot: Harness, locale: str, says: str) -> None:
    menu = [
        r for r in await bot.interact(p.command("mock", user_id=7, locale=locale)) if r.json and "components" in r.json
    ]
    assert menu and "drill:mk:go" in menu[-1].custom_ids()
    requests = await bot.interact(p.command("answer", user_id=7, locale=locale, text="I would clip at 1.0"))
    told = [r for r in requests if r.json and says in (r.json.get("content") or "")]
    assert told and told[-1].custom_ids() == menu[-1].custom_ids()  # what it waits for, and its buttons again
    (dm, *_) = sent(await bot.message(p.dm_message("and lower the learning rate", user_id=7)))
    assert says in dm  # typed in direct messages: the same


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("zh-CN", "zh")])
async def test_privacy_on_discord_as_a_slash_command_and_typed_in_direct_messages(
    bot: Harness, locale: str, lang: str
) -> None:
    bot.service.deps.data_facts = llm_facts()
    (said,) = [r for r in await bot.interact(p.command("privacy", user_id=8, locale=locale)) if "/webhooks/" in r.path]
    assert all(part in said.content for part in PRIVACY[lang]) and said.flags == EPHEMERAL  # private in a server
    (typed, *_) = sent(await bot.message(p.dm_message("/隐私", user_id=8)))
    assert all(part in typed for part in PRIVACY[lang])


@pytest.mark.parametrize(("locale", "says"), [("en-US", "Score: 70/100 (Good)"), ("zh-CN", "得分：70/100")])
async def test_an_llm_grading_on_discord_is_the_deferred_response_edited_into_the_grade(
    bot: Harness, locale: str, says: str
) -> None:
    """The interaction is deferred at once ("thinking…" while the LLM grades); the grade edits that response, so the
    user never waits on nothing and the grade lands where the wait was shown."""
    bot.service.deps.grader.estimator = OfflineGrader()  # an LLM grades (the fake), the estimate its fallback
    await bot.interact(p.command("drill", user_id=9, locale=locale))
    requests = await bot.interact(p.command("answer", user_id=9, locale=locale, text="I clip the norm at 1.0."))
    callback, *rest = [r for r in requests if r.path.endswith("/callback") or "/webhooks/" in r.path]
    assert callback.path.endswith("/callback") and callback.json["type"] == 5  # deferred, first of all
    edited = rest[0]
    assert edited.method == "PATCH" and edited.path.endswith("/messages/@original") and says in edited.content
    assert edited.flags == EPHEMERAL
