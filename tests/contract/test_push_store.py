"""The scheduler's durable state (bot/storage/pushes.py) method by method, and the dispatcher's retry of a
stale claim (bot/scheduling/dispatcher.py) in each of its cases: fast, on the SQL store itself."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.models import Attempt, Reminder, User
from bot.kernel.ports import AboutToSend, Delivery
from bot.kernel.replies import Button, Reply
from bot.scheduling.dispatcher import MAX_ATTEMPTS, Dispatcher, dump_replies, load_replies
from bot.storage import tables as T
from bot.storage.pushes import PushStore
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CUTOFF = NOW - timedelta(minutes=5)
EARLY = NOW - timedelta(minutes=10)  # a claim older than the cutoff: stale


async def user(sql: SqlStore, name: str, **kw: Any) -> int:
    values: dict[str, Any] = {"id": 0, "created_at": NOW, "onboarded": True}
    values.update(kw)
    return (await sql.get_or_create_user("test", name, User(**values))).id


async def row(sql: SqlStore, table: sa.Table, row_id: int) -> dict[str, Any]:
    async def _unit(conn: Any) -> Any:
        return dict((await conn.execute(sa.select(table).where(table.c.id == row_id))).one()._mapping)

    result: dict[str, Any] = await sql.engines.read(_unit)
    return result


async def test_a_claim_is_won_once_and_starts_claimed(sql: SqlStore) -> None:
    pushes, uid = PushStore(sql.engines), await user(sql, "1")
    push_id = await pushes.claim("daily:1:2026-03-02", "daily", NOW, user_id=uid)
    assert push_id is not None and await pushes.claim("daily:1:2026-03-02", "daily", NOW, user_id=uid) is None
    got = await row(sql, T.pushes, push_id)
    assert {k: got[k] for k in ("key", "kind", "user_id", "guild_id", "state", "attempts", "payload")} == {
        "key": "daily:1:2026-03-02", "kind": "daily", "user_id": uid, "guild_id": None,
        "state": "claimed", "attempts": 1, "payload": {},
    }  # fmt: skip
    assert got["created_at"] == got["claimed_at"] == NOW and got["sent_at"] is None
    guild = await pushes.claim("guild:9:2026-03-02", "guild_daily", NOW, guild_id="9")
    assert guild is not None and (await row(sql, T.pushes, guild))["guild_id"] == "9"


async def test_many_claims_in_one_statement_return_the_keys_won(sql: SqlStore) -> None:
    pushes, uid = PushStore(sql.engines), await user(sql, "1")
    assert await pushes.claim_many([], NOW) == {}
    first = await pushes.claim("a", "daily", NOW, user_id=uid)
    won = await pushes.claim_many([("a", "daily", uid), ("b", "nudge", uid)], NOW)
    assert list(won) == ["b"] and won["b"] != first
    got = await row(sql, T.pushes, won["b"])
    assert (got["kind"], got["user_id"], got["state"], got["attempts"], got["payload"], got["claimed_at"]) == (
        "nudge", uid, "claimed", 1, {}, NOW,
    )  # fmt: skip
    assert await pushes.existing_keys([]) == set() and await pushes.existing_keys(["a", "b", "c"]) == {"a", "b"}
    assert await pushes.push_states() == {"a": "claimed", "b": "claimed"}


async def test_users_page_is_onboarded_unpaused_users_after_an_id(sql: SqlStore) -> None:
    pushes = PushStore(sql.engines)
    a, b = await user(sql, "a"), await user(sql, "b")
    await user(sql, "paused", paused=True)
    await user(sql, "new", onboarded=False)
    c = await user(sql, "c")
    assert [u.id for u in await pushes.users_page(0, 10)] == [a, b, c]
    assert [u.id for u in await pushes.users_page(a, 1)] == [b]
    assert await pushes.users_page(c, 10) == []


async def test_last_answers_are_each_users_latest_answer_not_follow_up(sql: SqlStore) -> None:
    pushes = PushStore(sql.engines)
    a, b, c = await user(sql, "a"), await user(sql, "b"), await user(sql, "c")
    for uid, at, follow_up in ((a, NOW - timedelta(days=2), False), (a, NOW - timedelta(days=1), False),
                               (a, NOW, True), (b, NOW - timedelta(hours=1), False), (c, NOW, False)):  # fmt: skip
        await sql.add_attempt(
            Attempt(id=0, user_id=uid, card_id=None, question_id="q", answer="x", is_follow_up=follow_up, created_at=at)
        )
    assert await pushes.last_answers([]) == {}
    assert await pushes.last_answers([a, b]) == {a: NOW - timedelta(days=1), b: NOW - timedelta(hours=1)}


async def test_sending_release_and_the_states_after(sql: SqlStore) -> None:
    pushes, uid = PushStore(sql.engines), await user(sql, "1")
    one = await pushes.claim("one", "daily", EARLY, user_id=uid)
    two = await pushes.claim("two", "daily", EARLY, user_id=uid)
    assert one is not None and two is not None
    await pushes.mark_sending(one, {"replies": [{"text": "hi"}]}, NOW)
    got = await row(sql, T.pushes, one)
    assert (got["state"], got["payload"], got["claimed_at"]) == ("sending", {"replies": [{"text": "hi"}]}, NOW)
    await pushes.release(two)  # not sending: stays as it is
    await pushes.release(one)
    assert await pushes.push_states() == {"one": "claimed", "two": "claimed"}
    assert (await row(sql, T.pushes, one))["payload"] == {"replies": [{"text": "hi"}]}  # the replies are kept
    await pushes.mark(one, "skipped", NOW)
    assert (await row(sql, T.pushes, one))["sent_at"] is None
    await pushes.mark(two, "sent", NOW)
    got = await row(sql, T.pushes, two)
    assert (got["state"], got["sent_at"]) == ("sent", NOW)


async def test_pushes_and_reminders_left_sending_become_unconfirmed(sql: SqlStore) -> None:
    pushes, uid = PushStore(sql.engines), await user(sql, "1")
    ids = [await pushes.claim(k, "daily", EARLY, user_id=uid) for k in ("old", "at-cutoff", "claimed")]
    await pushes.mark_sending(ids[0], {}, EARLY)  # type: ignore[arg-type]
    await pushes.mark_sending(ids[1], {}, CUTOFF)  # type: ignore[arg-type]
    old = await sql.add_reminder(Reminder(id=0, user_id=uid, kind="post_interview", due_at=EARLY))
    fresh = await sql.add_reminder(Reminder(id=0, user_id=uid, kind="post_interview", due_at=EARLY))
    await pushes.mark_reminder(old.id, "sending", EARLY)
    await pushes.mark_reminder(fresh.id, "sending", NOW)
    assert await pushes.abandon_unconfirmed(CUTOFF) == 2
    assert await pushes.push_states() == {"old": "unconfirmed", "at-cutoff": "sending", "claimed": "claimed"}
    assert [(await pushes.get_reminder(r.id)).state for r in (old, fresh)] == ["unconfirmed", "sending"]  # type: ignore[union-attr]


async def test_stale_claims_are_taken_over_once(sql: SqlStore) -> None:
    pushes, uid = PushStore(sql.engines), await user(sql, "1")
    stale = [await pushes.claim(f"s{i}", "daily", EARLY, user_id=uid) for i in range(3)]
    await pushes.claim("fresh", "daily", NOW, user_id=uid)
    await pushes.claim("edge", "daily", CUTOFF, user_id=uid)
    await pushes.mark_sending(stale[2], {}, EARLY)  # type: ignore[arg-type]
    assert [r.id for r in await pushes.stale_claims(CUTOFF)] == stale[:2]
    assert [r.id for r in await pushes.stale_claims(CUTOFF, limit=1)] == stale[:1]
    assert await pushes.reclaim(stale[0], CUTOFF, NOW)  # type: ignore[arg-type]
    assert not await pushes.reclaim(stale[0], CUTOFF, NOW)  # type: ignore[arg-type]  # now fresh: taken
    assert not await pushes.reclaim(stale[2], CUTOFF, NOW)  # type: ignore[arg-type]  # sending: never
    got = await row(sql, T.pushes, stale[0])  # type: ignore[arg-type]
    assert (got["attempts"], got["claimed_at"], got["state"]) == (2, NOW, "claimed")
    assert (await row(sql, T.pushes, stale[1]))["attempts"] == 1  # type: ignore[arg-type]


async def test_due_reminders_and_their_claims(sql: SqlStore) -> None:
    pushes, uid = PushStore(sql.engines), await user(sql, "1")

    async def add(due: datetime, state: str = "pending", claimed: datetime | None = None) -> int:
        r = await sql.add_reminder(Reminder(id=0, user_id=uid, kind="post_interview", due_at=due, payload={"a": 1}))
        if state != "pending":
            await pushes.mark_reminder(r.id, state, claimed)
        return r.id

    late = await add(NOW - timedelta(hours=1))
    early = await add(NOW - timedelta(hours=2))
    exact = await add(NOW)
    await add(NOW + timedelta(seconds=1))  # not due yet
    stale = await add(NOW - timedelta(hours=3), "claimed", EARLY)
    await add(NOW - timedelta(hours=3), "claimed", CUTOFF)  # claimed at the cutoff: not stale yet
    await add(NOW - timedelta(hours=3), "sent")
    assert [r.id for r in await pushes.due_reminders(NOW, CUTOFF)] == [stale, early, late, exact]
    assert [r.id for r in await pushes.due_reminders(NOW, CUTOFF, limit=2)] == [stale, early]
    assert await pushes.claim_reminder(early, NOW, CUTOFF)
    assert not await pushes.claim_reminder(early, NOW, CUTOFF)
    assert await pushes.claim_reminder(stale, NOW, CUTOFF)
    got = await pushes.get_reminder(stale)
    assert got is not None and (got.state, got.attempts, got.claimed_at, got.payload) == ("claimed", 1, NOW, {"a": 1})
    assert await pushes.get_reminder(99999) is None
    await pushes.mark_reminder(stale, "sent")  # without a time: the claim clock is left alone
    got = await pushes.get_reminder(stale)
    assert got is not None and (got.state, got.claimed_at) == ("sent", NOW)


def test_replies_survive_the_round_trip_through_the_payload() -> None:
    replies = [Reply("a", [[Button("Next", "next"), Button("Skip", "skip")]], kind="daily"), Reply("b")]
    assert load_replies(dump_replies(replies)) == replies


class Platform:
    """Records what was sent to users and posted in channels, answering `outcome` after the wire."""

    def __init__(self, outcome: Delivery = Delivery.DELIVERED) -> None:
        self.outcome = outcome
        self.sent: list[tuple[int, list[Reply]]] = []
        self.posted: list[tuple[str, list[Reply]]] = []

    async def send(self, user_id: int, replies: list[Reply], about_to_send: AboutToSend | None) -> Delivery:
        if about_to_send is not None:
            await about_to_send()
        self.sent.append((user_id, replies))
        return self.outcome

    async def post(self, channel: str, replies: list[Reply], about_to_send: AboutToSend | None) -> Delivery:
        if about_to_send is not None:
            await about_to_send()
        self.posted.append((channel, replies))
        return self.outcome


def dispatcher(sql: SqlStore, bank: Bank, platform: Platform) -> Dispatcher:
    deps = build_test_app(bank, grader=FakeGrader(), store=sql, clock=FakeClock(NOW)).deps

    async def pause(user_id: int) -> None:
        raise AssertionError("nobody is unreachable here")

    return Dispatcher(deps, PushStore(sql.engines), platform.send, pause, post_channel=platform.post)


async def stale_claim(pushes: PushStore, key: str, kind: str, payload: dict[str, Any] | None = None, **kw: Any) -> int:
    """A claim left by a crash: with `payload`, one whose replies were built and refused (released)."""
    push_id = await pushes.claim(key, kind, EARLY, **kw)
    assert push_id is not None
    if payload is not None:
        await pushes.mark_sending(push_id, payload, EARLY)
        await pushes.release(push_id)
    return push_id


async def test_a_stale_claim_sends_the_replies_it_kept_to_its_user_or_channel(sql: SqlStore, bank: Bank) -> None:
    uid = await user(sql, "1", daily_time="23:59")
    platform = Platform()
    d = dispatcher(sql, bank, platform)
    kept = [Reply("Your daily drill: Q?", [[Button("Skip", "skip")]], kind="daily")]
    await stale_claim(d.pushes, "to-user", "daily", {"replies": dump_replies(kept), "channel_id": None}, user_id=uid)
    post = [Reply("Question of the day", [[Button("Answer", "answer:q1")]], kind="daily")]
    await stale_claim(d.pushes, "to-channel", "guild_daily", {"replies": dump_replies(post), "channel_id": "77"})
    report = await d.tick()
    assert platform.sent == [(uid, kept)] and platform.posted == [("77", post)]
    assert report.retried == 2 and report.sent == 2 and report.kinds == {"daily": 1, "guild_daily": 1}
    assert await d.pushes.push_states() == {"to-user": "sent", "to-channel": "sent"}


async def test_a_stale_claim_without_replies_is_built_again_or_skipped(sql: SqlStore, bank: Bank) -> None:
    late = {"daily_time": "23:59"}  # no new pushes of their own this tick
    weekly, practised = await user(sql, "w", **late), await user(sql, "p", **late)
    paused, gone = await user(sql, "x", paused=True, **late), await user(sql, "g", **late)
    platform = Platform()
    d = dispatcher(sql, bank, platform)
    await sql.add_attempt(
        Attempt(id=0, user_id=practised, card_id=None, question_id="q", answer="a", created_at=NOW - timedelta(hours=1))
    )
    await stale_claim(d.pushes, "weekly", "weekly", user_id=weekly)
    await stale_claim(d.pushes, "practised", "daily", user_id=practised)  # answered today: not pushed
    await stale_claim(d.pushes, "paused", "weekly", user_id=paused)
    await stale_claim(d.pushes, "gone", "daily", user_id=gone)
    await sql.delete_user(gone)
    await stale_claim(d.pushes, "guild", "guild_daily", guild_id="9")  # nothing kept, not rebuilt
    await stale_claim(d.pushes, "reminder-like", "post_interview", user_id=weekly)
    report = await d.tick()
    assert [(u, r[0].text) for u, r in platform.sent] == [(weekly, t("en", "push.weekly_empty"))]
    assert platform.posted == []
    assert await d.pushes.push_states() == {
        "weekly": "sent", "practised": "skipped", "paused": "skipped", "guild": "skipped", "reminder-like": "skipped",
    }  # fmt: skip
    assert report.retried == 5 and report.kinds == {"weekly": 1}  # the deleted user's claim went with them


async def test_a_stale_claim_tried_too_often_is_given_up(sql: SqlStore, bank: Bank) -> None:
    uid = await user(sql, "1", daily_time="23:59")
    platform = Platform()
    d = dispatcher(sql, bank, platform)
    push_id = await stale_claim(d.pushes, "k", "daily", {"replies": dump_replies([Reply("x")])}, user_id=uid)
    for _ in range(MAX_ATTEMPTS - 1):  # each retry counts an attempt
        assert await d.pushes.reclaim(push_id, CUTOFF, EARLY - timedelta(minutes=1))
    assert (await row(sql, T.pushes, push_id))["attempts"] == MAX_ATTEMPTS
    await d.tick()  # the last allowed attempt
    assert len(platform.sent) == 1
    again = await stale_claim(d.pushes, "k2", "daily", {"replies": dump_replies([Reply("y")])}, user_id=uid)
    for _ in range(MAX_ATTEMPTS):
        assert await d.pushes.reclaim(again, CUTOFF, EARLY - timedelta(minutes=1))
    await d.tick()
    assert len(platform.sent) == 1 and (await d.pushes.push_states())["k2"] == "failed"


async def test_a_refused_reminder_is_claimed_again_for_a_retry(sql: SqlStore, bank: Bank) -> None:
    uid = await user(sql, "1", daily_time="23:59")
    reminder = await sql.add_reminder(
        Reminder(id=0, user_id=uid, kind="post_interview", due_at=EARLY, payload={"company": "Acme"})
    )
    platform = Platform(Delivery.FAILED)
    d = dispatcher(sql, bank, platform)
    report = await d.tick()
    assert report.failed == 1 and len(platform.sent) == 1
    got = await d.pushes.get_reminder(reminder.id)
    assert got is not None and got.state == "claimed"


class Watching(Platform):
    """Also records the push's stored state at the moment the request leaves (after `about_to_send`)."""

    def __init__(self, pushes: PushStore, outcome: Delivery = Delivery.DELIVERED) -> None:
        super().__init__(outcome)
        self.pushes = pushes
        self.on_the_wire: dict[int, dict[str, str]] = {}  # by user: every push's state as theirs left

    async def send(self, user_id: int, replies: list[Reply], about_to_send: AboutToSend | None) -> Delivery:
        if about_to_send is not None:
            await about_to_send()
        self.on_the_wire[user_id] = await self.pushes.push_states()
        self.sent.append((user_id, replies))
        return self.outcome


