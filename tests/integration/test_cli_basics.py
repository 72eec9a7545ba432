"""The command line's basics: help for every option, --version, a missing question bank stops the bot with
one line, and a start is quiet (Alembic's lines only at LOG_LEVEL=DEBUG)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import build_parser, main, version
from bot.config import Settings
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from tests.bot_env import bot_env
from tests.log_capture import captured_logs

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_and_option_has_help() -> None:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    missing = [] if any("--version" in a.option_strings for a in parser._actions) else ["--version"]
    for name, sub in commands.choices.items():
        if not any(choice.dest == name and choice.help for choice in commands._choices_actions):
            missing.append(name)
        missing += [f"{name} {a.dest}" for a in sub._actions if not a.help and not isinstance(a, argparse._HelpAction)]
    assert missing == []


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"python -m bot {version()}"
    assert version()[0].isdigit()


def test_a_missing_or_empty_bank_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty" / "stability").mkdir(parents=True)
    for folder, said in ((tmp_path / "nowhere", "no such folder"), (tmp_path / "empty", "no question files")):
        env = bot_env(CONTENT_DIR=str(folder), DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
        result = subprocess.run([sys.executable, "-m", "bot", "chat"], input="/drill\n", capture_output=True,
                                text=True, cwd=tmp_path, env=env, timeout=120)  # fmt: skip
        assert result.returncode == 2 and said in result.stderr and str(folder) in result.stderr
        assert "Traceback" not in result.stderr and "daily" not in result.stdout


async def test_migrations_log_one_line_unless_debug_asks_for_alembics(tmp_path: Path) -> None:
    for level in ("INFO", "DEBUG"):
        engines = make_engines(f"sqlite+aiosqlite:///{tmp_path / level}.db")
        with captured_logs(Settings(_env_file=None, log_level=level)) as out:  # type: ignore[call-arg]
            await upgrade(engines)
            await upgrade(engines)  # at the latest revision already: nothing to say
        await engines.dispose()
        logs = out.getvalue()
        assert logs.count("database schema upgraded from an empty database to") == 1
        if level == "INFO":
            assert len(logs.splitlines()) == 1, logs  # that line, and none of Alembic's
        else:
            assert "INFO alembic.runtime.migration: Running upgrade" in logs
