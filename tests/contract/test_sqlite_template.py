"""The migrated SQLite template the tests' fresh databases are copied from (tests/sqlite_template.py): the same
schema as the migrations make, at the head revision, with no rows; a copy never replaces a test's own file; the
template follows every change of the migrations folder."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from bot.storage.engine import make_engines
from bot.storage.migrate import MIGRATIONS, head_revision, upgrade
from tests.sqlite_template import migrated_copy, migrations_key, sqlite_url, template


def schema(path: Path) -> list[tuple[str, str, list[str]]]:
    """Each table's and index's statement as its sorted lines: Alembic's rebuild of a table (batch mode) writes
    its constraints in an order that varies from one migration run to the next, even within one process."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").fetchall()
    return [(kind, name, sorted(line.strip().rstrip(",") for line in sql.splitlines())) for kind, name, sql in rows]


def scalar(path: Path, sql: str) -> object:
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchone()[0]


async def test_a_copy_has_the_schema_the_migrations_make_at_head_and_no_rows(tmp_path: Path) -> None:
    copy = migrated_copy(tmp_path / "copy" / "bot.db")
    engines = make_engines(f"sqlite+aiosqlite:///{tmp_path / 'migrated.db'}")
    await upgrade(engines)  # the real migrations, from an empty file
    await engines.dispose()
    assert schema(copy) == schema(tmp_path / "migrated.db")
    assert len(schema(copy)) > 20
    assert scalar(copy, "SELECT version_num FROM alembic_version") == head_revision()
    assert scalar(copy, "SELECT count(*) FROM users") == 0
    assert scalar(copy, "PRAGMA journal_mode") == "wal"  # as the engines leave a file they created


def test_a_second_call_keeps_the_file_a_test_already_has(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    assert url == f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    with sqlite3.connect(tmp_path / "bot.db") as conn:
        conn.execute("CREATE TABLE written_by_the_test (x INTEGER)")
    assert sqlite_url(tmp_path) == url  # a restart on the same folder: the same file, the table still there
    assert "written_by_the_test" in [name for _, name, _ in schema(tmp_path / "bot.db")]
    assert "written_by_the_test" not in [name for _, name, _ in schema(template())]
    sqlite_url(tmp_path / "other", "b.db")
    assert "written_by_the_test" not in [name for _, name, _ in schema(tmp_path / "other" / "b.db")]


def test_the_template_is_keyed_by_every_file_of_the_migrations_folder(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    key = migrations_key(folder)
    assert key == migrations_key() and len(key) == 16
    assert template().name == f"{key}.db"
    (folder / "versions" / "__pycache__").mkdir(exist_ok=True)
    (folder / "versions" / "__pycache__" / "x.pyc").write_bytes(b"compiled")
    assert migrations_key(folder) == key  # compiled files are not the migrations
    new = folder / "versions" / "0099_new.py"
    new.write_text('revision = "0099"\ndown_revision = "0011"\n', encoding="utf-8")
    added = migrations_key(folder)
    assert added != key
    new.write_text('revision = "0099"\ndown_revision = "0011"\n# edited\n', encoding="utf-8")
    assert migrations_key(folder) not in {key, added}
    new.unlink()
    assert migrations_key(folder) == key
