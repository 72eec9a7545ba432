"""The store contract's backends: every store test here runs against the hand-written FakeStore, SqlStore
on a real SQLite file, and SqlStore on PostgreSQL when TEST_POSTGRES_URL is set (the shared test database,
emptied first, as tests/conftest.py does for the storage tests). The push port has no fake: its contract
runs on the SQL backends only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.kernel.store_ports import Store
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.pushes import PushStore
from bot.storage.store import SqlStore
from tests.conftest import BACKENDS, fresh_database
from tests.fakes import FakeStore


async def _sql_store(backend: str, tmp_path: Path) -> AsyncIterator[SqlStore]:
    engines = make_engines(await fresh_database(backend, tmp_path))
    await upgrade(engines)
    yield SqlStore(engines)
    await engines.dispose()


@pytest.fixture(params=["fake", *BACKENDS])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """The store under contract (the parameter names the backend in the test id)."""
    if request.param == "fake":
        yield FakeStore()
        return
    async for sql in _sql_store(request.param, tmp_path):
        yield sql


@pytest.fixture(params=BACKENDS)
async def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    async for sql in _sql_store(request.param, tmp_path):
        yield sql


@pytest.fixture
def pushes(sql_store: SqlStore) -> PushStore:
    """The push port over the same database as `sql_store` (which seeds its users and reminders)."""
    return PushStore(sql_store.engines)
