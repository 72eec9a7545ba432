"""Typed session state: every mode through the SQL store (SQLite file, or PostgreSQL when configured) in
the JSON shape rows have always had, a stored row no model reads is Idle (logged, never a crash), and
the one accessor for the open question."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.bank import Bank
from bot.kernel.models import User
from bot.kernel.session import (
    Answering,
    ConfirmingForget,
    FollowingUp,
    Grading,
    Idle,
    InFlow,
    Onboarding,
    PickingReview,
    Session,
    open_card_id,
)
from bot.storage import tables as T
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

# Every mode, next to the dict the code wrote for it before the models (so rows stored then still read).
MODES: list[tuple[Session, dict[str, Any]]] = [
    (Idle(), {"mode": "idle"}),
    (Idle(last_attempt=5), {"mode": "idle", "last_attempt": 5}),
    (Answering(card_id=7), {"mode": "answering", "card_id": 7}),
    (
        FollowingUp(card_id=7, text="What threshold would you choose?", parent=3),
        {"mode": "follow_up", "card_id": 7, "text": "What threshold would you choose?", "parent": 3},
    ),
    (Grading(card_id=7), {"mode": "grading", "card_id": 7}),
    (Onboarding(step="timezone"), {"mode": "onboard", "step": "timezone"}),
    (ConfirmingForget(), {"mode": "confirm_forget"}),
    (
        InFlow(flow="interview", data={"company": "字节跳动", "role": ""}, step="when"),
        {"mode": "flow", "flow": "interview", "data": {"company": "字节跳动", "role": ""}, "step": "when"},
    ),
    (
        PickingReview(item=4, personal="personal:9", candidates=["stab-spike-001", "pipe-zero-001"]),
        {"mode": "review_pick", "item": 4, "personal": "personal:9", "candidates": ["stab-spike-001", "pipe-zero-001"]},
    ),
]

UNREADABLE: list[object] = [
    {"mode": "answering"},  # a field missing
    {"mode": "answering", "card_id": "7"},  # a field of the wrong type
    {"mode": "answering", "card_id": 7, "attempt": 2},  # a field no mode has
    {"mode": "teleporting"},  # an unknown mode
    {"card_id": 7},  # no mode
    {"mode": "onboard", "step": "favourite_colour"},
    {"mode": "flow", "flow": "salary", "data": {}, "step": "company"},
    # /review's pick as an early version stored it (the texts, not the logged item)
    {"mode": "review_pick", "company": "Acme", "question": "Why pre-LN?", "answer": "", "candidates": ["x"]},
    ["answering", 7],
    "answering",
    7,
]


async def _user(sql: SqlStore, name: str) -> int:
    return (await sql.get_or_create_user("test", name, User(id=0, created_at=NOW))).id


async def _write_raw(sql: SqlStore, user_id: int, state: object) -> None:
    """A row as another version of the bot (or a hand edit) left it: the JSON as given, no model involved."""

    async def unit(conn: AsyncConnection) -> None:
        await conn.execute(T.sessions.delete().where(T.sessions.c.user_id == user_id))
        await conn.execute(T.sessions.insert(), {"user_id": user_id, "state": state})

    await sql.engines.write(unit)


async def _stored_text(sql: SqlStore, user_id: int) -> str:
    async def unit(conn: AsyncConnection) -> str:
        query = sa.select(sa.cast(T.sessions.c.state, sa.Text)).where(T.sessions.c.user_id == user_id)
        return str((await conn.execute(query)).scalar_one())

    return await sql.engines.read(unit)


async def test_every_mode_round_trips_through_the_sql_store_in_the_old_json_shape(sql: SqlStore) -> None:
    for i, (session, old_form) in enumerate(MODES):
        uid = await _user(sql, f"writes-{i}")
        await sql.set_session(uid, session)
        assert await sql.get_session(uid) == session
        assert await _stored_text(sql, uid) == json.dumps(old_form)  # same keys, same order: a claim compares text
        older = await _user(sql, f"stored-before-{i}")
        await _write_raw(sql, older, old_form)
        assert await sql.get_session(older) == session


async def test_no_stored_session_is_idle(sql: SqlStore) -> None:
    uid = await _user(sql, "new")
    assert await sql.get_session(uid) == Idle()
    await _write_raw(sql, uid, {})
    assert await sql.get_session(uid) == Idle()


@pytest.mark.parametrize("raw", UNREADABLE, ids=[json.dumps(r, ensure_ascii=False)[:40] for r in UNREADABLE])
async def test_a_stored_session_no_mode_reads_is_idle_and_logged(
    sql: SqlStore, raw: object, caplog: pytest.LogCaptureFixture
) -> None:
    uid = await _user(sql, "corrupt")
    await _write_raw(sql, uid, raw)
    with caplog.at_level(logging.WARNING, logger="bot.kernel.session"):
        assert await sql.get_session(uid) == Idle()
    (record,) = [r for r in caplog.records if r.name == "bot.kernel.session"]
    assert f"user {uid}: unreadable session state" in record.getMessage() and "read as idle" in record.getMessage()


async def test_a_user_whose_stored_session_is_unreadable_is_not_stuck(sql: SqlStore, bank: Bank) -> None:
    service = build_test_app(bank, grader=FakeGrader(), store=sql, clock=FakeClock(NOW)).service
    user = await service.user_for("telegram", "1")
    await _write_raw(sql, user.id, {"mode": "answering", "card_id": "not a number"})
    (reply,) = await service.handle_text(user.id, "an answer to nothing")
    assert reply.text == "There is no open question. Send /drill to get one." and reply.kind != "error"
    (question, *_) = await service.handle_text(user.id, "/drill")
    assert question.kind == "question"
    (grade, *_) = await service.handle_text(user.id, "First I check the data, then the gradient norms.")
    assert grade.kind == "grade"


async def test_an_open_question_stored_before_the_models_is_answered_and_graded_once(sql: SqlStore, bank: Bank) -> None:
    """The answer claims the session by comparing its JSON text: a row in the old form must still match."""
    service = build_test_app(bank, grader=FakeGrader(), store=sql, clock=FakeClock(NOW)).service
    user = await service.user_for("telegram", "1")
    await service.handle_text(user.id, "/drill")
    card_id = open_card_id(await sql.get_session(user.id))
    assert card_id is not None
    await _write_raw(sql, user.id, {"mode": "answering", "card_id": card_id})
    (grade, *_) = await service.handle_text(user.id, "I check the data first.")
    assert grade.kind == "grade"
    (first,) = await sql.list_attempts(user.id)
    await _write_raw(
        sql, user.id, {"mode": "follow_up", "card_id": card_id, "text": "And the warm-up?", "parent": first.id}
    )
    (follow_up, *_) = await service.handle_text(user.id, "A linear warm-up over 2k steps.")
    assert follow_up.kind == "grade" and "That was the follow-up" in follow_up.text
    attempts = await sql.list_attempts(user.id)
    assert [a.is_follow_up for a in attempts] == [False, True] and attempts[1].status == "graded"
    assert await sql.get_session(user.id) == Idle(last_attempt=attempts[1].id)


def test_the_open_question_is_the_card_being_answered_or_followed_up() -> None:
    # in the order of MODES: only answering and follow_up have a question open
    assert [open_card_id(s) for s, _ in MODES] == [None, None, 7, 7, None, None, None, None, None]
    assert open_card_id(FollowingUp(card_id=8, text="Why?", parent=3)) == 8
    assert open_card_id(Grading(card_id=7)) is None  # claimed: its answer is in, nothing is open
    assert open_card_id(Idle(last_attempt=7)) is None
