"""The first hour of a new user, in each language, as a scripted terminal chat (issue #18, items 3, 4, 5, 7).

The real app on a SQLite file and the real question bank, chart and console, driven through
`run_console` with piped input; a fake grader scores every answer 20 (rated Again) and a fake
clock fixes the day. The assertions read the transcript the way a user would.
"""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from bot.bootstrap import build_app
from bot.config import Settings
from bot.kernel.bank import Bank
from bot.kernel.i18n import MESSAGES
from bot.platforms.console.chat import run_console
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader
from tests.shipped import shipped_bank
from tests.sqlite_template import sqlite_url

CJK = "\u4e00-\u9fff"
OTHER_COMPANIES = ["Moonshot", "Alibaba", "Tencent", "Baidu", "Meituan", "Kuaishou"]


def settings_for(tmp_path: Path) -> Settings:
    return Settings(database_url=sqlite_url(tmp_path), _env_file=None)  # type: ignore[call-arg]


def script(lang: str) -> str:
    lines = [
        "/start",
        "中文" if lang == "zh" else "en",
        "engineer",
        "both",
        "Asia/Shanghai",
        "08:30",
        "/settings weekly sat",
        "/settings time 07:05",
        "/settings new 1",
        "/drill",
        "I would check the data first, then clip the gradient norm at 1.0 and lower the learning rate.",
        "/stats",
        "/drill",  # today's one new question is done
        "/settings new 2",
        "/drill",
        "/reveal",
        "/review ByteDance | How do you debug a loss that becomes NaN in the middle of training?",
        "/review 字节跳动 | How does ZeRO-3 partition optimizer states, gradients and parameters?",
        "/interview 字节 | Research engineer | 2026-02-28 14:00",  # within a week back: logged at once
        *(f"/interview {name} | RE | 2026-03-01 1{i}:00" for i, name in enumerate(OTHER_COMPANIES)),
        "/stats",
    ]
    return "\n".join(lines) + "\n"


async def journey(tmp_path: Path, lang: str) -> list[tuple[str, str]]:
    """(message, what the terminal printed for it) for each message of the script."""
    app = await build_app(
        settings_for(tmp_path), grader=FakeGrader(score=20), clock=FakeClock(), bank=shipped_bank(), fuzz=False
    )
    out = StringIO()
    try:
        await run_console(app.service, "local", StringIO(script(lang)), out, tmp_path / "exports")
    finally:
        await app.close()
    parts = re.split(r"^> (.*)$", out.getvalue(), flags=re.M)[1:]
    return list(zip(parts[::2], parts[1::2], strict=True))


def reply_to(turns: list[tuple[str, str]], prefix: str, nth: int = 0) -> str:
    return [out for msg, out in turns if msg.startswith(prefix)][nth]


def headers(text: str) -> list[str]:
    """The subtopic of each question header: "[topic / subtopic · type · difficulty]"."""
    return re.findall(r"^\[[^/\]]+/ (.+?) · ", text, flags=re.M)


def display_names(lang: str) -> set[str]:
    return {v[lang] for k, v in MESSAGES.items() if k.startswith("subtopic.")}


def recalls(text: str, word: str) -> list[int]:
    return [int(x) for x in re.findall(word + r" (\d+)%", text)]


async def test_first_hour_in_english(tmp_path: Path) -> None:
    turns = await journey(tmp_path, "en")
    everything = "".join(out for _, out in turns)
    # 3. plurals: one day, one answer, one question; and no "0 interviews"
    first_stats, last_stats = reply_to(turns, "/stats"), reply_to(turns, "/stats", 1)
    assert "- streak: 1 day (best 1 day)" in first_stats
    assert "- Training stability: 20 (1 answer)" in first_stats or "- Training pipeline: 20 (1 answer)" in first_stats
    assert "Real interviews logged: 7 interviews, 2 questions." in last_stats
    assert re.search(r"\b1 (days|answers|questions|interviews)\b", everything) is None
    assert "0 interviews" not in everything
    # 4. display names, never field names or raw ids
    assert "Saved: weekly summary is now Saturday." in reply_to(turns, "/settings weekly")
    assert "Saved: daily drill time is now 07:05." in reply_to(turns, "/settings time")
    assert "Saved: new questions per day is now 1." in reply_to(turns, "/settings new")
    saved = "".join(out for msg, out in turns if msg.startswith("/settings"))
    assert " = " not in saved and "daily_time" not in everything and "new_per_day" not in everything
    assert "you have had today's 1 new question." in reply_to(turns, "/drill", 1)
    shown = headers(reply_to(turns, "/drill")) + headers(reply_to(turns, "/drill", 2))
    assert len(shown) == 2 and set(shown) <= display_names("en"), shown
    assert re.search(r"\(saved .*progress-2026-03-02\.png\)", first_stats)
    # 7. recall after an Again is not 100%; ByteDance / 字节跳动 / 字节 are one company; every company is named
    assert recalls(first_stats, "recall") and all(r < 90 for r in recalls(first_stats, "recall"))
    assert "the chance you still remember them, on average over the next 7 days" in first_stats
    assert "- ByteDance: 1 interview, 2 questions" in last_stats and "字节" not in last_stats
    assert "- and 2 more companies: " in last_stats
    for name in ["Moonshot AI", "Alibaba", "Tencent", "Baidu", "Meituan", "Kuaishou"]:
        assert name in last_stats, name