def watched(sql: SqlStore, bank: Bank, outcome: Delivery, paused: list[int]) -> tuple[Dispatcher, Watching]:
    deps = build_test_app(bank, grader=FakeGrader(), store=sql, clock=FakeClock(NOW)).deps
    platform = Watching(PushStore(sql.engines), outcome)

    async def pause(user_id: int) -> None:
        paused.append(user_id)

    d = Dispatcher(deps, platform.pushes, platform.send, pause, post_channel=platform.post)
    return d, platform


async def test_a_push_is_marked_sending_with_its_replies_before_it_leaves(sql: SqlStore, bank: Bank) -> None:
    a, b = await user(sql, "a"), await user(sql, "b")  # 09:00 UTC daily time: due now
    d, platform = watched(sql, bank, Delivery.DELIVERED, [])
    report = await d.tick()
    key = f"daily:{a}:2026-03-02"
    assert platform.on_the_wire[a][key] == "sending" and report.sent == 2 and report.kinds == {"daily": 2}
    (sent,) = [replies for uid, replies in platform.sent if uid == a]
    got = next(r for r in await all_pushes(sql) if r["key"] == key)
    assert got["payload"] == {"replies": dump_replies(sent), "channel_id": None}
    assert (got["state"], got["sent_at"], got["claimed_at"]) == ("sent", NOW, NOW)
    assert {k: v for k, v in (await d.pushes.push_states()).items() if k.startswith("daily")} == {
        key: "sent", f"daily:{b}:2026-03-02": "sent",
    }  # fmt: skip


