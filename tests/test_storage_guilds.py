"""Study servers in the SQL store (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from bot.core.models import DIMENSIONS, Attempt, Grade, Guild, User
from bot.storage.store import SqlStore

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
SOURCE = "discord:guild:900:daily"
QUESTION_IDS = itertools.count(1)


async def test_guilds_are_saved_updated_and_listed(sql: SqlStore) -> None:
    g = Guild(id="900", channel_id="77", daily_time="20:00", timezone="Asia/Shanghai", language="zh", created_at=NOW)
    await sql.save_guild(g)
    await sql.save_guild(Guild(id="901", channel_id="78", enabled=False, created_at=NOW))
    assert await sql.get_guild("900") == g
    await sql.save_guild(g.model_copy(update={"channel_id": "79", "daily_time": "08:15"}))
    loaded = await sql.get_guild("900")
    assert loaded is not None and (loaded.channel_id, loaded.daily_time, loaded.created_at) == ("79", "08:15", NOW)
    assert [x.id for x in await sql.list_guilds()] == ["900"]
    assert [x.id for x in await sql.list_guilds(enabled_only=False)] == ["900", "901"]
    assert await sql.get_guild("nope") is None


def graded(score: int) -> Grade:
    return Grade(score=score, dimensions=dict.fromkeys(DIMENSIONS, score))


async def add(
    sql: SqlStore,
    uid: int,
    score: int | None,
    when: datetime,
    source: str | None = SOURCE,
    question_id: str | None = None,
    **kw: object,
) -> None:
    """One attempt; each on its own question unless `question_id` is given."""
    attempt = Attempt(
        id=0,
        user_id=uid,
        card_id=None,
        question_id=question_id or f"q{next(QUESTION_IDS)}",
        answer="a",
        status="graded" if score is not None else "self",
        grade=graded(score) if score is not None else None,
        source=source,
        created_at=when,
        **kw,  # type: ignore[arg-type]
    )
    await sql.add_attempt(attempt)


async def test_leaderboard_sums_scores_of_graded_answers_from_one_source(sql: SqlStore) -> None:
    ids = [(await sql.get_or_create_user("discord", str(n), User(id=0, created_at=NOW))).id for n in range(4)]
    a, b, c, d = ids
    await add(sql, a, 80, NOW)
    await add(sql, a, 50, NOW - timedelta(days=2))
    await add(sql, b, 90, NOW)
    await add(sql, b, 99, NOW, is_follow_up=True)  # follow-ups do not count
    await add(sql, c, None, NOW)  # self-rated: no score
    await add(sql, c, 100, NOW, source="discord:guild:other")  # another server
    await add(sql, d, 100, NOW, source=None)  # a DM answer
    await add(sql, d, 70, NOW - timedelta(days=10))  # before the window
    since = NOW - timedelta(days=7)
    assert await sql.leaderboard(SOURCE, since) == [(a, 130, 2), (b, 90, 1)]
    assert await sql.leaderboard(SOURCE, since, limit=1) == [(a, 130, 2)]
    assert await sql.leaderboard(SOURCE, NOW - timedelta(days=30)) == [(a, 130, 2), (b, 90, 1), (d, 70, 1)]
    assert await sql.leaderboard("discord:guild:other", since) == [(c, 100, 1)]
    assert await sql.leaderboard("discord:guild:empty", since) == []


async def test_leaderboard_ties_go_to_more_answers_then_the_earlier_member(sql: SqlStore) -> None:
    ids = [(await sql.get_or_create_user("discord", str(n), User(id=0, created_at=NOW))).id for n in range(3)]
    await add(sql, ids[2], 100, NOW)
    await add(sql, ids[1], 50, NOW)
    await add(sql, ids[1], 50, NOW)
    await add(sql, ids[0], 100, NOW)
    rows = await sql.leaderboard(SOURCE, NOW - timedelta(days=1))
    assert rows == [(ids[1], 100, 2), (ids[0], 100, 1), (ids[2], 100, 1)]


async def test_leaderboard_counts_each_members_best_answer_per_question_once(sql: SqlStore) -> None:
    """issue #16: ten answers to one question made ten times the points; a personal question scored."""
    a, b = [(await sql.get_or_create_user("discord", str(n), User(id=0, created_at=NOW))).id for n in range(2)]
    for _ in range(10):
        await add(sql, a, 100, NOW, question_id="pipe-zero-001")  # the reference answer pasted ten times
    for score in (40, 90, 60):
        await add(sql, b, score, NOW, question_id="pipe-zero-001")
    await add(sql, b, 55, NOW, question_id="stab-nan-debug-001")  # another day's question counts too
    await add(sql, a, 100, NOW, question_id="personal:7")  # a question the member wrote: never
    await add(sql, b, 100, NOW, question_id="pipe-zero-001", is_follow_up=True)
    assert await sql.leaderboard(SOURCE, NOW - timedelta(days=1)) == [(b, 145, 2), (a, 100, 1)]
    await add(sql, a, 100, NOW - timedelta(days=3), question_id="stab-nan-debug-001")  # before this window
    assert await sql.leaderboard(SOURCE, NOW - timedelta(days=1)) == [(b, 145, 2), (a, 100, 1)]
    assert await sql.leaderboard(SOURCE, NOW - timedelta(days=7)) == [(a, 200, 2), (b, 145, 2)]
