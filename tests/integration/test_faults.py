"""Faults around the database and odd input, each as a user or an operator meets it: a read-only or
unusable SQLite file at start (one line naming the path and the problem, exit 2), the file deleted or
replaced while the bot runs (the bot stops with a clear error instead of losing every later write to
the unlinked inode), and a button carrying a number too large for an id (a clear answer, no overflow)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.bank import Bank
from bot.kernel.i18n import t
from bot.kernel.models import Lang
from bot.kernel.parsing import MAX_ID
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import upgrade
from bot.storage.sqlite_file import DatabaseFileGone
from bot.storage.store import SqlStore
from bot.storage.tables import processed_events
from tests.app import build_test_app
from tests.bot_env import bot_env
from tests.fakes import FakeClock, FakeGrader
from tests.platforms.telegram import updates
from tests.platforms.telegram.fake_bot_api import TOKEN, FakeBotApi
from tests.sqlite_template import migrated_copy

ROOT = Path(__file__).resolve().parents[2]


def bot(*args: str, cwd: Path, env: dict[str, str], wrap: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    command = [*wrap, sys.executable, "-m", "bot", *args]
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


async def migrated(path: Path) -> None:
    migrated_copy(path)  # a database at the latest schema (tests/sqlite_template.py)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_one_line(result: subprocess.CompletedProcess[str], *parts: str) -> None:
    assert result.returncode == 2, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-3000:]
    for part in parts:
        assert part in lines[0], lines[0]


def read_only_mount_works() -> bool:
    """A user and mount namespace (util-linux unshare) in which a bind mount can be made read-only."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    with tempfile.TemporaryDirectory() as folder:
        script = f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && ! touch {folder}/x"
        probe = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, timeout=30)
        return probe.returncode == 0 and not os.path.exists(f"{folder}/x")


# -- a read-only or unusable database at start ------------------------------------------------------------


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through chmod 444/555; the read-only mount test covers it")
async def test_a_read_only_database_file_stops_start_up_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "data" / "bot.db"
    await migrated(db)
    before = digest(db)
    db.chmod(0o444)
    db.parent.chmod(0o555)
    try:
        result = bot("run", cwd=tmp_path, env=bot_env(DATABASE_URL=f"sqlite+aiosqlite:///{db}"))
    finally:
        db.parent.chmod(0o755)
        db.chmod(0o644)
    assert_one_line(result, str(db), "read-only")
    assert digest(db) == before


@pytest.mark.skipif(
    not read_only_mount_works(), reason="needs unshare -rm (user namespaces) to mount a folder read-only"
)
@pytest.mark.parametrize("command", ["run", "chat", "db upgrade"])
async def test_a_database_on_a_read_only_file_system_stops_start_up_with_one_line(tmp_path: Path, command: str) -> None:
    # works as root too: the kernel refuses writes on a read-only mount whoever asks (EROFS)
    folder = tmp_path / "ro"
    db = folder / "bot.db"
    await migrated(db)
    before = digest(db)
    mount = f'mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && exec "$@"'
    wrap = ("unshare", "-rm", "sh", "-c", mount, "sh")
    result = bot(*command.split(), cwd=tmp_path, env=bot_env(DATABASE_URL=f"sqlite+aiosqlite:///{db}"), wrap=wrap)
    assert_one_line(result, f"database {db}", "read-only")
    assert digest(db) == before


async def test_a_database_opened_read_only_stops_start_up_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    await migrated(db)
    before = digest(db)
    result = bot("run", cwd=tmp_path, env=bot_env(DATABASE_URL=f"sqlite+aiosqlite:///file:{db}?mode=ro&uri=true"))
    assert_one_line(result, f"database file:{db}", "is read-only (attempt to write a readonly database)")
    assert digest(db) == before


