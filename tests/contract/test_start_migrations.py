"""A start on a database at the latest revision skips Alembic's import (issue 37); any other database still
goes through Alembic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.engine import make_engines
from bot.storage.migrate import MIGRATIONS, alembic_config, head_revision, upgrade

ROOT = Path(__file__).resolve().parents[2]


def test_the_head_read_from_the_files_is_alembics() -> None:
    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head_revision() is not None and len(list((MIGRATIONS / "versions").glob("*.py"))) >= 7


def test_a_history_the_reading_cannot_follow_gives_no_head(tmp_path: Path) -> None:
    def write(name: str, body: str) -> None:
        (tmp_path / f"{name}.py").write_text(f'"""{name}"""\n{body}\nbranch_labels = None\n', encoding="utf-8")

    write("a", "revision = 'a1'\ndown_revision = None")
    write("b", "revision: str = \"b2\"  # typed, as newer templates write it\ndown_revision: str | None = 'a1'")
    assert head_revision(tmp_path) == "b2"
    write("c", "revision = 'c3'\ndown_revision = 'a1'")  # two heads
    assert head_revision(tmp_path) is None
    write("c", "revision = 'c3'\ndown_revision = ('a1', 'b2')")  # a merge
    assert head_revision(tmp_path) is None
    write("c", "revision = make_id()\ndown_revision = 'b2'")  # computed
    assert head_revision(tmp_path) is None


async def test_a_database_at_head_starts_without_alembic(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    code = (
        "import asyncio, sys\n"
        "from bot.storage.engine import make_engines\n"
        "from bot.storage.migrate import upgrade\n"
        "async def go():\n"
        f"    e = make_engines({url!r})\n"
        "    await upgrade(e)\n"
        "    await e.dispose()\n"
        "asyncio.run(go())\n"
        "print('alembic' in sys.modules)\n"
    )
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert first.stdout.strip() == "True", first.stderr  # an empty database: Alembic creates the schema
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert again.stdout.strip() == "False", again.stderr


async def test_an_older_database_is_still_upgraded_by_alembic(tmp_path: Path) -> None:
    engines = make_engines(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
    await upgrade(engines, "0006")
    await upgrade(engines)

    async def version(conn: AsyncConnection) -> list[str]:
        return list((await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).scalars())

    assert await engines.read(version) == [head_revision()]
    await engines.dispose()
