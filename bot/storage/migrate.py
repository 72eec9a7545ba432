"""Alembic migrations, run programmatically (`python -m bot db upgrade`, and on start).

A start on a database already at the latest revision (every start but the first after an upgrade) does not
import Alembic (0.3 s with Mako and Pygments): the revision in `alembic_version` is compared with the one
head of the migration files, read from their text. Anything else (an older revision, no table, a file this
reading cannot follow) goes through Alembic as before.
"""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy import Connection

from bot.storage.engine import Engines

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).parent / "migrations"
_ASSIGNMENT = re.compile(r"^(revision|down_revision)[ \t]*(?::[^=\n]*)?=[ \t]*([^\n]+)$", re.M)


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision(folder: Path = MIGRATIONS / "versions") -> str | None:
    """The single head of the migration files, from their `revision` and `down_revision` lines; None when
    there is not exactly one, or a file says something this reading does not follow (a merge, a computed id)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in folder.glob("*.py"):
        found = {m[1]: m[2].split("#")[0].strip() for m in _ASSIGNMENT.finditer(path.read_text(encoding="utf-8"))}
        try:
            revision, parent = ast.literal_eval(found["revision"]), ast.literal_eval(found["down_revision"])
        except (KeyError, ValueError, SyntaxError):
            return None
        if not isinstance(revision, str) or not (parent is None or isinstance(parent, str)):
            return None
        revisions.add(revision)
        if parent is not None:
            parents.add(parent)
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def _current(connection: Connection) -> str | None:
    if not sa.inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    return rows[0] if len(rows) == 1 else None


def _upgrade(connection: Connection, revision: str) -> None:
    if revision == "head" and (head := head_revision()) is not None and _current(connection) == head:
        return  # at the latest revision already: nothing for Alembic to do
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    before = MigrationContext.configure(connection).get_current_revision()
    command.upgrade(cfg, revision)
    after = MigrationContext.configure(connection).get_current_revision()
    if after != before:  # Alembic's own lines are quiet unless LOG_LEVEL=DEBUG: one line says what happened
        log.info("database schema upgraded from %s to %s", before or "an empty database", after)


async def upgrade(engines: Engines, revision: str = "head") -> None:
    await engines.run_sync_write(_upgrade, revision)