async def test_first_hour_in_chinese(tmp_path: Path) -> None:
    turns = await journey(tmp_path, "zh")
    everything = "".join(out for _, out in turns)
    first_stats, last_stats = reply_to(turns, "/stats"), reply_to(turns, "/stats", 1)
    # 3. counts read naturally in Chinese too
    assert "- 连续练习：1 天（最长 1 天）" in first_stats
    assert "已记录的真实面试：7 场面试、2 道题。" in last_stats
    # 4. everything in Chinese: display names, the console's own lines
    assert "已保存每周回顾：周六。" in reply_to(turns, "/settings weekly")
    assert "已保存每日推送时间：07:05。" in reply_to(turns, "/settings time")
    assert "已保存每天新题数：1。" in reply_to(turns, "/settings new")
    saved = "".join(out for msg, out in turns if msg.startswith("/settings"))
    assert " = " not in saved and "weekly" not in saved and "new_per_day" not in everything
    assert "今天的 1 道新题也已完成" in reply_to(turns, "/drill", 1)
    shown = headers(reply_to(turns, "/drill")) + headers(reply_to(turns, "/drill", 2))
    assert len(shown) == 2 and set(shown) <= display_names("zh"), shown
    assert re.search(r"（已保存到 .*progress-2026-03-02\.png）", first_stats) and "(saved" not in everything
    # 5. typography: full-width colons, lists with 、, no space after 。 in the reference answer
    grade = reply_to(turns, "I would check")
    assert "分项：要点覆盖 20、结构 20、具体程度 20、实例 20、正确性 20" in grade and "分项:" not in grade
    assert "点评：" in grade and "追问：" in grade
    settings_echo = reply_to(turns, "08:30")
    assert "主题 训练稳定性、训练流程" in settings_echo and ", " not in settings_echo
    reference = reply_to(turns, "/reveal")
    assert "参考答案：" in reference and re.search(r"[。，；：？！][ \t]", reference) is None
    for line in everything.splitlines():
        assert re.search(f"[{CJK}][,:;?!]", line) is None, line
    # 7. recall after an Again, merged companies in the user's language, every company named
    assert recalls(first_stats, "记忆保持") and all(r < 90 for r in recalls(first_stats, "记忆保持"))
    assert "未来 7 天内平均还能记住的概率" in first_stats
    assert "- 字节跳动：1 场面试、2 道题" in last_stats and "ByteDance" not in last_stats
    assert "- 另有 2 家公司：" in last_stats
    for name in ["月之暗面", "阿里巴巴", "腾讯", "百度", "美团", "快手"]:
        assert name in last_stats, name


async def test_the_terminal_banner_is_in_the_users_language(tmp_path: Path) -> None:
    class Terminal(StringIO):
        def isatty(self) -> bool:
            return True

    for lang, banner in (("zh", "发送 /start 开始，/help 查看命令，/quit 退出。"), ("en", "Type /start to begin")):
        (tmp_path / lang).mkdir()
        tiny = Bank([make_question("pipe-1")])
        app = await build_app(settings_for(tmp_path / lang), grader=FakeGrader(), bank=tiny, fuzz=False)
        out = StringIO()
        try:
            await run_console(app.service, "local", Terminal("/quit\n"), out, tmp_path, lang)
        finally:
            await app.close()
        assert out.getvalue().startswith(banner), out.getvalue()
