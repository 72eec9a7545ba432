"""The cards port's contract: cards and their queue, attempts stored before grading, claims once only."""

from __future__ import annotations

from bot.kernel import srs
from bot.kernel.models import Rating
from bot.kernel.session import Answering, Idle
from bot.kernel.store_ports import Store
from tests.contract.store.helpers import DAY, HOUR, NOW, attempt, graded, new_card, new_user


async def test_a_card_is_created_once_per_user_and_question(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    card = await new_card(store, u.id, "pipe-q-001", due=NOW + DAY, created=NOW - HOUR)
    assert (card.user_id, card.question_id, card.due, card.created_at) == (u.id, "pipe-q-001", NOW + DAY, NOW - HOUR)
    assert card.is_new and not card.suspended and not card.personal and card.fsrs == srs.new_state(NOW - HOUR)
    assert await store.get_card(card.id) == card
    dup = await store.create_card(u.id, "pipe-q-001", {}, NOW, True, NOW)
    assert dup == card  # the existing card, unchanged
    theirs = await new_card(store, other.id, "pipe-q-001")
    assert theirs.id != card.id
    assert await store.card_for_question(u.id, "pipe-q-001") == card
    assert await store.card_for_question(other.id, "pipe-q-001") == theirs
    assert await store.card_for_question(u.id, "pipe-q-002") is None
    assert await store.get_card(theirs.id + 1000) is None


async def test_the_next_due_card_is_the_most_overdue_and_personal_first_among_equals(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    assert await store.next_due_card(u.id, NOW) is None
    await new_card(store, u.id, "later", due=NOW + HOUR)
    assert await store.next_due_card(u.id, NOW) is None  # nothing due yet
    await new_card(store, other.id, "theirs", due=NOW - 9 * DAY)
    hour = await new_card(store, u.id, "hour", due=NOW - HOUR)
    first = await new_card(store, u.id, "a", due=NOW - 2 * DAY)
    second = await new_card(store, u.id, "b", due=NOW - 2 * DAY)
    personal = await new_card(store, u.id, "p", due=NOW - 2 * DAY, personal=True)
    nxt = await store.next_due_card(u.id, NOW)
    assert nxt == personal
    await store.save_card(personal.model_copy(update={"suspended": True}))  # suspended: never due
    nxt = await store.next_due_card(u.id, NOW)
    assert nxt == first  # among equals, the older card
    await store.save_card(first.model_copy(update={"due": NOW + DAY}))
    await store.save_card(second.model_copy(update={"due": NOW + DAY}))
    assert await store.next_due_card(u.id, NOW) == hour
    assert await store.next_due_card(u.id, NOW - HOUR) == hour  # due exactly now counts


async def test_counts_of_due_and_new_cards(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    await new_card(store, u.id, "old", due=NOW - DAY, created=NOW - 2 * DAY)
    await new_card(store, u.id, "today", due=NOW, created=NOW - HOUR)
    await new_card(store, u.id, "mine", due=NOW - DAY, personal=True, created=NOW)  # personal: not "new"
    future = await new_card(store, u.id, "future", due=NOW + DAY, created=NOW)
    held = await new_card(store, u.id, "held", due=NOW - DAY, created=NOW)
    await store.save_card(held.model_copy(update={"suspended": True}))
    await new_card(store, other.id, "theirs", due=NOW - DAY, created=NOW)
    assert await store.count_due(u.id, NOW) == 3  # old, today (due exactly now), mine
    assert await store.count_due(u.id, NOW + DAY) == 4
    assert await store.count_due(u.id, NOW - 2 * DAY) == 0
    assert await store.count_cards_created_since(u.id, NOW - HOUR) == 3  # today (exactly since), future, held
    assert await store.count_cards_created_since(u.id, NOW + HOUR) == 0
    assert await store.count_cards_created_since(other.id, NOW - DAY) == 1
    assert await store.card_question_ids(u.id) == {"old", "today", "mine", "future", "held"}
    assert await store.card_question_ids(other.id + 1000) == set()
    assert [c.question_id for c in await store.list_cards(u.id)] == ["old", "today", "mine", "future", "held"]
    assert future in await store.list_cards(u.id)
    assert await store.list_cards(other.id + 1000) == []


async def test_a_saved_card_keeps_its_owner(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    card = await new_card(store, u.id, "q")
    state, due = srs.review(card.fsrs, Rating.GOOD, NOW, 0.9, False)
    changed = card.model_copy(update={"fsrs": state, "due": due, "is_new": False, "personal": True})
    await store.save_card(changed.model_copy(update={"user_id": other.id}))
    assert await store.get_card(card.id) == changed
    assert await store.list_cards(other.id) == []


async def test_an_attempt_reads_back_as_stored(store: Store) -> None:
    u = await new_user(store, "1")
    card = await new_card(store, u.id, "q")
    pending = await store.add_attempt(
        attempt(u.id, "q", card.id, answer="长答案 with 中文", card_before=card.fsrs, source="discord:guild:9:daily",
                transcript="heard", audio_seconds=12.5, is_follow_up=True)
    )  # fmt: skip
    assert pending.id > 0 and pending.status == "pending"
    assert await store.get_attempt(pending.id) == pending
    assert await store.get_attempt(pending.id + 1000) is None


async def test_an_attempt_is_opened_only_from_the_session_it_was_read_in(store: Store) -> None:
    u = await new_user(store, "1")
    card = await new_card(store, u.id, "q")
    answering = Answering(card_id=card.id)
    assert await store.open_attempt(attempt(u.id, "q", card.id), answering, Idle()) is None  # no session stored
    assert await store.list_attempts(u.id) == []
    await store.set_session(u.id, answering)
    opened = await store.open_attempt(attempt(u.id, "q", card.id), answering, Idle(last_attempt=1))
    assert opened is not None and await store.get_attempt(opened.id) == opened
    assert await store.get_session(u.id) == Idle(last_attempt=1)
    # a second process read the same session and answered too: it lost, and wrote nothing
    assert await store.open_attempt(attempt(u.id, "q", card.id, answer="again"), answering, Idle()) is None
    assert await store.list_attempts(u.id) == [opened]
    assert await store.get_session(u.id) == Idle(last_attempt=1)


async def test_finishing_an_attempt_writes_grade_card_and_session_together(store: Store) -> None:
    u = await new_user(store, "1")
    card = await new_card(store, u.id, "q")
    await store.set_session(u.id, Answering(card_id=card.id))
    pending = await store.add_attempt(attempt(u.id, "q", card.id, card_before=card.fsrs))
    state, due = srs.review(card.fsrs, Rating.GOOD, NOW, 0.9, False)
    done = pending.model_copy(
        update={"status": "graded", "grade": graded(77), "grader": "offline", "rating": 3, "graded_at": NOW + HOUR,
                "latency_ms": 12, "tokens": 5}
    )  # fmt: skip
    moved = card.model_copy(update={"fsrs": state, "due": due, "is_new": False})
    await store.finish_attempt(done, moved, Idle(last_attempt=pending.id))
    assert await store.get_attempt(pending.id) == done
    assert await store.get_card(card.id) == moved
    assert await store.get_session(u.id) == Idle(last_attempt=pending.id)
    # without a card or a session only the attempt changes; never its owner or creation time
    again = done.model_copy(update={"status": "regrade", "user_id": u.id + 1000, "created_at": NOW + DAY})
    await store.finish_attempt(again, None)
    assert await store.get_attempt(pending.id) == done.model_copy(update={"status": "regrade"})
    assert await store.get_card(card.id) == moved and await store.get_session(u.id) == Idle(last_attempt=pending.id)


async def test_attempts_are_listed_oldest_first_per_user(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    late = await store.add_attempt(attempt(u.id, created_at=NOW + HOUR))
    early = await store.add_attempt(attempt(u.id, created_at=NOW - HOUR))
    tie_a = await store.add_attempt(attempt(u.id, created_at=NOW))
    tie_b = await store.add_attempt(attempt(u.id, created_at=NOW))
    await store.add_attempt(attempt(other.id))
    assert [a.id for a in await store.list_attempts(u.id)] == [early.id, tie_a.id, tie_b.id, late.id]
    assert await store.list_attempts(other.id + 1000) == []


async def test_the_latest_attempt_at_a_card_skips_follow_ups(store: Store) -> None:
    u = await new_user(store, "1")
    card, other = await new_card(store, u.id, "q"), await new_card(store, u.id, "r")
    assert await store.latest_attempt_for_card(card.id) is None
    await store.add_attempt(attempt(u.id, "q", card.id, is_follow_up=True))
    assert await store.latest_attempt_for_card(card.id) is None
    first = await store.add_attempt(attempt(u.id, "q", card.id, created_at=NOW + HOUR))
    second = await store.add_attempt(attempt(u.id, "q", card.id, created_at=NOW))  # the later row, not the later time
    await store.add_attempt(attempt(u.id, "q", card.id, is_follow_up=True))
    await store.add_attempt(attempt(u.id, "r", other.id))
    assert first.id < second.id and await store.latest_attempt_for_card(card.id) == second


async def test_attempts_with_a_status_over_all_users_oldest_first(store: Store) -> None:
    a, b = await new_user(store, "1"), await new_user(store, "2")
    ids = [(await store.add_attempt(attempt(uid, status="regrade"))).id for uid in (b.id, a.id, b.id)]
    await store.add_attempt(attempt(a.id, status="graded", grade=graded(50)))
    assert [x.id for x in await store.attempts_with_status("regrade")] == ids
    assert [x.id for x in await store.attempts_with_status("regrade", limit=2)] == ids[:2]
    assert await store.attempts_with_status("regrading") == []


async def test_an_attempt_is_claimed_once(store: Store) -> None:
    u = await new_user(store, "1")
    a = await store.add_attempt(attempt(u.id, status="regrade"))
    assert await store.claim_attempt(a.id, "pending", "regrading") is False  # not in that status
    assert await store.claim_attempt(a.id, "regrade", "regrading") is True
    assert await store.claim_attempt(a.id, "regrade", "regrading") is False  # someone has it
    got = await store.get_attempt(a.id)
    assert got is not None and got.status == "regrading"
    assert await store.attempts_with_status("regrade") == []
    assert await store.claim_attempt(a.id + 1000, "regrade", "regrading") is False


async def test_llm_calls_are_counted_per_user_and_tokens_over_everyone(store: Store) -> None:
    a, b = await new_user(store, "llm-a"), await new_user(store, "llm-b")
    await store.record_llm_call(a.id, "grading", 900, NOW - DAY)  # yesterday
    await store.record_llm_call(a.id, "grading", 1200, NOW)
    await store.record_llm_call(a.id, "rubric", 700, NOW + HOUR)
    await store.record_llm_call(b.id, "grading", -5, NOW)  # a provider that reports nonsense counts as 0
    await store.record_llm_call(None, "regrade", 50, NOW)  # no user: in the tokens only
    assert await store.count_llm_calls_since(a.id, NOW) == 2  # from exactly `since`
    assert await store.count_llm_calls_since(a.id, NOW + 2 * HOUR) == 0
    assert await store.count_llm_calls_since(b.id, NOW) == 1
    assert await store.llm_tokens_since(NOW) == 1950
    assert await store.llm_tokens_since(NOW - 2 * DAY) == 2850
    assert await store.llm_tokens_since(NOW + DAY) == 0
