"""What only the SQL store has (SQLite file, and PostgreSQL when TEST_POSTGRES_URL is set): migrations that
equal the tables, old event keys forgotten, naive datetimes refused. The behaviour it shares with the fake
is held by the contract suite in tests/contract/store/."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

from bot.kernel.models import User
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from bot.storage.tables import metadata

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def test_migrations_match_the_tables(empty_db_url: str) -> None:
    engines = make_engines(empty_db_url)
    await upgrade(engines)

    def diff(conn: Connection) -> list[object]:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))

    async with engines.writer.connect() as conn:
        assert await conn.run_sync(diff) == []
    await upgrade(engines)  # idempotent
    await engines.dispose()


async def test_event_keys_older_than_the_cutoff_are_forgotten(sql: SqlStore) -> None:
    assert await sql.claim_event("telegram:update:7", NOW - timedelta(days=2))
    assert await sql.claim_event("telegram:update:8", NOW)
    assert await sql.forget_events_before(NOW - timedelta(days=1)) == 1
    assert await sql.claim_event("telegram:update:7", NOW)  # forgotten: claimable again
    assert not await sql.claim_event("telegram:update:8", NOW)
    assert await sql.forget_events_before(NOW + timedelta(seconds=1)) == 2


async def test_old_event_keys_are_forgotten_in_batches_until_none_is_left(sql: SqlStore) -> None:
    for n in range(5):
        assert await sql.claim_event(f"telegram:update:{n}", NOW - timedelta(days=8, minutes=n))
    assert await sql.claim_event("telegram:update:new", NOW)
    assert await sql.forget_events_before(NOW - timedelta(days=7), batch=2) == 5  # 2 + 2 + 1
    assert await sql.forget_events_before(NOW - timedelta(days=7), batch=2) == 0
    assert not await sql.claim_event("telegram:update:new", NOW)
    assert await sql.claim_event("telegram:update:4", NOW)


async def test_naive_datetimes_are_refused(sql: SqlStore) -> None:
    u = await sql.get_or_create_user("t", "1", User(id=0, created_at=NOW))
    with pytest.raises(Exception, match="naive"):
        await sql.create_card(u.id, "q", {}, datetime(2026, 1, 1), False, NOW)
