"""The SQL store on a real SQLite file, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

from bot.core import srs
from bot.core.models import Attempt, Grade, InterviewLog, Question, Rating, Reminder, Rubric, Text, User
from bot.core.session import Answering, Idle
from bot.storage.engine import make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore
from bot.storage.tables import metadata

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)




def defaults() -> User:
    return User(id=0, created_at=NOW, timezone="Europe/Berlin")


async def test_migrations_match_the_tables(db_url: str) -> None:
    engines = make_engines(db_url)
    await upgrade(engines)

    def diff(conn: Connection) -> list[object]:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))

    async with engines.writer.connect() as conn:
        assert await conn.run_sync(diff) == []
    await upgrade(engines)  # idempotent
    await engines.dispose()


async def test_users_identities_and_sessions(sql: SqlStore) -> None:
    u = await sql.get_or_create_user("telegram", "42", defaults())
    again = await sql.get_or_create_user("telegram", "42", defaults())
    other = await sql.get_or_create_user("discord", "42", defaults())
    assert u.id == again.id != other.id
    await sql.save_user(u.model_copy(update={"language": "zh", "topics": ["stability"]}))
    loaded = await sql.get_user(u.id)
    assert loaded is not None and loaded.language == "zh" and loaded.topics == ["stability"]
    assert loaded.created_at == NOW
    await sql.set_session(u.id, Answering(card_id=3))
    assert await sql.get_session(u.id) == Answering(card_id=3)
    await sql.set_session(u.id, Idle())
    assert await sql.get_session(u.id) == Idle()
    assert await sql.identities(u.id) == [("telegram", "42")]


async def test_cards_queue_order_and_counts(sql: SqlStore) -> None:
    u = await sql.get_or_create_user("t", "1", defaults())
    a = await sql.create_card(u.id, "q-a", srs.new_state(NOW), NOW - timedelta(hours=1), False, NOW)
    b = await sql.create_card(u.id, "q-b", srs.new_state(NOW), NOW - timedelta(days=2), False, NOW)
    p = await sql.create_card(u.id, "personal:1", srs.new_state(NOW), NOW - timedelta(days=2), True, NOW)
    await sql.create_card(u.id, "q-c", srs.new_state(NOW), NOW + timedelta(days=2), False, NOW - timedelta(days=1))
    dup = await sql.create_card(u.id, "q-a", srs.new_state(NOW), NOW, False, NOW)
    assert dup.id == a.id
    first = await sql.next_due_card(u.id, NOW)
    assert first is not None and first.id == p.id  # most overdue; personal first among equals
    await sql.save_card(p.model_copy(update={"suspended": True}))
    nxt = await sql.next_due_card(u.id, NOW)
    assert nxt is not None and nxt.id == b.id
    assert await sql.count_due(u.id, NOW) == 2
    assert await sql.count_cards_created_since(u.id, NOW - timedelta(hours=1)) == 2  # personal not counted
    assert await sql.card_question_ids(u.id) == {"q-a", "q-b", "q-c", "personal:1"}


async def test_attempt_stored_then_graded_with_card_in_one_step(sql: SqlStore) -> None:
    u = await sql.get_or_create_user("t", "1", defaults())
    card = await sql.create_card(u.id, "q", srs.new_state(NOW), NOW, False, NOW)
    pending = await sql.add_attempt(
        Attempt(
            id=0,
            user_id=u.id,
            card_id=card.id,
            question_id="q",
            answer="长答案 with 中文",
            card_before=card.fsrs,
            created_at=NOW,
        )
    )
    stored = await sql.get_attempt(pending.id)
    assert stored is not None and stored.status == "pending" and stored.answer == "长答案 with 中文"
    grade = Grade(score=77, dimensions={"coverage": 77}, grader="offline", feedback="好")
    srs_rating = Rating.GOOD
    state, due = srs.review(card.fsrs, srs_rating, NOW, 0.9, False)
    await sql.finish_attempt(
        pending.model_copy(update={"status": "graded", "grade": grade, "rating": int(srs_rating), "graded_at": NOW}),
        card.model_copy(update={"fsrs": state, "due": due, "is_new": False}),
        Idle(last_attempt=pending.id),
    )
    assert await sql.get_session(u.id) == Idle(last_attempt=pending.id)
    done = await sql.get_attempt(pending.id)
    assert done is not None and done.grade == grade and done.graded_at == NOW
    reloaded = await sql.get_card(card.id)
    assert reloaded is not None and reloaded.due == due and not reloaded.is_new
    latest = await sql.latest_attempt_for_card(card.id)
    assert latest is not None and latest.id == pending.id
    assert [a.id for a in await sql.attempts_with_status("graded")] == [pending.id]


async def test_personal_questions_logs_and_delete(sql: SqlStore) -> None:
    u = await sql.get_or_create_user("t", "1", defaults())
    keep = await sql.get_or_create_user("t", "2", defaults())
    q = Question(
        id="x",
        topic="other",
        subtopic="interview",
        type="open",
        level="engineer",
        difficulty=3,
        prompt=Text.same("Why RMSNorm?"),
        rubric=Rubric(),
        reference_answer=Text.same(""),
        personal=True,
    )
    saved = await sql.add_personal_question(u.id, q)
    assert saved.id.startswith("personal:")
    assert await sql.get_personal_question(saved.id) == saved
    assert await sql.get_personal_question("personal:abc") is None
    await sql.add_interview(InterviewLog(id=0, user_id=u.id, company="A", at=NOW, created_at=NOW))
    await sql.add_reminder(Reminder(id=0, user_id=u.id, kind="post_interview", due_at=NOW, payload={"a": 1}))
    await sql.create_card(u.id, saved.id, srs.new_state(NOW), NOW, True, NOW)
    await sql.create_card(keep.id, "q", srs.new_state(NOW), NOW, False, NOW)
    await sql.delete_user(u.id)
    assert await sql.get_user(u.id) is None
    assert await sql.list_cards(u.id) == [] and await sql.list_interviews(u.id) == []
    assert await sql.list_reminders(u.id) == []
    assert len(await sql.list_cards(keep.id)) == 1


async def test_events_are_claimed_once_even_concurrently(sql: SqlStore) -> None:
    results = await asyncio.gather(*(sql.claim_event("telegram:update:7", NOW) for _ in range(5)))
    assert sorted(results) == [False, False, False, False, True]
    assert await sql.claim_event("telegram:update:8", NOW)
    assert await sql.forget_events_before(NOW + timedelta(seconds=1)) == 2


async def test_naive_datetimes_are_refused(sql: SqlStore) -> None:
    u = await sql.get_or_create_user("t", "1", defaults())
    with pytest.raises(Exception, match="naive"):
        await sql.create_card(u.id, "q", {}, datetime(2026, 1, 1), False, NOW)


async def test_a_review_item_is_relinked_only_for_its_own_user(sql: SqlStore) -> None:
    from bot.core.models import ReviewItem

    now = NOW
    uid = await sql.get_or_create_user("telegram", "relink", defaults())
    other = await sql.get_or_create_user("telegram", "relink-2", defaults())
    item = await sql.add_review_item(
        ReviewItem(id=0, user_id=uid.id, company="A", question_text="q?", question_id="personal:1",
                   matched_bank=False, topic="stability", subtopic="nan-loss", created_at=now)
    )  # fmt: skip
    moved = {"question_id": "stab-spike-001", "matched_bank": True, "subtopic": "loss-spikes"}
    assert await sql.relink_review_item(item.model_copy(update={**moved, "user_id": other.id})) is False
    assert (await sql.list_review_items(uid.id))[0].question_id == "personal:1"
    assert await sql.relink_review_item(item.model_copy(update=moved)) is True
    (after,) = await sql.list_review_items(uid.id)
    assert (after.question_id, after.matched_bank, after.subtopic, after.company) == (
        "stab-spike-001", True, "loss-spikes", "A"
    )


async def test_a_review_is_logged_whole_or_not_at_all(sql: SqlStore, db_url: str) -> None:
    """issue (hardening): on a full disk one /review left a card and a personal question but no review entry."""
    from sqlalchemy import text

    from bot.core.models import ReviewItem
    from bot.core.ports import WriteFailed

    u = await sql.get_or_create_user("telegram", "atomic", defaults())
    item = ReviewItem(id=0, user_id=u.id, company="A", question_text="q?", question_id="pending",
                      matched_bank=False, topic="stability", subtopic="nan-loss", created_at=NOW)  # fmt: skip
    personal = Question(id="pending", topic="stability", subtopic="nan-loss", type="open", level="engineer",
                        difficulty=3, prompt=Text.same("q?"), rubric=Rubric(), reference_answer=Text.same(""),
                        personal=True)  # fmt: skip
    logged, saved = await sql.log_review(item, personal, srs.new_state(NOW), NOW)
    assert saved is not None and logged.question_id == saved.id and logged.id > 0
    assert await sql.card_for_question(u.id, saved.id) is not None
    # now make the last insert fail, as a full disk would
    async with sql.engines.writer.begin() as conn:
        if db_url.startswith("sqlite"):
            await conn.execute(text("CREATE TRIGGER fail_review BEFORE INSERT ON review_items BEGIN SELECT RAISE(ABORT, 'disk full'); END"))
        else:
            await conn.execute(text("CREATE OR REPLACE FUNCTION fail_review() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql"))
            await conn.execute(text("CREATE TRIGGER fail_review BEFORE INSERT ON review_items FOR EACH ROW EXECUTE FUNCTION fail_review()"))
    with pytest.raises(WriteFailed) as failed:  # the core's own error: the write was rolled back
        await sql.log_review(item.model_copy(update={"question_text": "second?"}), personal, srs.new_state(NOW), NOW)
    assert "disk full" in str(failed.value.__cause__)
    assert [i.question_text for i in await sql.list_review_items(u.id)] == ["q?"]
    assert len(await sql.list_cards(u.id)) == 1  # nothing half-written: no second card ...
    async with sql.engines.writer.connect() as conn:  # ... and no second personal question
        n = (await conn.execute(text("SELECT count(*) FROM personal_questions"))).scalar_one()
    assert n == 1


async def test_llm_calls_are_counted_per_user_and_day_and_tokens_over_everyone(sql: SqlStore) -> None:
    a = await sql.get_or_create_user("test", "llm-a", defaults())
    b = await sql.get_or_create_user("test", "llm-b", defaults())
    await sql.record_llm_call(a.id, "grading", 900, NOW - timedelta(days=1))  # yesterday
    await sql.record_llm_call(a.id, "grading", 1200, NOW)
    await sql.record_llm_call(a.id, "rubric", 700, NOW + timedelta(minutes=1))
    await sql.record_llm_call(b.id, "grading", -5, NOW)  # a provider that reports nonsense counts as 0
    assert await sql.count_llm_calls_since(a.id, NOW) == 2
    assert await sql.count_llm_calls_since(b.id, NOW) == 1
    assert await sql.llm_tokens_since(NOW) == 1900
    assert await sql.llm_tokens_since(NOW - timedelta(days=2)) == 2800
    await sql.delete_user(a.id)
    assert await sql.count_llm_calls_since(a.id, NOW - timedelta(days=2)) == 0
