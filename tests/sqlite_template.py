"""Fresh SQLite databases that start at the latest schema: a copy of one database migrated once per test session.

Migrating an empty SQLite file through Alembic takes 0.12-0.24 s; a test's fresh database is instead a copy of a
template migrated by the real path (`make_engines` + `upgrade`) the first time one is asked for, in the session's
pytest temp folder, so the upgrade the app or the fixture runs next finds the schema at head (the 2 ms check of
bot/storage/migrate.py, without Alembic). The template is keyed by the bytes of the migrations folder: a migration
added or edited during a session is never missed. Tests of the migrations themselves start from empty files.
"""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.storage.engine import make_engines
from bot.storage.migrate import MIGRATIONS, upgrade

_home: list[Path] = []
_templates: dict[str, Path] = {}
_lock = threading.Lock()


def use_folder(factory: pytest.TempPathFactory) -> None:
    """Keep the templates in this session's pytest temp folder (called by a session fixture of tests/conftest.py)."""
    _home[:] = [factory.mktemp("sqlite-template", numbered=False)]


def migrations_key(folder: Path = MIGRATIONS) -> str:
    """A hash of every file of the migrations folder, by its path in it and its bytes."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        data = path.read_bytes()
        h.update(f"\0{path.relative_to(folder).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:16]


async def _migrate(path: Path) -> None:
    engines = make_engines(f"sqlite+aiosqlite:///{path}")
    try:
        await upgrade(engines)
    finally:
        await engines.dispose()


def template() -> Path:
    """The migrated template for the migrations as they are now (built on first use)."""
    key = migrations_key()
    with _lock:
        if key not in _templates:
            if not _home:  # outside a pytest session (a script importing the helpers)
                _home.append(Path(tempfile.mkdtemp(prefix="sqlite-template-")))
            path = _home[0] / f"{key}.db"
            path.unlink(missing_ok=True)
            # the real start-up path, on a loop of its own: the caller may be inside a running one
            with ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, _migrate(path)).result()
            left = [p.name for p in path.parent.glob(f"{path.name}-*")]
            assert not left, f"the template left {left} beside it: a copy of the file alone would miss them"
            _templates[key] = path
        return _templates[key]


def migrated_copy(path: Path) -> Path:
    """`path` as a fresh database at the latest schema (a copy of the template), unless it exists already: a test
    that builds its app twice on one folder (a restart) keeps the data of the first."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(template(), path)
    return path


def sqlite_url(folder: Path, name: str = "bot.db") -> str:
    """The URL of `folder / name`, a migrated database with no rows when it did not exist yet."""
    return f"sqlite+aiosqlite:///{migrated_copy(folder / name)}"
