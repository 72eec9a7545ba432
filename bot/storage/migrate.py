"""Alembic migrations, run programmatically (`python -m bot db upgrade`, and on start)."""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection

from bot.storage.engine import Engines

log = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def _upgrade(connection: Connection, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    before = MigrationContext.configure(connection).get_current_revision()
    command.upgrade(cfg, revision)
    after = MigrationContext.configure(connection).get_current_revision()
    if after != before:  # Alembic's own lines are quiet unless LOG_LEVEL=DEBUG: one line says what happened
        log.info("database schema upgraded from %s to %s", before or "an empty database", after)


async def upgrade(engines: Engines, revision: str = "head") -> None:
    await engines.run_sync_write(_upgrade, revision)
