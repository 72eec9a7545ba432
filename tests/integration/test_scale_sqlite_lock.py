"""One bot process per SQLite file: a second `python -m bot run` on the same file stops with one clear
line and exit code 2; other processes and databases are unaffected."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage.process_lock import DatabaseInUse, hold_database, lock_path
from tests.bot_env import bot_env

ROOT = Path(__file__).resolve().parents[2]
HOLD = "from bot.storage.process_lock import hold_database; import sys; h = hold_database(sys.argv[1]); print('held')"


def _url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"


def test_a_second_bot_process_on_one_sqlite_file_is_refused_with_one_line(tmp_path: Path) -> None:
    held = hold_database(_url(tmp_path))  # this process is the running bot
    assert held is not None
    try:
        env = bot_env(DATABASE_URL=_url(tmp_path))
        for cmd in ("run", "chat"):
            result = subprocess.run([sys.executable, "-m", "bot", cmd], input="", capture_output=True, text=True,
                                    cwd=tmp_path, env=env, timeout=120)  # fmt: skip
            assert result.returncode == 2, result.stderr
            assert "another bot process" in result.stderr and str(tmp_path / "bot.db") in result.stderr
            assert "PostgreSQL" in result.stderr and "Traceback" not in result.stderr
    finally:
        held.close()


def test_the_lock_is_free_again_once_its_process_ends(tmp_path: Path) -> None:
    url = _url(tmp_path)
    first = subprocess.run([sys.executable, "-c", HOLD, url], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert first.stdout.strip() == "held"  # a process that held it and ended (the OS drops the lock)
    held = hold_database(url)
    assert held is not None
    with pytest.raises(DatabaseInUse, match="already using"):  # a second holder, even in this process
        hold_database(url)
    held.close()
    assert lock_path(tmp_path / "bot.db").exists()


def test_the_second_process_names_the_holders_pid(tmp_path: Path) -> None:
    held = hold_database(_url(tmp_path))
    assert held is not None
    try:
        second = subprocess.run([sys.executable, "-c", HOLD, _url(tmp_path)], capture_output=True, text=True,
                                cwd=ROOT, timeout=60)  # fmt: skip
        assert second.returncode != 0 and "DatabaseInUse" in second.stderr
        import os

        assert f"pid {os.getpid()}" in second.stderr
    finally:
        held.close()


def test_memory_and_postgres_need_no_lock() -> None:
    assert hold_database("sqlite+aiosqlite:///:memory:") is None
    assert hold_database("postgresql+asyncpg://u@localhost/db") is None
