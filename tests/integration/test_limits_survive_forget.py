"""Issue #34, High 6: no limit resets itself. The per-user LLM limit and the global token budget are kept per
platform identity over a rolling 24 hours (a /forget or a timezone change gives nothing back), on SQLite and
PostgreSQL, through the service with the real LLM grader against the fake OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.features.deps import Limits
from bot.grading.offline import OfflineGrader
from bot.grading.rubric_writer import LLMRubricWriter
from bot.kernel.bank import Bank
from bot.kernel.service import Service
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.conftest import example_question
from tests.fake_openai import FakeOpenAI
from tests.fakes import FakeClock
from tests.integration.test_llm_grader import LONG, make_grader

OVER_LIMIT = "used your AI gradings for the last 24 hours"
OVER_BUDGET = "budget for everyone"


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[SqlStore]:
    engines = make_engines(db_url)
    await upgrade(engines)
    yield SqlStore(engines)
    await engines.dispose()


def llm_service(server: FakeOpenAI, store: SqlStore, clock: FakeClock, **limits: Any) -> Service:
    q = example_question()  # the fake grades a long answer to it in one call (no second look)
    bank = Bank([q.model_copy(update={"id": f"stab-nan-debug-{i:03d}"}) for i in range(1, 13)])
    grader = make_grader(server, retries=0, deadline=5)
    deps = build_test_app(bank, grader=grader, estimator=OfflineGrader(), store=store, clock=clock, limits=Limits(fuzz=False, default_new_per_day=20, **limits), rubric_writer=LLMRubricWriter(grader)).deps  # fmt: skip
    return Service(deps)


async def answer(svc: Service, platform: str, external_id: str) -> str:
    """/drill and a long answer from this identity (whoever its user is now); the first reply's text."""
    uid = (await svc.user_for(platform, external_id)).id
    await svc.handle_text(uid, "/drill")
    return (await svc.handle_text(uid, LONG))[0].text


async def forget(svc: Service, platform: str, external_id: str) -> None:
    uid = (await svc.user_for(platform, external_id)).id
    await svc.handle_text(uid, "/forget")
    (done,) = await svc.handle_action(uid, "forget:yes")
    assert "deleted" in done.text
    fresh = (await svc.user_for(platform, external_id)).id
    await svc.handle_text(fresh, "/start")  # the blank user's first message is greeted


async def test_forget_does_not_give_the_daily_limit_again(server: FakeOpenAI, store: SqlStore) -> None:
    clock = FakeClock()
    svc = llm_service(server, store, clock, llm_daily_limit=3)
    for _ in range(3):
        assert OVER_LIMIT not in await answer(svc, "telegram", "42")
    assert OVER_LIMIT in await answer(svc, "telegram", "42")
    assert len(server.chat_requests()) == 3
    await forget(svc, "telegram", "42")
    assert OVER_LIMIT in await answer(svc, "telegram", "42")  # the same account: still over, whatever its user id
    assert len(server.chat_requests()) == 3
    clock.advance(hours=24, minutes=1)  # the calls are over 24 hours old: the account may make more
    assert OVER_LIMIT not in await answer(svc, "telegram", "42")
    assert len(server.chat_requests()) == 4
    assert OVER_LIMIT not in await answer(svc, "telegram", "43")  # another account has its own limit


async def test_a_timezone_change_does_not_give_the_daily_limit_again(server: FakeOpenAI, store: SqlStore) -> None:
    clock = FakeClock(datetime(2026, 3, 2, 8, 30, tzinfo=UTC))  # 08:30 UTC: 23:30 the day before in Anchorage
    svc = llm_service(server, store, clock, llm_daily_limit=3)
    for _ in range(3):
        assert OVER_LIMIT not in await answer(svc, "telegram", "42")
    clock.advance(hours=1)  # 09:30 UTC: 00:30 in Anchorage, a new local day there
    uid = (await svc.user_for("telegram", "42")).id
    (changed,) = await svc.handle_text(uid, "/settings tz America/Anchorage")
    assert "America/Anchorage" in changed.text
    for _ in range(3):
        assert OVER_LIMIT in await answer(svc, "telegram", "42")
    assert len(server.chat_requests()) == 3


async def test_forget_does_not_give_the_global_token_budget_again(server: FakeOpenAI, store: SqlStore) -> None:
    clock = FakeClock()
    svc = llm_service(server, store, clock, llm_daily_tokens=100)
    assert OVER_BUDGET not in await answer(svc, "telegram", "1")  # this grading alone uses more than 100 tokens
    assert await store.llm_tokens_since(clock.now().replace(hour=0)) > 100
    await forget(svc, "telegram", "1")
    assert OVER_BUDGET in await answer(svc, "discord", "2")  # another user, on another platform
    assert len(server.chat_requests()) == 1