def test_a_file_that_is_not_a_database_or_a_folder_that_is_a_file_stops_start_up(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database " * 200)
    result = bot("run", cwd=tmp_path, env=bot_env(DATABASE_URL=f"sqlite+aiosqlite:///{notes}"))
    assert_one_line(result, str(notes), "is not an SQLite database")
    assert notes.read_text() == "not a database " * 200
    result = bot("chat", cwd=tmp_path, env=bot_env(DATABASE_URL=f"sqlite+aiosqlite:///{notes}/bot.db"))
    assert_one_line(result, f"{notes}/bot.db", "its folder cannot be created")


# -- the database file deleted or replaced while the bot runs ----------------------------------------------


async def insert_event(engines: Engines, key: str) -> None:
    async def unit(conn: AsyncConnection) -> None:
        await conn.execute(sa.insert(processed_events).values(key=key, created_at=FakeClock().now()))

    await engines.write(unit)


async def count_events(engines: Engines) -> int:
    async def unit(conn: AsyncConnection) -> int:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(processed_events))).scalar_one())

    return await engines.read(unit)


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_write_after_the_file_is_deleted_or_replaced_fails_loudly(tmp_path: Path, how: str) -> None:
    db = migrated_copy(tmp_path / "bot.db")
    engines = make_engines(f"sqlite+aiosqlite:///{db}")
    await upgrade(engines)
    try:
        await insert_event(engines, "before")
        assert engines.file_guard is not None and not engines.file_guard.lost.is_set()
        if how == "deleted":
            db.unlink()
        else:
            await migrated(tmp_path / "other.db")
            os.replace(tmp_path / "other.db", db)  # e.g. a restore copied over the live file
        with pytest.raises(DatabaseFileGone, match=f"{db} was {how}"):
            await insert_event(engines, "after")
        assert engines.file_guard.lost.is_set()
        with pytest.raises(DatabaseFileGone):  # and every later one, however it is batched
            await asyncio.gather(*(insert_event(engines, f"later-{i}") for i in range(5)))
    finally:
        await engines.dispose()


async def test_a_file_deleted_inside_a_write_is_rolled_back_not_acknowledged(tmp_path: Path) -> None:
    db = migrated_copy(tmp_path / "bot.db")
    engines = make_engines(f"sqlite+aiosqlite:///{db}")
    await upgrade(engines)

    async def unit(conn: AsyncConnection) -> None:
        await conn.execute(sa.insert(processed_events).values(key="inside", created_at=FakeClock().now()))
        db.unlink()

    try:
        await insert_event(engines, "kept")
        assert await count_events(engines) == 1  # the reader's connection stays open on this file
        with pytest.raises(DatabaseFileGone):
            await engines.write(unit)
        assert await count_events(engines) == 1  # rolled back, not committed to the unlinked file
    finally:
        await engines.dispose()


async def test_a_deleted_database_stops_the_running_bot_with_a_clear_error(tmp_path: Path) -> None:
    """`python -m bot run` serving Telegram at LOG_LEVEL=DEBUG (the libraries too): the file is deleted under it,
    the next update's write is refused, and the bot stops with exit code 1 and one clear line. Its log, every
    library's DEBUG lines included, never shows the token."""
    server = await FakeBotApi().start()
    db = tmp_path / "data" / "bot.db"
    env = bot_env(
        TELEGRAM_TOKEN=TOKEN,
        TELEGRAM_BASE_URL=server.base_url,
        DATABASE_URL=f"sqlite+aiosqlite:///{db}",
        LOG_LEVEL="DEBUG",
        LOG_LIBRARY_LEVEL="DEBUG",
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        server.push(updates.text(902, "/start"))
        (welcome,) = await server.wait_for(lambda: server.to(902), timeout=90)
        assert "Welcome" in welcome.text
        db.unlink()
        server.push(updates.button(902, "set:language:en"))
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:  # it did not stop by itself: the test fails below, and nothing is left running
            proc.kill()
            await proc.communicate()
        await server.stop()
    log = err.decode()
    assert proc.returncode == 1, log[-3000:]
    last = log.strip().splitlines()[-1]
    assert last.startswith(f"error: the database file {db} was deleted while the bot was running"), last
    assert f"CRITICAL bot.storage.sqlite_file: the database file {db} was deleted" in log
    assert TOKEN not in log and "/bot[redacted]" in log  # python-telegram-bot and httpx logged the URL, redacted
    assert not db.exists()  # nothing was written to a new file behind the operator's back


# -- a button with a number too large for an id -------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_huge_id_in_a_button_gets_a_clear_answer(sql: SqlStore, bank: Bank, lang: Lang) -> None:
    svc = build_test_app(bank, grader=FakeGrader(), store=sql, clock=FakeClock()).service
    user = await svc.user_for("test", "huge", lang)
    for action in ("ref:99999999999999999999999", f"ref:{MAX_ID + 1}", "rate:99999999999999999999999:3", "ref:-1"):
        (reply,) = await svc.handle_action(user.id, action)
        assert reply.text == t(lang, "unknown_command", command=action[:40]), action
    # the largest id that is accepted reaches the database (a 64-bit integer) and is simply not found
    (ref,) = await svc.handle_action(user.id, f"ref:{MAX_ID}")
    (rate,) = await svc.handle_action(user.id, f"rate:{MAX_ID}:3")
    assert ref.text == t(lang, "no_open_question") and rate.text == t(lang, "not_found")
