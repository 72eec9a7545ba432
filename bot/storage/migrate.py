"""Alembic migrations, run programmatically (`python -m bot db upgrade`, and on start)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection

from bot.storage.engine import Engines

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def _upgrade(connection: Connection, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)


async def upgrade(engines: Engines, revision: str = "head") -> None:
    async with engines.writer.begin() as conn:
        await conn.run_sync(_upgrade, revision)
