"""The push port's contract (bot/kernel/store_ports.py PushPort) on PushStore, SQLite and PostgreSQL: claims
won once, the states a push moves through, stale claims taken over once, and reminders' states."""

from __future__ import annotations

from bot.kernel.models import Reminder
from bot.kernel.store_ports import StaleClaim
from bot.storage.pushes import PushStore
from bot.storage.store import SqlStore
from tests.contract.store.helpers import DAY, HOUR, NOW, attempt, new_user

MINUTE = HOUR / 60
CUTOFF = NOW - 5 * MINUTE  # the dispatcher's stale timeout before NOW


async def test_users_are_paged_onboarded_and_not_paused_in_id_order(sql_store: SqlStore, pushes: PushStore) -> None:
    ids = [(await new_user(sql_store, str(n), onboarded=True)).id for n in range(5)]
    await new_user(sql_store, "new")  # still onboarding
    paused = await sql_store.get_user(ids[2])
    assert paused is not None
    await sql_store.save_user(paused.model_copy(update={"paused": True}))
    first = await pushes.users_page(0, 2)
    assert [u.id for u in first] == ids[:2] and first[0] == await sql_store.get_user(ids[0])
    assert [u.id for u in await pushes.users_page(ids[1], 2)] == [ids[3], ids[4]]
    assert await pushes.users_page(ids[4], 2) == []


async def test_last_answers_skip_follow_ups_and_users_without_one(sql_store: SqlStore, pushes: PushStore) -> None:
    a, b, c = [(await new_user(sql_store, str(n))).id for n in range(3)]
    await sql_store.add_attempt(attempt(a, created_at=NOW - DAY))
    await sql_store.add_attempt(attempt(a, created_at=NOW - HOUR))
    await sql_store.add_attempt(attempt(a, created_at=NOW, is_follow_up=True))
    await sql_store.add_attempt(attempt(b, created_at=NOW - 2 * DAY))
    await sql_store.add_attempt(attempt(c, created_at=NOW, is_follow_up=True))
    assert await pushes.last_answers([a, b, c]) == {a: NOW - HOUR, b: NOW - 2 * DAY}
    assert await pushes.last_answers([b]) == {b: NOW - 2 * DAY}
    assert await pushes.last_answers([]) == {}


async def test_a_push_key_is_claimed_once(sql_store: SqlStore, pushes: PushStore) -> None:
    uid = (await new_user(sql_store, "1")).id
    push_id = await pushes.claim(f"daily:{uid}:2026-05-01", "daily", NOW, user_id=uid)
    assert push_id is not None
    assert await pushes.claim(f"daily:{uid}:2026-05-01", "daily", NOW + HOUR, user_id=uid) is None
    assert await pushes.claim("guild:900:2026-05-01", "guild_daily", NOW, guild_id="900") not in (None, push_id)
    won = await pushes.claim_many([(f"daily:{uid}:2026-05-01", "daily", uid), (f"nudge:{uid}:1", "nudge", uid),
                                   (f"weekly:{uid}:1", "weekly", uid)], NOW)  # fmt: skip
    assert set(won) == {f"nudge:{uid}:1", f"weekly:{uid}:1"} and push_id not in won.values()
    assert await pushes.claim_many([(f"nudge:{uid}:1", "nudge", uid)], NOW) == {}
    assert await pushes.claim_many([], NOW) == {}
    keys = [f"daily:{uid}:2026-05-01", f"nudge:{uid}:1", "daily:0:never"]
    assert await pushes.existing_keys(keys) == {f"daily:{uid}:2026-05-01", f"nudge:{uid}:1"}
    assert await pushes.existing_keys([]) == set()
    assert set((await pushes.push_states()).values()) == {"claimed"}


async def test_a_push_moves_from_claimed_through_sending_to_its_outcome(sql_store: SqlStore, pushes: PushStore) -> None:
    uid = (await new_user(sql_store, "1")).id
    sent, failed = [await pushes.claim(k, "daily", NOW - DAY, user_id=uid) for k in ("a", "b")]
    assert sent is not None and failed is not None
    payload = {"replies": [{"text": "hi", "kind": "question", "buttons": []}], "channel_id": None}
    await pushes.mark_sending(sent, payload, NOW)
    assert await pushes.push_states() == {"a": "sending", "b": "claimed"}
    assert [c.id for c in await pushes.stale_claims(CUTOFF)] == [failed]  # sending is never retried
    await pushes.release(sent)  # the platform refused: back to claimed, with its replies
    (retry, _) = await pushes.stale_claims(NOW + MINUTE)
    assert retry == StaleClaim(id=sent, kind="daily", user_id=uid, attempts=1, payload=payload)
    await pushes.mark(sent, "sent", NOW)
    await pushes.release(sent)  # only a push in "sending" goes back
    await pushes.mark(failed, "failed", NOW)
    assert await pushes.push_states() == {"a": "sent", "b": "failed"}
    assert await pushes.stale_claims(NOW + DAY) == []


