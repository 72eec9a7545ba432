"""A new user's first hour in the terminal chat, in each language: the script is piped through the
console chat (in-process, on a real SQLite file, with the real date reader) and every reply read back.

What it holds: after /forget the next message starts a new user, greeted; a bare number answers an open question
(buttons there are pressed with #N) and presses a button of a menu that takes no text; typed yes / 好
confirm; a form left waiting is kept or, when replaced, reported with the line that logs it; "8pm" and
"早上八点" are daily times; a far-off interview date is asked about, not logged silently.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.kernel.bank import Bank
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for


class Terminal:
    def __init__(self, app: App, tmp_path: Path) -> None:
        self.app, self.exports = app, tmp_path / "exports"

    async def run(self, *lines: str) -> list[tuple[str, str]]:
        """Pipe `lines` through the console chat; (message, what the bot printed after it) for each."""
        out = StringIO()
        await run_console(self.app.service, "local", StringIO("\n".join(lines) + "\n"), out, self.exports)
        pairs = []
        for block in out.getvalue().split("> ")[1:]:
            message, _, reply = block.partition("\n")
            pairs.append((message, reply))
        assert [m for m, _ in pairs] == [x for x in lines if x.strip()]
        return pairs

    async def uid(self) -> int:
        return (await self.app.service.user_for("console", "local")).id


@pytest.fixture
async def terminal(tmp_path: Path, bank: Bank) -> Terminal:
    app = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=bank, fuzz=False)
    yield Terminal(app, tmp_path)  # type: ignore[misc]
    await app.close()


async def test_first_hour_in_english(terminal: Terminal) -> None:
    replies = await terminal.run(
        "/start", "1", "2", "3", "Asia/Shanghai", "8pm",  # English, engineer, both topics
        "/settings when 9",
        "/settings quiet 11pm-7am",
        "/drill",
        "2",  # the answer "2", not the second button
        "3",  # the grade's menu takes no text: its third button, the next question
        "#1",  # a question is open: #1 presses Skip
    )  # fmt: skip
    assert "daily drill at 20:00" in replies[5][1]
    usage = replies[6][1]
    assert "quiet 23:00-08:00" in usage and "weekly sun" in usage
    assert "Saved: quiet hours is now 23:00-07:00." in replies[7][1]
    assert "[#1] Skip  [#2] Reference answer" in replies[8][1]
    graded = replies[9][1]
    assert "Score: 70/100" in graded and "Reference answer:" not in graded and "Marked as 'Again'" not in graded
    assert "[1] Reference answer" in graded  # no text expected: bare numbers
    (attempt,) = await terminal.app.store.list_attempts(await terminal.uid())
    assert attempt.answer == "2" and attempt.status == "graded"
    assert "(new)" in replies[10][1] and "Skipped" in replies[11][1]

    replies = await terminal.run(
        "/interview", "Acme", "#1", "2020-03-03 14:00",  # company, Skip the role, a date six years back
        "/drill",  # replaces the waiting form
        "/interview Acme | ML engineer | tomorrow 14:00",
        "/interview", "Beta", "#1", "tomorrow 16:00",
        "/help",  # leaves the form open
        "yes",
        "/interview Gamma | MLE | 2020-03-03 14:00",
        "y",
    )  # fmt: skip
    doubt = replies[3][1]
    assert "was 2190 days ago" in doubt and "[1] Save  [2] Cancel" in doubt
    dropped = replies[4][1]
    assert "/interview you were filling in was not saved" in dropped
    assert "/interview Acme |  | 2020-03-03 14:00" in dropped and "Question" in dropped
    assert "Interview logged: Acme ML engineer, 2026-03-03 14:00" in replies[5][1]
    kept = replies[10][1]
    assert kept.startswith("Commands:") and "Your /interview is not saved yet; it is still open:" in kept
    assert "Beta" in kept and "[1] Save  [2] Cancel" in kept
    assert "Interview logged: Beta" in replies[11][1]
    assert "Interview logged" not in replies[12][1] and "days ago" in replies[12][1]
    assert "Interview logged: Gamma MLE, 2020-03-03 14:00" in replies[13][1]
    logs = await terminal.app.store.list_interviews(await terminal.uid())
    assert sorted(x.company for x in logs) == ["Acme", "Beta", "Gamma"]

    first, second = await terminal.run("/export", "/export")
    assert "drill-export-2026-03-02-1700.json" in first[1] and "drill-answers-2026-03-02-1700.md" in first[1]
    assert "drill-export-2026-03-02-1700-2.json" in second[1]  # the first is not overwritten
    markdown = (terminal.exports / "drill-answers-2026-03-02-1700.md").read_text(encoding="utf-8")
    assert "score 70/100 (Good)" in markdown and "> 2" in markdown

    replies = await terminal.run("/forget", "yes", "/help", "/start")
    assert "All your data has been deleted" in replies[1][1]
    assert replies[2][1].startswith("Welcome!") and "Welcome!" in replies[3][1]  # greeted, whatever the message
    assert await terminal.app.store.list_attempts(await terminal.uid()) == []


async def test_first_hour_in_chinese(terminal: Terminal) -> None:
    replies = await terminal.run(
        "/start", "2", "1", "1", "上海", "早上八点",  # 中文, campus, stability
        "/settings time",
        "/drill",
        "2",
        "/review", "字节", "ZeRO-3 怎么切分参数？",
        "/settings",  # leaves the form open
        "/interview 字节 | 算法 | 2020年3月3日 下午两点",  # replaces it, and asks about the date
        "确认",
        "/forget", "好",
        "/drill", "/start",
    )  # fmt: skip
    assert "每天 08:00 推送" in replies[5][1]
    assert "/settings time 08:30" in replies[6][1] and "早上八点" in replies[6][1]
    assert "[#1] 跳过  [#2] 参考答案" in replies[7][1]
    assert "得分：70/100" in replies[8][1] and "参考答案：" not in replies[8][1]
    kept = replies[12][1]
    assert "你的 /review 还没有保存，仍在进行：" in kept and "你当时是怎么回答的" in kept and "[#1] 跳过" in kept
    dropped = replies[13][1]
    assert "你刚才填写的 /review 没有保存" in dropped and "/review 字节 | ZeRO-3 怎么切分参数？" in dropped
    assert (
        "2020-03-03 14:00 是 2190 天前" in dropped and "已记录面试" not in dropped and "[1] 保存  [2] 取消" in dropped
    )
    assert "已记录面试：字节 算法，2020-03-03 14:00" in replies[14][1]
    assert "你的全部数据已删除" in replies[16][1]
    assert "went wrong" not in replies[17][1] and "出了点问题" not in replies[17][1]
    assert "欢迎！" in replies[17][1] and "欢迎！" in replies[18][1]  # a new user, greeted in the language it spoke
