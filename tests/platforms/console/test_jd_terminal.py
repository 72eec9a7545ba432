"""/jd in the terminal (`python -m bot chat`'s ConsoleChat on the real app): a job description sent with
`/file PATH` while /jd waits, its focus chosen by number, and one pasted between triple-quote fences."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from bot.bootstrap import build_app
from bot.platforms.console.chat import ConsoleChat
from tests.fakes import FakeGrader
from tests.integration.test_app import settings_for
from tests.unit.test_jd_flows import EN_JD, ZH_JD, jd_bank


async def test_a_file_sent_after_jd_in_the_terminal(tmp_path: Path) -> None:
    app = await build_app(settings_for(tmp_path), grader=FakeGrader(), bank=jd_bank(), fuzz=False)
    try:
        out = StringIO()
        chat = ConsoleChat(app.service, "local", out, tmp_path, "en")
        (tmp_path / "jd.md").write_text(EN_JD, encoding="utf-8")
        await chat.send("/jd")
        assert "Paste a job description" in out.getvalue() and "[#1] Cancel" in out.getvalue()
        await chat.send(f"/file {tmp_path / 'jd.md'}")
        shown = out.getvalue()
        assert "- Parallelism: not practised yet" in shown and "[1] 7 days  [2] 14 days  [3] 30 days" in shown
        await chat.send("2")
        assert "Focus set on \u201cSenior ML Engineer, Distributed Training\u201d until" in out.getvalue()
        await chat.send("/file " + str(tmp_path / "missing.txt"))
        assert "No file I can read at" in out.getvalue()
        uid = (await app.service.user_for("console", "local")).id
        active = await app.store.active_jd(uid, app.service.deps.clock.now())
        assert active is not None and active.subtopics == ["parallelism", "mixed-precision"]
    finally:
        await app.close()


async def test_a_pasted_chinese_job_description_in_the_terminal(tmp_path: Path) -> None:
    app = await build_app(settings_for(tmp_path), grader=FakeGrader(), bank=jd_bank(), fuzz=False)
    try:
        out = StringIO()
        chat = ConsoleChat(app.service, "local", out, tmp_path, "zh")
        await chat.send("/jd")
        await chat.send(ZH_JD)  # several lines: what the terminal reads between triple-quote fences
        assert "- 并行策略：还没练过" in out.getvalue() and "题库未覆盖" in out.getvalue()
        await chat.send("/jd 列表")
        assert "1. 大模型训练工程师：并行策略、混合精度" in out.getvalue()
    finally:
        await app.close()
