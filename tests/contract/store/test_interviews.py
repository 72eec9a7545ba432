"""The interviews port's contract: personal questions, interviews, review items (/review filed whole or not
at all), their counts for the caps, and reminders."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from bot.kernel.models import InterviewLog, Reminder, ReminderState
from bot.kernel.ports import WriteFailed
from bot.kernel.store_ports import Store
from bot.storage.store import SqlStore
from tests.contract.store.helpers import DAY, HOUR, NOW, new_card, new_user, personal_question, review_item
from tests.fakes import FakeStore


async def test_a_personal_question_gets_its_own_id_and_reads_back(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    first = await store.add_personal_question(u.id, personal_question("Why RMSNorm?"))
    theirs = await store.add_personal_question(other.id, personal_question("Why GQA?"))
    second = await store.add_personal_question(u.id, personal_question("Why RoPE?"))
    assert len({first.id, theirs.id, second.id, "pending"}) == 4
    assert first == personal_question("Why RMSNorm?").model_copy(update={"id": first.id})
    assert await store.get_personal_question(first.id) == first
    assert await store.list_personal_questions(u.id) == [first, second]
    assert await store.list_personal_questions(other.id) == [theirs]
    for missing in ("pipe-zero-001", "pending", "", first.id + "x", first.id + "0", first.id + "²"):
        assert await store.get_personal_question(missing) is None


async def test_interviews_are_listed_by_when_they_are_held(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    later = await store.add_interview(InterviewLog(id=0, user_id=u.id, company="B", role="MLE", at=NOW + DAY,
                                                   stage="onsite", notes="n", created_at=NOW))  # fmt: skip
    sooner = await store.add_interview(InterviewLog(id=0, user_id=u.id, company="A", at=NOW, created_at=NOW))
    tie = await store.add_interview(InterviewLog(id=0, user_id=u.id, company="C", at=NOW, created_at=NOW))
    await store.add_interview(InterviewLog(id=0, user_id=other.id, company="D", at=NOW, created_at=NOW))
    assert later.id > 0 and await store.list_interviews(u.id) == [sooner, tie, later]
    assert await store.list_interviews(other.id + 1000) == []


async def test_counts_for_the_caps_are_by_when_it_was_logged_per_user(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    for days, uid in ((0, u.id), (0, u.id), (1, u.id), (0, other.id)):
        when = NOW + days * DAY
        await store.add_review_item(review_item(uid, created_at=when))
        held = NOW - 9 * DAY
        await store.add_interview(InterviewLog(id=0, user_id=uid, company="A", at=held, created_at=when))
    assert await store.count_review_items(u.id) == 3 and await store.count_interviews(u.id) == 3
    assert await store.count_review_items(u.id, NOW + DAY) == 1  # from exactly `since`
    assert await store.count_interviews(u.id, NOW + DAY) == 1  # when logged, not when held
    assert await store.count_review_items(u.id, NOW + 2 * DAY) == 0
    assert await store.count_interviews(u.id, NOW - 8 * DAY) == 3
    assert await store.count_review_items(other.id) == 1 and await store.count_interviews(other.id) == 1


async def test_review_items_are_listed_oldest_first(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    late = await store.add_review_item(review_item(u.id, created_at=NOW + HOUR, answer_text="I said warmup"))
    early = await store.add_review_item(review_item(u.id, created_at=NOW - HOUR))
    tie = await store.add_review_item(review_item(u.id, created_at=NOW + HOUR))
    await store.add_review_item(review_item(other.id))
    assert late.answer_text == "I said warmup" and await store.list_review_items(u.id) == [early, late, tie]
    assert await store.list_review_items(other.id + 1000) == []


async def test_a_review_with_a_personal_question_files_question_card_and_item_together(store: Store) -> None:
    u = await new_user(store, "1")
    item, saved = await store.log_review(review_item(u.id, "pending", matched_bank=False), personal_question(),
                                         {"state": 1}, NOW)  # fmt: skip
    assert saved is not None and saved.id != "pending" and await store.get_personal_question(saved.id) == saved
    assert item.id > 0 and item.question_id == saved.id and await store.list_review_items(u.id) == [item]
    card = await store.card_for_question(u.id, saved.id)
    assert card is not None and (card.due, card.personal, card.is_new, card.fsrs) == (NOW, True, True, {"state": 1})
    assert await store.list_personal_questions(u.id) == [saved]


async def test_a_review_of_a_question_in_the_deck_makes_its_card_due_now(store: Store) -> None:
    u = await new_user(store, "1")
    card = await new_card(store, u.id, "pipe-zero-001", due=NOW + 9 * DAY)
    await store.save_card(card.model_copy(update={"suspended": True, "is_new": False}))
    item, saved = await store.log_review(review_item(u.id), None, {"state": 1}, NOW + HOUR)
    assert saved is None and item.question_id == "pipe-zero-001"
    again = await store.get_card(card.id)
    assert again == card.model_copy(update={"due": NOW + HOUR, "suspended": False, "personal": True, "is_new": False})
    assert len(await store.list_cards(u.id)) == 1 and await store.list_personal_questions(u.id) == []
    item, _ = await store.log_review(review_item(u.id, "stab-nan-debug-001"), None, {"state": 2}, NOW)
    new = await store.card_for_question(u.id, "stab-nan-debug-001")  # not in the deck yet: a new card
    assert new is not None and (new.due, new.personal, new.fsrs) == (NOW, True, {"state": 2})


async def fail_review_inserts(store: Store) -> None:
    """Make the last write of /review (its review entry) fail, as a full disk did."""
    if isinstance(store, FakeStore):
        store.fail_review_insert = True
        return
    assert isinstance(store, SqlStore)
    async with store.engines.writer.begin() as conn:
        if store.engines.is_sqlite:
            await conn.execute(text("CREATE TRIGGER full_disk BEFORE INSERT ON review_items "
                                    "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"))  # fmt: skip
        else:
            await conn.execute(text("CREATE FUNCTION full_disk() RETURNS trigger AS $$ BEGIN "
                                    "RAISE EXCEPTION 'No space left on device'; END $$ LANGUAGE plpgsql"))  # fmt: skip
            await conn.execute(text("CREATE TRIGGER full_disk BEFORE INSERT ON review_items "
                                    "FOR EACH ROW EXECUTE FUNCTION full_disk()"))  # fmt: skip


async def test_a_review_is_logged_whole_or_not_at_all(store: Store) -> None:
    """issue (hardening): on a full disk one /review left a card and a personal question but no review entry."""
    u = await new_user(store, "1")
    logged, saved = await store.log_review(review_item(u.id, "pending"), personal_question(), {}, NOW)
    deck = await new_card(store, u.id, "pipe-zero-001", due=NOW + DAY)
    await fail_review_inserts(store)
    with pytest.raises(WriteFailed) as failed:  # the core's own error: the write was rolled back
        await store.log_review(review_item(u.id, "pending", question_text="2?"), personal_question("2?"), {}, NOW)
    if isinstance(store, SqlStore):  # the database's own error is kept as the cause, for the log
        assert "No space left" in str(failed.value.__cause__) or "disk is full" in str(failed.value.__cause__)
    with pytest.raises(WriteFailed):
        await store.log_review(review_item(u.id, "pipe-zero-001"), None, {}, NOW)
    assert await store.list_review_items(u.id) == [logged]
    assert await store.list_personal_questions(u.id) == [saved]  # no second personal question ...
    assert [c.question_id for c in await store.list_cards(u.id)] == [logged.question_id, "pipe-zero-001"]  # ... or card
    assert await store.get_card(deck.id) == deck  # and the deck's card was not made due


async def test_a_review_item_is_relinked_only_for_its_own_user(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    item = await store.add_review_item(review_item(u.id, "pending", matched_bank=False, topic="stability",
                                                   subtopic="nan-loss", answer_text="mine"))  # fmt: skip
    moved = {"question_id": "stab-spike-001", "matched_bank": True, "subtopic": "loss-spikes"}
    assert await store.relink_review_item(item.model_copy(update={**moved, "user_id": other.id})) is False
    assert await store.list_review_items(u.id) == [item]
    assert await store.relink_review_item(item.model_copy(update={"id": item.id + 1000, **moved})) is False
    # only the link changes, whatever else the item passed in says
    relinked = item.model_copy(update={**moved, "company": "Other", "answer_text": "changed"})
    assert await store.relink_review_item(relinked) is True
    assert await store.list_review_items(u.id) == [item.model_copy(update=moved)]


async def test_reminders_are_listed_soonest_first(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    later = await store.add_reminder(Reminder(id=0, user_id=u.id, kind="post_interview", due_at=NOW + DAY,
                                              payload={"company": "Acme", "n": 1}))  # fmt: skip
    sooner = await store.add_reminder(Reminder(id=0, user_id=u.id, kind="post_interview", due_at=NOW))
    tie = await store.add_reminder(Reminder(id=0, user_id=u.id, kind="review_due", due_at=NOW))
    await store.add_reminder(Reminder(id=0, user_id=other.id, kind="post_interview", due_at=NOW))
    assert later.id > 0 and later.state == "pending" and await store.list_reminders(u.id) == [sooner, tie, later]
    assert await store.list_reminders(other.id + 1000) == []


async def test_only_the_users_pending_reminders_are_cancelled(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")

    async def add(user_id: int, state: ReminderState = "pending") -> Reminder:
        return await store.add_reminder(Reminder(id=0, user_id=user_id, kind="app_follow_up", due_at=NOW + DAY,
                                                 state=state, payload={"app_id": 1}))  # fmt: skip

    first, second, kept = await add(u.id), await add(u.id), await add(u.id)
    claimed, sent, theirs = await add(u.id, "claimed"), await add(u.id, "sent"), await add(other.id)
    ids = [first.id, second.id, second.id, claimed.id, sent.id, theirs.id, 999_999]
    assert await store.cancel_reminders(u.id, ids) == 2  # a repeated id counts once; a missing one is skipped
    states = {r.id: r.state for r in await store.list_reminders(u.id)}
    assert states == {first.id: "cancelled", second.id: "cancelled", kept.id: "pending",
                      claimed.id: "claimed", sent.id: "sent"}  # fmt: skip
    assert [r.state for r in await store.list_reminders(other.id)] == ["pending"]
    assert await store.cancel_reminders(u.id, [first.id]) == 0  # already cancelled
    assert await store.cancel_reminders(u.id, []) == 0


async def test_a_company_is_renamed_in_the_users_interviews_and_review_items_only(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    typo = await store.add_interview(InterviewLog(id=0, user_id=u.id, company="Tencnet", at=NOW, created_at=NOW))
    spaced = await store.add_interview(InterviewLog(id=0, user_id=u.id, company="tencnet ", at=NOW, created_at=NOW))
    kept = await store.add_interview(InterviewLog(id=0, user_id=u.id, company="Tencent", at=NOW + DAY, created_at=NOW))
    theirs = await store.add_interview(InterviewLog(id=0, user_id=other.id, company="Tencnet", at=NOW, created_at=NOW))
    item = await store.add_review_item(review_item(u.id, company="Tencnet", answer_text="mine"))
    near = await store.add_review_item(review_item(u.id, company="Tencnet Inc"))  # not one of the names passed
    their_item = await store.add_review_item(review_item(other.id, company="Tencnet"))
    assert await store.rename_company(u.id, {"Tencnet", "tencnet "}, "Tencent") == (2, 1)
    renamed = {"company": "Tencent"}
    assert await store.list_interviews(u.id) == [typo.model_copy(update=renamed), spaced.model_copy(update=renamed),
                                                 kept]  # fmt: skip
    assert await store.list_review_items(u.id) == [item.model_copy(update=renamed), near]  # nothing else changed
    assert await store.list_interviews(other.id) == [theirs] and await store.list_review_items(other.id) == [their_item]
    assert await store.rename_company(u.id, {"Tencnet"}, "Tencent") == (0, 0)  # nothing left by that name
    assert await store.rename_company(u.id, set(), "X") == (0, 0)
    assert await store.rename_company(other.id + 1000, {"Tencnet"}, "X") == (0, 0)
    assert await store.list_interviews(other.id) == [theirs]


async def fail_review_updates(store: Store) -> None:
    """Make the review items' half of a rename fail, as a full disk would."""
    if isinstance(store, FakeStore):
        store.fail_company_rename = True
        return
    assert isinstance(store, SqlStore)
    async with store.engines.writer.begin() as conn:
        if store.engines.is_sqlite:
            await conn.execute(text("CREATE TRIGGER full_disk BEFORE UPDATE ON review_items "
                                    "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"))  # fmt: skip
        else:
            await conn.execute(text("CREATE FUNCTION full_disk() RETURNS trigger AS $$ BEGIN "
                                    "RAISE EXCEPTION 'No space left on device'; END $$ LANGUAGE plpgsql"))  # fmt: skip
            await conn.execute(text("CREATE TRIGGER full_disk BEFORE UPDATE ON review_items "
                                    "FOR EACH ROW EXECUTE FUNCTION full_disk()"))  # fmt: skip


async def test_a_company_is_renamed_everywhere_or_nowhere(store: Store) -> None:
    u = await new_user(store, "1")
    log = await store.add_interview(InterviewLog(id=0, user_id=u.id, company="Tencnet", at=NOW, created_at=NOW))
    item = await store.add_review_item(review_item(u.id, company="Tencnet"))
    await fail_review_updates(store)
    with pytest.raises(WriteFailed):
        await store.rename_company(u.id, {"Tencnet"}, "Tencent")
    assert await store.list_interviews(u.id) == [log]  # the interviews' half was rolled back
    assert await store.list_review_items(u.id) == [item]
