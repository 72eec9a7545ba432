"""The guilds port's contract: study servers and their leaderboards (best answer per question, once)."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

from bot.kernel.models import Guild
from bot.kernel.store_ports import Store
from tests.contract.store.helpers import DAY, NOW, attempt, graded, new_user, personal_question

SOURCE = "discord:guild:900:daily"
QUESTION_IDS = itertools.count(1)


async def test_guilds_are_saved_updated_and_listed(store: Store) -> None:
    g = Guild(id="900", channel_id="77", daily_time="20:00", timezone="Asia/Shanghai", language="zh", created_at=NOW)
    assert await store.list_guilds() == [] and await store.get_guild("900") is None
    await store.save_guild(Guild(id="901", channel_id="78", enabled=False, created_at=NOW))
    await store.save_guild(g)
    assert await store.get_guild("900") == g
    await store.save_guild(g.model_copy(update={"channel_id": "79", "daily_time": "08:15"}))
    loaded = await store.get_guild("900")
    assert loaded is not None and (loaded.channel_id, loaded.daily_time, loaded.created_at) == ("79", "08:15", NOW)
    assert [x.id for x in await store.list_guilds()] == ["900"]
    assert [x.id for x in await store.list_guilds(enabled_only=False)] == ["900", "901"]
    await store.save_guild(g.model_copy(update={"enabled": False}))
    assert await store.list_guilds() == []
    assert await store.get_guild("nope") is None


async def add(
    store: Store,
    uid: int,
    score: int | None,
    when: datetime,
    source: str | None = SOURCE,
    question_id: str | None = None,
    **kw: Any,
) -> None:
    """One attempt; each on its own question unless `question_id` is given."""
    qid = question_id or f"q{next(QUESTION_IDS)}"
    status = "graded" if score is not None else "self"
    grade = graded(score) if score is not None else None
    await store.add_attempt(attempt(uid, qid, status=status, grade=grade, source=source, created_at=when, **kw))


async def members(store: Store, n: int) -> list[int]:
    return [(await new_user(store, str(i), platform="discord")).id for i in range(n)]


async def test_the_leaderboard_sums_scores_of_graded_answers_from_one_source(store: Store) -> None:
    a, b, c, d = await members(store, 4)
    await add(store, a, 80, NOW)
    await add(store, a, 50, NOW - 2 * DAY)
    await add(store, b, 90, NOW)
    await add(store, b, 99, NOW, is_follow_up=True)  # follow-ups do not count
    await add(store, c, None, NOW)  # self-rated: no score
    await add(store, c, 100, NOW, source="discord:guild:other")  # another server
    await add(store, d, 100, NOW, source=None)  # a DM answer
    await add(store, d, 70, NOW - 10 * DAY)  # before the window
    since = NOW - 7 * DAY
    assert await store.leaderboard(SOURCE, since) == [(a, 130, 2), (b, 90, 1)]
    assert await store.leaderboard(SOURCE, since, limit=1) == [(a, 130, 2)]
    assert await store.leaderboard(SOURCE, NOW - 30 * DAY) == [(a, 130, 2), (b, 90, 1), (d, 70, 1)]
    assert await store.leaderboard(SOURCE, NOW) == [(b, 90, 1), (a, 80, 1)]  # from exactly `since`
    assert await store.leaderboard("discord:guild:other", since) == [(c, 100, 1)]
    assert await store.leaderboard("discord:guild:empty", since) == []


async def test_leaderboard_ties_go_to_more_answers_then_the_earlier_member(store: Store) -> None:
    ids = await members(store, 3)
    await add(store, ids[2], 100, NOW)
    await add(store, ids[1], 50, NOW)
    await add(store, ids[1], 50, NOW)
    await add(store, ids[0], 100, NOW)
    rows = await store.leaderboard(SOURCE, NOW - DAY)
    assert rows == [(ids[1], 100, 2), (ids[0], 100, 1), (ids[2], 100, 1)]


async def test_the_leaderboard_counts_each_members_best_answer_per_question_once(store: Store) -> None:
    """issue #16: ten answers to one question made ten times the points; a personal question scored."""
    a, b = await members(store, 2)
    mine = await store.add_personal_question(a, personal_question())
    for _ in range(10):
        await add(store, a, 100, NOW, question_id="pipe-zero-001")  # the reference answer pasted ten times
    for score in (40, 90, 60):
        await add(store, b, score, NOW, question_id="pipe-zero-001")
    await add(store, b, 55, NOW, question_id="stab-nan-debug-001")  # another day's question counts too
    await add(store, a, 100, NOW, question_id=mine.id)  # a question the member wrote: never
    await add(store, b, 100, NOW, question_id="pipe-zero-001", is_follow_up=True)
    assert await store.leaderboard(SOURCE, NOW - DAY) == [(b, 145, 2), (a, 100, 1)]
    await add(store, a, 100, NOW - 3 * DAY, question_id="stab-nan-debug-001")  # before this window
    assert await store.leaderboard(SOURCE, NOW - DAY) == [(b, 145, 2), (a, 100, 1)]
    assert await store.leaderboard(SOURCE, NOW - 7 * DAY) == [(a, 200, 2), (b, 145, 2)]


async def test_a_grade_still_doubted_after_its_second_look_counts_its_offline_estimate(store: Store) -> None:
    a, b, c = await members(store, 3)
    flagged = graded(95).model_copy(update={"offline_score": 30, "checked_twice": True, "flagged": True})
    cleared = graded(95).model_copy(update={"offline_score": 30, "checked_twice": True, "flagged": False})
    low = graded(20).model_copy(update={"offline_score": 60, "flagged": True})  # the estimate is higher: the grade
    await store.add_attempt(attempt(a, "q-flag", grade=flagged, source=SOURCE, created_at=NOW))
    await store.add_attempt(attempt(b, "q-flag", grade=cleared, source=SOURCE, created_at=NOW))
    await store.add_attempt(attempt(c, "q-flag", grade=low, source=SOURCE, created_at=NOW))
    assert await store.leaderboard(SOURCE, NOW - DAY) == [(b, 95, 1), (a, 30, 1), (c, 20, 1)]
