"""Migration 0011 (issue #34 Medium 1): a database written before it keeps every row, index and foreign key, and
from then on never hands out an id again (SQLite: each table rebuilt AUTOINCREMENT; PostgreSQL: nothing to do,
its sequences never go back). The rebuild runs with SQLite's foreign keys off, so dropping the old `users` table
does not cascade to everyone's answers, and a migration that would leave a dangling reference is rolled back."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.session import Answering
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import alembic_config, upgrade
from bot.storage.store import SqlStore
from tests.contract.store.helpers import NOW, new_user
from tests.contract.store.test_ids import _everything
from tests.contract.store.test_mocks import _mock

REBUILT = (
    "users", "cards", "attempts", "personal_questions", "interviews", "review_items", "reminders", "pushes",
    "llm_calls", "transcriptions", "mock_sessions", "job_descriptions", "notebook_entries", "applications",
)  # fmt: skip


async def _rows(engines: Engines) -> dict[str, list[tuple[Any, ...]]]:
    async def read(conn: AsyncConnection) -> dict[str, list[tuple[Any, ...]]]:
        tables = [*REBUILT, "identities", "sessions"]
        return {t: sorted(map(tuple, (await conn.execute(sa.text(f"SELECT * FROM {t}"))).all()), key=repr)
                for t in tables}  # fmt: skip

    return await engines.read(read)


async def _schema(engines: Engines) -> dict[str, str]:
    async def read(conn: AsyncConnection) -> dict[str, str]:
        rows = await conn.execute(sa.text("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))
        return {name: " ".join(sql.split()) for name, sql in rows.all()}

    return await engines.read(read)


def _downgrade(conn: Connection, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    command.downgrade(cfg, revision)


async def test_rows_written_before_the_migration_are_kept_and_their_ids_never_come_back(empty_db_url: str) -> None:
    engines = make_engines(empty_db_url)
    await upgrade(engines, "0010")
    store = SqlStore(engines)
    await store.record_llm_call(None, "grading", 5, NOW)
    keep = await new_user(store, "keep")
    kept = await _everything(store, keep.id)
    await store.record_llm_call(keep.id, "grading", 100, NOW)
    await store.record_transcription(keep.id, 12.5, NOW)
    await store.set_session(keep.id, Answering(card_id=kept["card"]))
    gone = await new_user(store, "gone")  # the highest ids: deleted after the migration
    theirs = await _everything(store, gone.id)
    before = await _rows(engines)

    await upgrade(engines)

    assert await _rows(engines) == before  # every row, with its id, as it was
    sqlite = engines.is_sqlite
    if sqlite:
        schema = await _schema(engines)
        for table in REBUILT:
            assert " AUTOINCREMENT" in schema[table], table
        assert "AUTOINCREMENT" not in schema["identities"] + schema["sessions"]  # no surrogate id: untouched
        assert "ON DELETE CASCADE" in schema["attempts"] and "ON DELETE SET NULL" in schema["llm_calls"]
        assert "WHERE state = 'running'" in schema["ux_mock_sessions_running"]  # the partial index, kept
        assert "UNIQUE" in schema["ux_notebook_version"] and "ix_attempts_user_created" in schema
    store = SqlStore(engines)
    assert await store.create_mock(_mock(keep.id)) is None  # one running mock per user, still enforced
    await store.delete_user(gone.id)
    assert await store.get_card(kept["card"]) is not None and await store.get_attempt(kept["attempt"]) is not None
    assert await store.get_card(theirs["card"]) is None  # the foreign keys still cascade
    stranger = await new_user(store, "stranger")
    assert stranger.id > gone.id
    fresh = await _everything(store, stranger.id)
    assert all(fresh[kind] > theirs[kind] for kind in theirs), (fresh, theirs)

    if sqlite:  # and back: the tables lose AUTOINCREMENT and keep their rows
        count = len((await _rows(engines))["attempts"])
        await engines.run_sync_write(_downgrade, "0010")
        schema = await _schema(engines)
        assert all(" AUTOINCREMENT" not in schema[t] for t in REBUILT)
        assert len((await _rows(engines))["attempts"]) == count
        await upgrade(engines)
        schema = await _schema(engines)
        assert all(" AUTOINCREMENT" in schema[t] for t in REBUILT)
    await engines.dispose()


async def test_a_migration_leaving_a_dangling_reference_is_rolled_back(tmp_path: Any) -> None:
    engines = make_engines(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    await upgrade(engines)
    store = SqlStore(engines)
    user = await new_user(store, "1")

    def orphan(conn: Connection) -> None:
        conn.execute(sa.text("DELETE FROM users"))  # foreign keys are off: the identity is left dangling

    with pytest.raises(RuntimeError, match="identities"):
        await engines.run_sync_write(orphan)
    assert await store.get_user(user.id) == user  # nothing was changed
    assert await store.identities(user.id) == [("telegram", "1")]

    def cascade(conn: Connection) -> int:
        return int(conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one())

    assert await engines.run_sync_write(cascade) == 0  # off while a migration runs
    await store.delete_user(user.id)  # and on again for the store's own writes: the identity goes with the user
    assert await store.identities(user.id) == []
    await engines.dispose()