async def all_pushes(sql: SqlStore) -> list[dict[str, Any]]:
    async def _unit(conn: Any) -> Any:
        return [dict(r._mapping) for r in (await conn.execute(sa.select(T.pushes))).all()]

    result: list[dict[str, Any]] = await sql.engines.read(_unit)
    return result


async def test_unreachable_users_are_paused_and_counted(sql: SqlStore, bank: Bank) -> None:
    a, b = await user(sql, "a"), await user(sql, "b")
    paused: list[int] = []
    d, _ = watched(sql, bank, Delivery.UNREACHABLE, paused)
    report = await d.tick()
    assert sorted(paused) == [a, b] and report.paused == 2 and report.sent == 0
    assert {k: v for k, v in (await d.pushes.push_states()).items() if k.startswith("daily")} == {
        f"daily:{a}:2026-03-02": "paused", f"daily:{b}:2026-03-02": "paused",
    }  # fmt: skip


@pytest.mark.parametrize(("outcome", "state"), [(Delivery.UNREACHABLE, "failed"), (Delivery.NO_ROUTE, "skipped")])
async def test_a_closed_channel_fails_and_no_route_skips(
    sql: SqlStore, bank: Bank, outcome: Delivery, state: str
) -> None:
    paused: list[int] = []
    d, platform = watched(sql, bank, outcome, paused)
    posts = [Reply("Question of the day", kind="daily")]
    for key in ("c1", "c2"):
        await stale_claim(d.pushes, key, "guild_daily", {"replies": dump_replies(posts), "channel_id": key})
    report = await d.tick()
    assert len(platform.posted) == 2 and paused == []
    assert await d.pushes.push_states() == {"c1": state, "c2": state}
    counted = report.failed if state == "failed" else report.skipped
    assert counted == 2 and report.sent == 0


