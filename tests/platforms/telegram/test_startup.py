"""Start-up: the command menu in two languages, polling, webhook mode with a secret token, and
`python -m bot run` serving Telegram through TELEGRAM_BASE_URL until SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from telegram.error import InvalidToken

from bot.kernel.registry import REGISTRY
from bot.platforms.telegram.runtime import TelegramRuntime
from bot.platforms.telegram.settings import TelegramSettings
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness, MakeHarness
from tests.platforms.telegram.fake_bot_api import TOKEN, FakeBotApi
from tests.sqlite_template import sqlite_url

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_the_command_menu_is_registered_in_english_and_chinese(tg: Harness) -> None:
    en, zh = tg.server.commands[""], tg.server.commands["zh"]
    menu = [name for name, _ in REGISTRY.menu("en")]
    assert [c["command"] for c in en] == menu == [c["command"] for c in zh]
    assert menu == ["start", "drill", "mock", "review", "interview", "debrief", "jd", "notes", "apps", "stats",
                    "company", "settings", "lang", "help", "forget", "export", "privacy"]  # fmt: skip
    assert dict((c["command"], c["description"]) for c in zh)["drill"] == "下一题"
    await tg.server.wait_for(lambda: any(m == "getUpdates" for m, _ in tg.server.calls))
    methods = [m for m, _ in tg.server.calls]
    assert methods.index("getMe") < methods.index("deleteWebhook") < methods.index("getUpdates")  # polling


async def test_webhook_mode_checks_the_secret_token(make_telegram: MakeHarness) -> None:
    port = free_port()
    tg = await make_telegram(webhook_url=f"http://127.0.0.1:{port}/tg-hook", webhook_port=port, webhook_secret="s3cret")
    assert tg.server.webhook is not None
    assert (
        tg.server.webhook["url"] == f"http://127.0.0.1:{port}/tg-hook" and tg.server.webhook["secret_token"] == "s3cret"
    )
    assert "getUpdates" not in [m for m, _ in tg.server.calls]
    update = updates.text(901, "/help") | {"update_id": 77}
    async with httpx.AsyncClient() as client:
        refused = await client.post(
            f"http://127.0.0.1:{port}/tg-hook", json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"}
        )
        assert refused.status_code == 403
        ok = await client.post(
            f"http://127.0.0.1:{port}/tg-hook", json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
        )
        assert ok.status_code == 200
    (reply,) = await tg.server.wait_for(lambda: tg.server.to(901))
    assert reply.text.startswith("Commands:")


async def test_python_m_bot_run_serves_telegram_until_sigterm(tmp_path: Path) -> None:
    server = await FakeBotApi().start()
    env = {
        **os.environ,
        "TELEGRAM_TOKEN": TOKEN,
        "TELEGRAM_BASE_URL": server.base_url,
        "DATABASE_URL": sqlite_url(tmp_path),
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DISCORD_TOKEN", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        server.push(updates.text(902, "/start", "zh"))
        (welcome,) = await server.wait_for(lambda: server.to(902), timeout=60)
        assert "欢迎" in welcome.text and json.dumps(welcome.actions) == '["set:language:en", "set:language:zh"]'
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
        await server.stop()
    assert proc.returncode == 0, err.decode()[-2000:]


async def test_a_failed_start_leaves_nothing_running(make_telegram: MakeHarness) -> None:
    tg = await make_telegram()
    bad = TelegramSettings(
        token=SecretStr("999:wrong"), base_url=tg.server.base_url, base_file_url=tg.server.base_file_url
    )
    runtime = TelegramRuntime(tg.app.service, bad)
    with pytest.raises(InvalidToken):  # the fake answers getMe with 401, as Telegram does
        await runtime.start()
    assert not runtime.application.running and runtime.application.updater is not None
    assert not runtime.application.updater.running
