"""Ids that leave the process never repeat (issue #34 Medium 1): a user deleted by /forget, and everything of
theirs, leaves ids that no later row takes, even when the deleted rows held the highest ids (SQLite without
AUTOINCREMENT hands out max(id) + 1 again). A regrade, a button or a queued command that still carries an old
id then finds nothing, never a stranger's row."""

from __future__ import annotations

from typing import Any

from bot.kernel.models import InterviewLog, Reminder
from bot.kernel.store_ports import Store
from tests.contract.store.helpers import NOW, attempt, new_card, new_user, personal_question, review_item
from tests.contract.store.test_career import _app, _jd, _note
from tests.contract.store.test_mocks import _mock


async def _everything(store: Store, user_id: int) -> dict[str, int]:
    """One row of each kind whose id reaches a user (a button, a push, a regrade), owned by `user_id`."""
    card = await new_card(store, user_id, "pipe-q-001")
    answer = await store.add_attempt(attempt(user_id, card_id=card.id))
    personal = await store.add_personal_question(user_id, personal_question())
    interview = await store.add_interview(InterviewLog(id=0, user_id=user_id, company="A", at=NOW, created_at=NOW))
    review = await store.add_review_item(review_item(user_id))
    reminder = await store.add_reminder(Reminder(id=0, user_id=user_id, kind="post_interview", due_at=NOW))
    mock = await store.create_mock(_mock(user_id))
    jd = await store.add_jd(_jd(user_id))
    note = await store.add_note(_note(user_id))
    app = await store.add_application(_app(user_id))
    assert mock is not None
    found: dict[str, Any] = {
        "card": card.id, "attempt": answer.id, "interview": interview.id, "review": review.id,
        "reminder": reminder.id, "mock": mock.id, "jd": jd.id, "note": note.id, "application": app.id,
    }  # fmt: skip
    found["personal"] = int(personal.id.removeprefix("personal:"))  # a personal question's id is "personal:<n>"
    return found


async def test_a_forgotten_users_ids_are_never_handed_out_again(store: Store) -> None:
    await new_user(store, "old")  # an earlier user: the forgotten one's ids are the highest, not the only ones
    gone = await new_user(store, "A")
    theirs = await _everything(store, gone.id)
    await store.delete_user(gone.id)

    again = await new_user(store, "A")  # the same account after /forget: a new user
    stranger = await new_user(store, "C")
    assert again.id > gone.id and stranger.id > gone.id
    assert await store.get_user(gone.id) is None
    for owner in (again, stranger):
        fresh = await _everything(store, owner.id)
        for kind, old in theirs.items():
            assert fresh[kind] > old, (kind, fresh[kind], old)  # a stranger's row never takes the forgotten id
    assert await store.get_attempt(theirs["attempt"]) is None and await store.get_card(theirs["card"]) is None
