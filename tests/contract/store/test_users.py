"""The users port's contract: users, identities, sessions, events claimed once, and forgetting a user."""

from __future__ import annotations

import asyncio

from bot.kernel.models import InterviewLog, Reminder
from bot.kernel.session import Answering, Idle, PickingReview
from bot.kernel.store_ports import Store
from tests.contract.store.helpers import DAY, NOW, attempt, new_card, new_user, personal_question, review_item


async def test_a_user_is_created_once_per_identity(store: Store) -> None:
    u = await new_user(store, "42", timezone="Europe/Berlin", language="zh")
    assert u.id > 0 and (u.timezone, u.language, u.created_at) == ("Europe/Berlin", "zh", NOW)
    again = await store.get_or_create_user("telegram", "42", u.model_copy(update={"id": 0, "language": "en"}))
    assert again == u  # the stored user, not the new defaults
    other = await new_user(store, "42", platform="discord")
    assert other.id != u.id
    assert await store.get_user(u.id) == u


async def test_get_user_is_none_for_an_unknown_id(store: Store) -> None:
    u = await new_user(store, "1")
    assert await store.get_user(u.id + 1000) is None


async def test_a_saved_user_reads_back_with_every_field(store: Store) -> None:
    u = await new_user(store, "1")
    changed = u.model_copy(update={"language": "zh", "topics": ["stability"], "paused": True, "onboarded": True,
                                   "quiet_start": "22:00", "quiet_end": "07:00", "weekly_day": None,
                                   "dm_opt_in": False, "new_per_day": 0, "daily_time": "20:30"})  # fmt: skip
    await store.save_user(changed)
    assert await store.get_user(u.id) == changed


async def test_identities_are_the_users_own(store: Store) -> None:
    a, b = await new_user(store, "100"), await new_user(store, "200", platform="discord")
    assert await store.identities(a.id) == [("telegram", "100")]
    assert await store.identities(b.id) == [("discord", "200")]
    assert await store.identities(b.id + 1000) == []


async def test_a_session_is_idle_until_set_and_each_users_own(store: Store) -> None:
    a, b = await new_user(store, "1"), await new_user(store, "2")
    assert await store.get_session(a.id) == Idle()
    await store.set_session(a.id, Answering(card_id=3))
    assert await store.get_session(a.id) == Answering(card_id=3)
    assert await store.get_session(b.id) == Idle()
    picking = PickingReview(item=4, personal="x", candidates=["pipe-zero-001", "stab-nan-debug-001"])
    await store.set_session(a.id, picking)  # replaced, not added
    assert await store.get_session(a.id) == picking
    await store.set_session(a.id, Idle(last_attempt=9))
    assert await store.get_session(a.id) == Idle(last_attempt=9)


async def test_a_user_and_their_session_are_read_together(store: Store) -> None:
    a, b = await new_user(store, "1"), await new_user(store, "2")
    changed = a.model_copy(update={"language": "zh", "topics": ["pipeline"], "quiet_start": "22:00"})
    await store.save_user(changed)
    assert await store.get_user_and_session(a.id) == (changed, Idle())  # no session stored yet: Idle
    await store.set_session(a.id, Answering(card_id=3))
    await store.set_session(b.id, Idle(last_attempt=5))
    assert await store.get_user_and_session(a.id) == (changed, Answering(card_id=3))
    assert await store.get_user_and_session(b.id) == (b, Idle(last_attempt=5))  # each user's own
    assert await store.get_user_and_session(b.id + 1000) is None
    await store.delete_user(a.id)
    assert await store.get_user_and_session(a.id) is None


async def test_an_event_is_claimed_once_even_concurrently(store: Store) -> None:
    results = await asyncio.gather(*(store.claim_event("telegram:update:7", NOW) for _ in range(5)))
    assert sorted(results) == [False, False, False, False, True]
    assert await store.claim_event("telegram:update:8", NOW) is True
    assert await store.claim_event("telegram:update:7", NOW + DAY) is False
    long_key = "discord:interaction:" + "9" * 300  # longer than any platform's id: still claimed once
    assert await store.claim_event(long_key, NOW) is True
    assert await store.claim_event(long_key, NOW) is False


async def test_deleting_a_user_removes_all_their_data_and_only_theirs(store: Store) -> None:
    gone, kept = await new_user(store, "gone"), await new_user(store, "kept")
    for u in (gone, kept):
        card = await new_card(store, u.id, "pipe-q-001")
        await store.add_attempt(attempt(u.id, card_id=card.id))
        await store.set_session(u.id, Answering(card_id=card.id))
        await store.log_review(review_item(u.id, question_id="pending"), personal_question(), {}, NOW)
        await store.add_interview(InterviewLog(id=0, user_id=u.id, company="A", at=NOW, created_at=NOW))
        await store.add_reminder(Reminder(id=0, user_id=u.id, kind="post_interview", due_at=NOW))
        await store.record_llm_call(u.id, "grading", 100, NOW)
    (personal,) = await store.list_personal_questions(gone.id)
    await store.delete_user(gone.id)
    assert await store.get_user(gone.id) is None and await store.identities(gone.id) == []
    assert await store.get_session(gone.id) == Idle()
    assert await store.list_cards(gone.id) == [] and await store.list_attempts(gone.id) == []
    assert await store.list_personal_questions(gone.id) == [] and await store.get_personal_question(personal.id) is None
    assert await store.list_interviews(gone.id) == [] and await store.list_review_items(gone.id) == []
    assert await store.list_reminders(gone.id) == []
    assert await store.count_llm_calls_since(gone.id, NOW - DAY) == 0
    assert await store.llm_tokens_since(NOW - DAY) == 200  # the forgotten user's call is kept, anonymised
    assert len(await store.list_cards(kept.id)) == 2 and len(await store.list_attempts(kept.id)) == 1
    assert len(await store.list_review_items(kept.id)) == 1 and len(await store.list_reminders(kept.id)) == 1
    assert await store.get_session(kept.id) != Idle()
    again = await new_user(store, "gone")  # the identity is free: a new user, with nothing of the old one
    assert await store.list_cards(again.id) == [] and await store.get_session(again.id) == Idle()
    assert await store.count_llm_calls_since(again.id, NOW - DAY) == 1  # but the account's usage still counts


async def test_a_deleted_user_is_not_brought_back_by_a_late_save(store: Store) -> None:
    u = await new_user(store, "1")
    await store.delete_user(u.id)
    await store.save_user(u.model_copy(update={"language": "zh"}))  # a handler that read the user before
    assert await store.get_user(u.id) is None
