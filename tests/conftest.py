"""Shared fixtures: a small bank, the core wired to fakes, and the storage backends."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.features.routes  # noqa: F401  (registers the features with the kernel, as the composition root does)
from bot.bootstrap import compose
from bot.content.loader import load_file
from bot.features.deps import Deps
from bot.kernel.bank import Bank
from bot.kernel.models import KeyPoint, Question, Rubric, Text, TextList
from bot.kernel.service import Service
from bot.shipped_bank import use_shipped_weights
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fake_openai import FakeOpenAI
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.sqlite_template import migrated_copy, use_folder

use_shipped_weights()  # the graders' term weights are the shipped bank's, as the composition root names them

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "content" / "stability" / "stab-nan-debug-001.yaml"


def make_question(
    qid: str,
    topic: str = "pipeline",
    level: str = "engineer",
    difficulty: int = 2,
    prompt_en: str | None = None,
    prompt_zh: str | None = None,
) -> Question:
    kp = [
        KeyPoint(
            id=f"k{i}",
            weight=1,
            text=Text(zh=f"要点{i}", en=f"point {i}"),
            keywords=TextList(zh=[f"关键{i}"], en=[f"keyword{i}"]),
        )
        for i in range(4)
    ]
    return Question(
        id=qid,
        topic=topic,
        subtopic="test",
        type="open",
        level=level,
        difficulty=difficulty,  # type: ignore[arg-type]
        prompt=Text(zh=prompt_zh or f"问题 {qid}", en=prompt_en or f"Question {qid}?"),
        rubric=Rubric(key_points=kp),
        reference_answer=Text(zh="参考答案", en="Reference answer."),
        follow_ups=[Text(zh="追问？", en="Follow-up?")],
        sources=["test"],
    )


def example_question() -> Question:
    q, problems = load_file(EXAMPLE)
    assert q is not None and not problems
    return q


@pytest.fixture
def bank() -> Bank:
    questions = [example_question()]
    questions += [make_question(f"pipe-q-{i:03d}", difficulty=1 + i % 5) for i in range(8)]
    questions += [
        make_question(
            "pipe-zero-001",
            prompt_en="How does ZeRO stage 3 partition optimizer states, "
            "gradients and parameters across data-parallel ranks?",
            prompt_zh="ZeRO-3 如何在数据并行的各个 rank 之间切分优化器状态、梯度和参数？",
        )
    ]
    return Bank(questions)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def grader() -> FakeGrader:
    return FakeGrader()


@pytest.fixture
def store() -> FakeStore:
    return FakeStore()


@pytest.fixture
def deps(store: FakeStore, bank: Bank, grader: FakeGrader, clock: FakeClock) -> Deps:
    """What the composition root builds over the fakes of the fixtures above (tests/app.py)."""
    return build_test_app(bank, grader=grader, store=store, clock=clock).deps


@pytest.fixture
def service(deps: Deps) -> Service:
    """The service the root composes over `deps` (a test module's own `deps` fixture included)."""
    return compose(deps)


POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgres"] if POSTGRES_URL else [])


@pytest.fixture(scope="session", autouse=True)
def _sqlite_template_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The migrated SQLite template (tests/sqlite_template.py) lives in this session's temp folder."""
    use_folder(tmp_path_factory)


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database with no rows: an SQLite file copied from the migrated template, or the PostgreSQL test
    database emptied (its schema made by the caller's `upgrade`, which finds the SQLite copy at head)."""
    yield await fresh_database(request.param, tmp_path)


@pytest.fixture(params=BACKENDS)
async def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database (no tables), for the tests of the migrations themselves."""
    yield await empty_database(request.param, tmp_path)


async def fresh_database(backend: str, tmp_path: Path) -> str:
    """The URL of a database with no rows on `backend` ("sqlite" or "postgres"): on SQLite a copy of the migrated
    template at tmp_path / "bot.db" (so the caller's `upgrade` is the check at head), on PostgreSQL emptied."""
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{migrated_copy(tmp_path / 'bot.db')}"
    return await empty_database(backend, tmp_path)


async def empty_database(backend: str, tmp_path: Path) -> str:
    """The URL of an empty database (no tables) on `backend`."""
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    assert POSTGRES_URL is not None
    await reset_postgres(POSTGRES_URL)
    return POSTGRES_URL


async def reset_postgres(url: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


@pytest.fixture
async def sql(db_url: str) -> AsyncIterator[SqlStore]:
    """The SQL store on a migrated database (an SQLite file copied from the template, or PostgreSQL when
    configured, migrated here)."""
    engines = make_engines(db_url)
    await upgrade(engines)
    yield SqlStore(engines)
    await engines.dispose()


@pytest.fixture
async def openai_server() -> AsyncIterator[FakeOpenAI]:
    """A fake OpenAI-compatible API on 127.0.0.1 (chat completions and audio transcriptions)."""
    fake = FakeOpenAI()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
def server(openai_server: FakeOpenAI) -> FakeOpenAI:
    return openai_server