async def test_a_sent_reminder_is_marked_sending_first_and_books_one_more(sql: SqlStore, bank: Bank) -> None:
    uid = await user(sql, "1", daily_time="23:59")
    first = await sql.add_reminder(
        Reminder(id=0, user_id=uid, kind="post_interview", due_at=EARLY, payload={"company": "Acme"})
    )
    d, _ = watched(sql, bank, Delivery.DELIVERED, [])
    states: list[tuple[str, datetime | None]] = []

    async def send(user_id: int, replies: list[Reply], about_to_send: AboutToSend | None) -> Delivery:
        assert about_to_send is not None
        await about_to_send()
        got = await d.pushes.get_reminder(first.id)
        assert got is not None
        states.append((got.state, got.claimed_at))
        return Delivery.DELIVERED

    d.send = send
    await d.tick()
    assert states == [("sending", NOW)]
    reminders = await sql.list_reminders(uid)
    assert next((r.kind, r.state) for r in reminders if r.id == first.id) == ("post_interview", "sent")
    (again,) = [r for r in reminders if r.id != first.id]
    assert (again.kind, again.due_at, again.state, again.attempts, again.claimed_at, again.payload) == (
        "post_interview_again", EARLY + timedelta(days=1), "pending", 0, None, {"company": "Acme"},
    )  # fmt: skip


async def test_a_stale_nudge_is_built_again_from_the_users_last_answer(sql: SqlStore, bank: Bank) -> None:
    late = {"daily_time": "23:59"}
    idle, busy = await user(sql, "idle", **late), await user(sql, "busy", **late)
    for uid in (idle, busy):
        for q in bank.all()[:5]:
            await sql.create_card(uid, q.id, {}, NOW - timedelta(days=1), False, NOW - timedelta(days=3))
    await sql.add_attempt(
        Attempt(id=0, user_id=busy, card_id=None, question_id="q", answer="a", created_at=NOW - timedelta(hours=2))
    )
    platform = Platform()
    d = dispatcher(sql, bank, platform)
    await stale_claim(d.pushes, "idle", "nudge", user_id=idle)
    await stale_claim(d.pushes, "busy", "nudge", user_id=busy)  # answered two hours ago: no nudge
    await d.tick()
    assert [(u, r[0].text) for u, r in platform.sent] == [(idle, tn("en", "review_due_nudge", 5))]
    assert await d.pushes.push_states() == {"idle": "sent", "busy": "skipped"}
