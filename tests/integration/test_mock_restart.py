"""A mock interview survives a restart: a new Service over the same SQLite file takes the answer to the
open question or follow-up and goes on to the debrief, with every answer stored once."""

from __future__ import annotations

from pathlib import Path

from bot.kernel.service import Service
from bot.kernel.session import InMock
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from tests.fakes import FakeClock, FakeGrader
from tests.mock_helpers import PLAIN_ANSWER, answer_all, mock_deps
from tests.sqlite_template import sqlite_url


async def _service(url: str, clock: FakeClock) -> tuple[Service, SqlStore]:
    engines = make_engines(url)
    await upgrade(engines)
    store = SqlStore(engines)
    return Service(mock_deps(store, FakeGrader(score=72), clock)), store  # type: ignore[arg-type]


async def test_a_restart_mid_session_continues_where_it_stopped(tmp_path: Path) -> None:
    url, clock = sqlite_url(tmp_path), FakeClock()
    service, store = await _service(url, clock)
    uid = (await service.user_for("console", "local", "en")).id
    await service.handle_text(uid, "/mock stability 3")
    clock.advance(minutes=1)
    asked = await service.handle_text(uid, PLAIN_ANSWER)  # question 1: its follow-up is asked
    assert asked[-1].text.startswith("Follow-up")
    await store.engines.dispose()

    service, store = await _service(url, clock)  # the process restarted
    assert isinstance(await store.get_session(uid), InMock)
    clock.advance(minutes=1)
    nxt = await service.handle_text(uid, "my answer to the follow-up")
    assert nxt[-1].text.startswith("Question 2 of 3")
    replies = await answer_all(service, uid, clock)
    report = "\n".join(r.text for r in replies if r.kind == "report")
    assert "Overall: 72/100 · hire" in report and report.count("Q") >= 3
    [mock] = await store.list_mocks(uid)
    assert mock.state == "finished" and mock.summary is not None and len(mock.answered()) == 3
    attempts = await store.list_attempts(uid)
    assert len(attempts) == 6 and sum(not a.is_follow_up for a in attempts) == 3
    for a in attempts:
        if not a.is_follow_up:
            card = await store.get_card(a.card_id)  # type: ignore[arg-type]
            assert card is not None and not card.is_new and a.rating == 3
    await store.engines.dispose()
