"""The mocks port's contract: a mock reads back as stored, one runs per user at a time, saving never moves it
to another user, a deleted user's mocks go with them, and listing is oldest first."""

from __future__ import annotations

from bot.features.mock.models import MockFollowUp, MockItem, MockSession, MockSummary
from bot.kernel.store_ports import Store
from tests.contract.store.helpers import HOUR, NOW, new_user


def _mock(user_id: int, created=NOW) -> MockSession:  # type: ignore[no-untyped-def]
    items = [MockItem(question_id="stab-nan-debug-001", budget_seconds=240),
             MockItem(question_id="pipe-q-001", budget_seconds=180)]  # fmt: skip
    return MockSession(id=0, user_id=user_id, focus="company", company="Acme 字节", level="engineer",
                       items=items, created_at=created)  # fmt: skip


async def test_a_mock_reads_back_as_stored_and_one_runs_at_a_time(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    first = await store.create_mock(_mock(u.id))
    assert first is not None and first.id > 0
    assert await store.get_mock(first.id) == first
    assert await store.running_mock(u.id) == first and await store.running_mock(other.id) is None
    assert await store.create_mock(_mock(u.id, NOW + HOUR)) is None  # one running per user
    theirs = await store.create_mock(_mock(other.id))
    assert theirs is not None and theirs.id != first.id
    assert await store.get_mock(first.id + theirs.id + 1000) is None


async def test_saving_keeps_progress_and_state_and_a_finished_mock_makes_room(store: Store) -> None:
    u = await new_user(store, "1")
    mock = await store.create_mock(_mock(u.id))
    assert mock is not None
    mock.items[0].asked_at = NOW
    mock.items[0].attempt_id, mock.items[0].score, mock.items[0].answer_seconds = 7, 64, 93.5
    mock.items[0].follow_ups.append(MockFollowUp(text="为什么？", parent=7, bank_index=1, asked_at=NOW + HOUR))
    await store.save_mock(mock)
    assert await store.get_mock(mock.id) == mock
    done = mock.model_copy(update={"state": "finished", "finished_at": NOW + HOUR,
                                   "summary": MockSummary(score=64, verdict="lean_no", answered=1,
                                                          dimensions={"coverage": 60})})  # fmt: skip
    moved = done.model_copy(update={"user_id": u.id + 1000, "created_at": NOW + 5 * HOUR})
    await store.save_mock(moved)  # never its owner or creation time
    assert await store.get_mock(mock.id) == done
    assert await store.running_mock(u.id) is None
    second = await store.create_mock(_mock(u.id, NOW + 2 * HOUR))
    assert second is not None
    assert await store.list_mocks(u.id) == [done, second]


async def test_mocks_of_a_deleted_user_are_gone_and_stay_gone(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    mine = await store.create_mock(_mock(u.id))
    theirs = await store.create_mock(_mock(other.id))
    assert mine is not None and theirs is not None
    await store.delete_user(u.id)
    assert await store.list_mocks(u.id) == [] and await store.get_mock(mine.id) is None
    await store.save_mock(mine)
    assert await store.get_mock(mine.id) is None
    assert await store.list_mocks(other.id) == [theirs]
    assert await store.create_mock(_mock(u.id)) is None  # no mock for a user who is gone