async def test_stale_claims_are_taken_over_once_and_oldest_first(sql_store: SqlStore, pushes: PushStore) -> None:
    uid = (await new_user(sql_store, "1")).id
    old = [await pushes.claim(f"k{n}", "nudge", NOW - HOUR, user_id=uid) for n in range(3)]
    fresh = await pushes.claim("fresh", "weekly", NOW, user_id=uid)
    guild = await pushes.claim("guild", "guild_daily", NOW - HOUR, guild_id="900")
    assert guild is not None and fresh is not None and None not in old
    claims = await pushes.stale_claims(CUTOFF)
    assert [c.id for c in claims] == [*old, guild] and fresh not in [c.id for c in claims]
    assert claims[-1] == StaleClaim(id=guild, kind="guild_daily", user_id=None, attempts=1, payload={})
    assert [c.id for c in await pushes.stale_claims(CUTOFF, limit=2)] == old[:2]
    assert old[0] is not None
    assert await pushes.reclaim(old[0], CUTOFF, NOW) is True
    assert await pushes.reclaim(old[0], CUTOFF, NOW) is False  # another scheduler took it: its clock restarted
    assert await pushes.reclaim(fresh, CUTOFF, NOW) is False  # not stale
    assert [c.id for c in await pushes.stale_claims(CUTOFF)] == [*old[1:], guild]
    (again,) = [c for c in await pushes.stale_claims(NOW + MINUTE) if c.id == old[0]]
    assert again.attempts == 2


async def test_pushes_and_reminders_left_sending_become_unconfirmed(sql_store: SqlStore, pushes: PushStore) -> None:
    uid = (await new_user(sql_store, "1")).id
    crashed, recent = [await pushes.claim(k, "daily", NOW - HOUR, user_id=uid) for k in ("crashed", "recent")]
    assert crashed is not None and recent is not None
    await pushes.mark_sending(crashed, {}, NOW - HOUR)
    await pushes.mark_sending(recent, {}, NOW)
    reminder = await sql_store.add_reminder(Reminder(id=0, user_id=uid, kind="post_interview", due_at=NOW - DAY))
    await pushes.mark_reminder(reminder.id, "sending", NOW - HOUR)
    assert await pushes.abandon_unconfirmed(CUTOFF) == 2
    assert await pushes.push_states() == {"crashed": "unconfirmed", "recent": "sending"}
    got = await pushes.get_reminder(reminder.id)
    assert got is not None and got.state == "unconfirmed"
    assert await pushes.abandon_unconfirmed(CUTOFF) == 0
    assert await pushes.due_reminders(NOW, CUTOFF) == []  # never sent again


async def test_due_reminders_are_claimed_once_and_retried_when_stale(sql_store: SqlStore, pushes: PushStore) -> None:
    uid = (await new_user(sql_store, "1")).id
    later = await sql_store.add_reminder(Reminder(id=0, user_id=uid, kind="post_interview", due_at=NOW - HOUR))
    sooner = await sql_store.add_reminder(Reminder(id=0, user_id=uid, kind="post_interview", due_at=NOW - DAY,
                                                   payload={"company": "Acme"}))  # fmt: skip
    await sql_store.add_reminder(Reminder(id=0, user_id=uid, kind="post_interview", due_at=NOW + 3 * DAY))
    due = await pushes.due_reminders(NOW, CUTOFF)
    assert due == [sooner, later]
    assert await pushes.due_reminders(NOW, CUTOFF, limit=1) == [sooner]
    assert await pushes.claim_reminder(sooner.id, NOW, CUTOFF) is True
    assert await pushes.claim_reminder(sooner.id, NOW, CUTOFF) is False  # claimed: by this tick only
    claimed = await pushes.get_reminder(sooner.id)
    assert claimed == sooner.model_copy(update={"state": "claimed", "attempts": 1, "claimed_at": NOW})
    assert await pushes.due_reminders(NOW, CUTOFF) == [later]
    # a claim older than the stale timeout is due again and can be taken over
    assert [r.id for r in await pushes.due_reminders(NOW + HOUR, NOW + MINUTE)] == [sooner.id, later.id]
    assert await pushes.claim_reminder(sooner.id, NOW + HOUR, NOW + MINUTE) is True
    retried = await pushes.get_reminder(sooner.id)
    assert retried is not None and (retried.attempts, retried.claimed_at) == (2, NOW + HOUR)
    await pushes.mark_reminder(sooner.id, "sent")
    await pushes.mark_reminder(later.id, "failed")
    assert await pushes.claim_reminder(later.id, NOW + DAY, NOW + DAY) is False
    assert await pushes.due_reminders(NOW + DAY, NOW + DAY) == []  # sent and failed are done
    states = {r.id: r.state for r in await sql_store.list_reminders(uid)}
    assert (states[sooner.id], states[later.id]) == ("sent", "failed")
    assert await pushes.get_reminder(sooner.id + 1000) is None
