"""Issue #36 ("Promises kept") through the real python-telegram-bot against the fake Bot API: the Chinese command
names, the timezone a user meant, and the other items of the issue as Telegram users meet them."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import SecretStr

from bot.bootstrap import data_facts
from bot.config import Settings
from bot.features.deps import DataFacts
from bot.grading.offline import OfflineGrader
from bot.grading.settings import LLMSettings
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness, MakeHarness

CHAT = 612


@pytest.mark.parametrize(("code", "says"), [("en", "Commands:"), ("zh-hans", "命令：（括号里是中文命令名")])
async def test_chinese_command_names_work_on_telegram(tg: Harness, code: str, says: str) -> None:
    (helped,) = await tg.say(CHAT, "/帮助", language_code=code)
    assert helped.text.startswith(says) and "/帮助" in helped.text
    (settings,) = await tg.say(CHAT, "/设置 级别 研究员", language_code=code)
    assert "Researcher" in settings.text or "研究员" in settings.text


@pytest.mark.parametrize(
    ("code", "says"), [("en", "Did you mean Asia/Shanghai?"), ("zh-hans", "你是不是想用 Asia/Shanghai？")]
)
async def test_a_timezone_that_is_not_one_gets_a_button_for_the_one_meant(tg: Harness, code: str, says: str) -> None:
    (refused,) = await tg.say(CHAT, "/settings tz Asia/Beijing", language_code=code)
    assert says in refused.text and refused.actions == ["set:timezone:Asia/Shanghai"]
    (saved,) = await tg.press(CHAT, "set:timezone:Asia/Shanghai")
    assert "Asia/Shanghai" in saved.text
    user = await tg.app.store.get_user(await tg.user_id(CHAT))
    assert user is not None and user.timezone == "Asia/Shanghai"


@pytest.mark.parametrize(
    ("code", "deleted", "welcome"),
    [("en", "All your data has been deleted: 1 answer, 1 card in your deck, your settings.", "Welcome!"),
     ("zh-hans", "你的全部数据已删除：1 次作答、题组里 1 张卡片、你的设置。", "欢迎！")],
)  # fmt: skip
async def test_after_forget_the_next_message_is_greeted_not_a_silent_default_user(
    tg: Harness, code: str, deleted: str, welcome: str
) -> None:
    await tg.say(CHAT, "/drill", language_code=code)
    await tg.say(CHAT, "an answer", language_code=code)
    await tg.say(CHAT, "/forget", language_code=code)
    (done,) = await tg.press(CHAT, "forget:yes")
    assert done.text.startswith(deleted)
    (greeted,) = await tg.say(CHAT, "/drill", language_code=code)  # not a question for a default user
    assert greeted.text.startswith(welcome) and greeted.actions == ["set:language:en", "set:language:zh"]
    user = await tg.app.store.get_user(await tg.user_id(CHAT))
    assert user is not None and not user.onboarded and await tg.app.store.list_cards(user.id) == []


@pytest.mark.parametrize(("code", "asked"), [("en", "**Follow-up:** "), ("zh-hans", "**追问：**")])
async def test_the_markdown_export_has_the_follow_up_question_its_answer_and_grade(
    tg: Harness, code: str, asked: str
) -> None:
    await tg.say(CHAT, "/drill", language_code=code)
    (grade,) = await tg.say(CHAT, "the main answer", language_code=code)
    follow_up = next(a for a in grade.actions if a.startswith("fu:"))
    await tg.press(CHAT, follow_up)
    await tg.say(CHAT, "clip at 1.0 after measuring the norm", language_code=code)
    sent = await tg.say(CHAT, "/export", language_code=code)
    (md,) = [s.params["document"] for s in sent if s.method == "sendDocument" and b"# " in s.params["document"][:4]]
    text = md.decode("utf-8")
    assert f"{asked}What threshold would you choose, and why?\n\n> clip at 1.0 after measuring the norm" in text
    assert ("follow-up · score 70/100 (Good)" if code == "en" else "追问 · 得分 70/100（良好）") in text


@pytest.mark.parametrize(("code", "says"), [("en", "it waits for you to press Start"), ("zh-hans", "请点“开始”")])
async def test_a_typed_answer_at_the_mock_menu_is_told_what_the_menu_waits_for(
    tg: Harness, code: str, says: str
) -> None:
    (menu,) = await tg.say(CHAT, "/mock", language_code=code)
    assert menu.actions[0] == "mk:go"
    (typed,) = await tg.say(CHAT, "I would clip the gradient norm at 1.0", language_code=code)
    assert says in typed.text and "no open question" not in typed.text and "没有待回答" not in typed.text
    assert typed.actions == menu.actions  # the same buttons again
    (started, *_) = await tg.press(CHAT, "mk:go")
    assert "Mock interview" in started.text or "模拟面试" in started.text
    assert await tg.app.store.list_attempts(await tg.user_id(CHAT)) == []  # the typed text was never an answer


PRIVACY = {
    "en": ("Your data and privacy\nWhat I store:", "api.deepseek.com, model deepseek-chat", "/export", "/forget"),
    "zh": ("你的数据与隐私\n我保存的内容：", "api.deepseek.com, model deepseek-chat", "/export", "/forget"),
}


def llm_facts() -> DataFacts:
    """What /privacy reads from settings with an LLM configured (the app under test grades with a fake)."""
    llm = LLMSettings(base_url="https://api.deepseek.com/v1", model="deepseek-chat", api_key=SecretStr("k"))
    return data_facts(Settings(llm=llm, _env_file=None))  # type: ignore[call-arg]


@pytest.mark.parametrize(("code", "lang", "name"), [("en", "en", "/privacy"), ("zh-hans", "zh", "/隐私")])
async def test_privacy_says_what_is_stored_where_the_llm_is_and_how_to_export_and_delete(
    tg: Harness, code: str, lang: str, name: str
) -> None:
    tg.app.service.deps.data_facts = llm_facts()
    (said,) = await tg.say(CHAT, name, language_code=code)
    assert all(part in said.text for part in PRIVACY[lang])
    (helped,) = await tg.say(CHAT, "/help", language_code=code)
    assert ("/privacy - what I store" if lang == "en" else "/privacy（/隐私）- 我保存什么") in helped.text


async def test_the_command_menu_is_set_per_language_with_privacy_in_each(tg: Harness) -> None:
    menus = {code: {c["command"]: c["description"] for c in commands} for code, commands in tg.server.commands.items()}
    assert set(menus) == {"", "zh"}  # the default (English) menu and the Chinese one
    assert menus[""]["privacy"] == "What is stored, how long, where it goes"
    assert menus["zh"]["privacy"] == "保存什么、保存多久、发往哪里" and menus["zh"]["drill"] != menus[""]["drill"]


@pytest.mark.parametrize(("code", "shows"), [("en", "Reading your answer…"), ("zh-hans", "正在看你的回答……")])
@pytest.mark.parametrize("drafts", [True, False])
async def test_an_llm_grading_shows_progress_at_once_and_the_grade_replaces_it(
    make_telegram: MakeHarness, code: str, shows: str, drafts: bool
) -> None:
    """The harness shows "typing" after 30 s and a progress message after 60: what shows at once is the core's
    word that an LLM grading started. With drafts, a message draft (sendMessageDraft, which the installed
    python-telegram-bot has); without, one message that the grade is edited into."""
    tg = await make_telegram(drafts=drafts)
    tg.app.service.deps.grader.estimator = OfflineGrader()  # an LLM grades (the gate grader), the estimate its fallback
    await tg.say(CHAT, "/drill", language_code=code)
    before = len(tg.server.sent)
    (update_id,) = tg.server.push(updates.text(CHAT, "a slow answer about clipping", code))
    await asyncio.wait_for(tg.grader.started.wait(), 10)
    method = "sendMessageDraft" if drafts else "sendMessage"
    shown = await tg.server.wait_for(lambda: [s for s in tg.server.sent[before:] if s.method == method])
    assert shown[0].text == shows and not tg.done.get(update_id, asyncio.Event()).is_set()  # while it grades
    tg.grader.gate.set()
    await asyncio.wait_for(tg._event(update_id).wait(), 10)
    after = [s for s in tg.server.sent[before:] if s.method in ("sendMessage", "editMessageText")]
    graded = next(s for s in after if "70/100" in s.text)
    if drafts:  # the reply is sent after the draft, which it replaces
        assert graded.method == "sendMessage" and shown[0].params["draft_id"]
    else:  # the progress message becomes the grade
        assert graded.method == "editMessageText" and graded.message_id == shown[0].message_id
