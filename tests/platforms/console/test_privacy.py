"""/privacy (issue #36, item 8) through the terminal chat on a real SQLite file: what is stored, for how long, where
the answers go (read from the settings: the LLM's host and model, the transcriber), how to export and delete; in
/help, and by its Chinese name."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.bootstrap import build_app
from bot.config import Settings
from bot.grading.settings import LLMSettings
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock, FakeGrader
from tests.sqlite_template import sqlite_url

SAYS = {
    "en": {
        "head": "Your data and privacy\nWhat I store: your settings",
        "audio": "the transcript of each voice answer (not the audio)",
        "kept": "For how long: until you delete them; nothing expires on its own. (The ids of the messages I "
        "handled are kept 7 days",
        "llm": "each answer is graded by the LLM at api.deepseek.com, model deepseek-chat",
        "no_llm": "answers are graded on this server (the offline checklist); none is sent to an LLM.",
        "voice": "Voice answers are transcribed on this server.",
        "db": "a SQLite file on the server that runs this bot",
        "ways": "/export sends all of it as JSON",
        "help": "/privacy - what I store, for how long, where it goes",
        "forget": "it keeps only how many AI calls and seconds of voice transcription the account used (no "
        "content, the account under a one-way key), erased within two days",
    },
    "zh": {
        "head": "你的数据与隐私\n我保存的内容：你的设置",
        "audio": "语音回答的转写文字（不保存音频本身）",
        "kept": "保存多久：直到你删除为止，不会自动过期。（我处理过的消息编号会保留 7 天",
        "llm": "每个回答由 api.deepseek.com, model deepseek-chat 上的大模型评分",
        "no_llm": "回答在本服务器上评分（离线要点核对），不会发给任何大模型。",
        "voice": "语音回答在本服务器上转写。",
        "db": "运行这个机器人的服务器上的一个 SQLite 文件里",
        "ways": "/export 会把全部数据导出为 JSON",
        "help": "/privacy（/隐私）- 我保存什么、保存多久、发往哪里",
        "forget": "只保留这个账号用过多少次 AI 调用和多少秒语音转写（不含任何内容，账号只以单向哈希保存），两天内自动清除",
    },
}


async def privacy(tmp_path: Path, bank: Bank, lang: Lang, name: str, **settings: object) -> str:
    config = Settings(database_url=sqlite_url(tmp_path), _env_file=None, **settings)  # type: ignore[arg-type]
    app = await build_app(config, grader=FakeGrader(), clock=FakeClock(), bank=bank, fuzz=False, transcriber=None)
    try:
        await app.service.user_for("console", "local", lang)
        out = StringIO()
        await run_console(app.service, "local", StringIO(f"{name}\n/help\n"), out, tmp_path)
        return out.getvalue()
    finally:
        await app.close()


@pytest.mark.parametrize(("lang", "name"), [("en", "/privacy"), ("zh", "/隐私"), ("en", "/隐私"), ("zh", "/privacy")])
async def test_privacy_names_the_llm_from_the_settings(tmp_path: Path, bank: Bank, lang: Lang, name: str) -> None:
    llm = LLMSettings(base_url="https://api.deepseek.com/v1", model="deepseek-chat", api_key=SecretStr("k"))
    out = await privacy(tmp_path, bank, lang, name, llm=llm, transcribe_backend="local")
    says = SAYS[lang]
    for part in ("head", "audio", "kept", "llm", "voice", "db", "ways", "help"):
        assert says[part] in out, part
    assert "/forget" in out and says["no_llm"] not in out


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_privacy_without_an_llm_says_nothing_leaves_the_server(tmp_path: Path, bank: Bank, lang: Lang) -> None:
    out = await privacy(tmp_path, bank, lang, "/privacy")
    assert SAYS[lang]["no_llm"] in out and "api." not in out
