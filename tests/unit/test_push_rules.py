"""The push rules (bot/kernel/push_rules.py) called directly, fast: when the daily drill, the weekly summary
and the review nudge are due in the user's local time, their keys, and what each push says."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.features.deps import Deps
from bot.features.drill import drill
from bot.features.review.pushes import post_interview
from bot.features.study_server import study_server
from bot.kernel import push_rules, srs
from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.inject import UnknownDependency
from bot.kernel.models import DIMENSIONS, Attempt, Grade, Reminder, ReviewItem, User
from bot.kernel.push_rules import (
    daily_date,
    daily_key,
    in_quiet_hours,
    next_daily_instant,
    nudge_key,
    practised_before_push,
    weekly_key,
)
from bot.kernel.render import subtopic_name
from bot.kernel.replies import Button, Reply
from bot.kernel.service import Service
from bot.kernel.session import Answering, ConfirmingForget, Idle, InFlow, Onboarding, Session
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeChartRenderer, FakeClock, FakeGrader, FakeStore

MONDAY = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # ISO week 10
SHANGHAI = "Asia/Shanghai"  # UTC+8, no DST


def person(**kw: object) -> User:
    values: dict[str, object] = {"id": 7, "created_at": MONDAY}
    values.update(kw)
    return User(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("start", "end", "at", "quiet"),
    [
        ("13:30", "15:00", "13:30", True),  # the start is quiet
        ("13:30", "15:00", "13:29", False),  # minutes count
        ("13:30", "15:00", "14:59", True),
        ("13:30", "15:00", "15:00", False),
        ("23:00", "08:00", "22:59", False),
        ("23:00", "08:00", "07:59", True),
        ("08:00", "08:00", "08:00", False),  # an empty window is never quiet
        ("23:00", None, "23:30", False),  # half a window is none
        (None, "08:00", "07:00", False),
    ],
)
def test_quiet_hours_edges(start: str | None, end: str | None, at: str, quiet: bool) -> None:
    hh, mm = (int(x) for x in at.split(":"))
    assert in_quiet_hours(person(quiet_start=start, quiet_end=end), MONDAY.replace(hour=hh, minute=mm)) is quiet


def test_the_daily_drill_is_due_from_the_daily_time_on_the_users_local_day() -> None:
    user = person(timezone=SHANGHAI, daily_time="07:30")
    # 1 March 23:30 UTC is 2 March 07:30 in Shanghai
    assert daily_date(user, datetime(2026, 3, 1, 23, 30, tzinfo=UTC)) == date(2026, 3, 2)
    assert daily_date(user, datetime(2026, 3, 1, 23, 29, tzinfo=UTC)) is None
    assert daily_date(user, datetime(2026, 3, 2, 15, 59, tzinfo=UTC)) == date(2026, 3, 2)  # 23:59 local
    assert daily_key(7, date(2026, 3, 2)) == "daily:7:2026-03-02"


def test_an_unreadable_daily_time_means_nine_o_clock() -> None:
    user = person(daily_time="25:99")
    assert daily_date(user, MONDAY.replace(hour=8, minute=59)) is None
    assert daily_date(user, MONDAY.replace(hour=9, minute=0)) == date(2026, 3, 2)


def test_practised_before_the_push_means_an_answer_since_local_midnight() -> None:
    user = person(timezone=SHANGHAI)
    now = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    midnight = datetime(2026, 3, 1, 16, 0, tzinfo=UTC)  # 00:00 in Shanghai
    assert practised_before_push(user, midnight, now)
    assert not practised_before_push(user, midnight - timedelta(seconds=1), now)
    assert not practised_before_push(user, None, now)


def test_the_weekly_key_is_the_weekly_day_after_the_daily_time_in_local_time() -> None:
    user = person(timezone=SHANGHAI, weekly_day=0, daily_time="09:00")  # Mondays at 09:00 local
    monday_nine = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)
    assert weekly_key(user, monday_nine) == "weekly:7:2026-W10"
    assert weekly_key(user, monday_nine - timedelta(minutes=1)) is None  # 08:59 local
    assert weekly_key(user, datetime(2026, 3, 2, 17, 0, tzinfo=UTC)) is None  # Tuesday 01:00 local, Monday in UTC
    assert weekly_key(user.model_copy(update={"weekly_day": None}), monday_nine) is None
    assert weekly_key(user, datetime(2026, 1, 5, 1, 0, tzinfo=UTC)) == "weekly:7:2026-W02"  # two digits


def test_the_nudge_key_is_the_users_local_day() -> None:
    user = person(timezone=SHANGHAI)
    assert nudge_key(user, datetime(2026, 3, 1, 20, 0, tzinfo=UTC)) == "nudge:7:2026-03-02"


def test_the_next_daily_instant_is_today_or_tomorrow_at_the_daily_time() -> None:
    user = person(timezone=SHANGHAI, daily_time="09:00")
    before = datetime(2026, 3, 2, 0, 59, tzinfo=UTC)  # 08:59 local
    assert next_daily_instant(user, before) == datetime(2026, 3, 2, 1, 0, tzinfo=UTC)
    at = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)
    assert next_daily_instant(user, at) == datetime(2026, 3, 3, 1, 0, tzinfo=UTC)
    assert next_daily_instant(user, at).tzinfo == UTC


async def saved_user(service: Service, lang: str = "en", **settings: object) -> User:
    user = await service.user_for("test", "1", lang)  # type: ignore[arg-type]
    user = user.model_copy(update=settings)
    await service.deps.store.save_user(user)
    return user


async def test_the_daily_drill_opens_the_next_question_under_a_heading(service: Service, store: FakeStore) -> None:
    user = await saved_user(service, "zh")
    replies = await push_rules.bind_pushes(service.deps.provided()).push("daily", user, None)
    assert replies is not None
    session = await store.get_session(user.id)
    assert isinstance(session, Answering)
    card = await store.get_card(session.card_id)
    q = service.deps.bank.get(card.question_id) if card else None
    assert card is not None and q is not None
    (shown,) = drill.show_question(q, card, user, "new")
    (head,) = replies
    assert head.text == t("zh", "push.daily") + "\n\n" + shown.text and head.buttons == shown.buttons
    assert head.kind == "daily" and head.ask_text


async def test_the_daily_drill_asks_yesterdays_open_question_again(service: Service, store: FakeStore) -> None:
    user = await saved_user(service)
    await service.handle_text(user.id, "/drill")
    opened = await store.get_session(user.id)
    assert isinstance(opened, Answering)
    card = await store.get_card(opened.card_id)
    q = service.deps.bank.get(card.question_id) if card else None
    assert card is not None and q is not None
    replies = await push_rules.bind_pushes(service.deps.provided()).push("daily", user, None)
    assert replies is not None and replies[0].text.endswith(drill.show_question(q, card, user, "due")[0].text)
    assert await store.get_session(user.id) == opened


@pytest.mark.parametrize(
    "busy",
    [InFlow(flow="review", data={}, step="company"), Onboarding(step="timezone"), ConfirmingForget()],
)
async def test_the_daily_drill_does_not_interrupt_a_conversation(
    service: Service, store: FakeStore, busy: Session
) -> None:
    user = await saved_user(service)
    await store.set_session(user.id, busy)
    assert await push_rules.bind_pushes(service.deps.provided()).push("daily", user, None) is None
    assert await store.get_session(user.id) == busy


async def test_the_daily_drill_is_skipped_when_nothing_is_left(service: Service, store: FakeStore) -> None:
    user = await saved_user(service, new_per_day=0)
    assert await push_rules.bind_pushes(service.deps.provided()).push("daily", user, None) is None
    assert await store.get_session(user.id) == Idle()


async def due_cards(deps: Deps, user: User, count: int, now: datetime) -> None:
    for q in deps.bank.all()[:count]:
        await deps.store.create_card(user.id, q.id, srs.new_state(now), now, False, now)


async def test_the_nudge_needs_five_due_cards_and_a_day_without_practice(service: Service, clock: FakeClock) -> None:
    deps, now = service.deps, clock.now()
    user = await saved_user(service, "zh")
    await due_cards(deps, user, 4, now)
    assert await push_rules.bind_pushes(deps.provided()).push("nudge", user, None) is None  # four are not many
    await due_cards(deps, user, 5, now)
    replies = await push_rules.bind_pushes(deps.provided()).push(
        "nudge", user, now - timedelta(days=1)
    )  # a day exactly: nudged
    assert replies is not None
    ((nudge,),) = [replies]
    assert nudge.text == tn("zh", "review_due_nudge", 5) and nudge.buttons == [[Button("/drill", "next")]]
    assert (
        await push_rules.bind_pushes(deps.provided()).push("nudge", user, now - timedelta(hours=23, minutes=59)) is None
    )


async def test_after_an_interview_ask_then_remind_once_unless_something_was_logged(
    service: Service, clock: FakeClock
) -> None:
    deps, now = service.deps, clock.now()
    user = await saved_user(service, "zh")
    at = now - timedelta(days=1)
    payload = {"company": "Acme", "at": at.isoformat()}
    first = await post_interview(deps.store, user, payload, second=False)
    assert first is not None and first[0].text == t("zh", "post_interview", company="Acme")
    again = t("zh", "post_interview_again", company="Acme")

    def item(company: str, created: datetime) -> ReviewItem:
        return ReviewItem(
            id=0, user_id=user.id, company=company, question_text="q", question_id="pipe-q-000",
            matched_bank=True, topic="pipeline", subtopic="test", created_at=created,
        )  # fmt: skip

    await deps.store.add_review_item(item("Acme", at - timedelta(minutes=1)))  # logged before this interview
    await deps.store.add_review_item(item("Globex", now))  # another company
    second = await post_interview(deps.store, user, payload, second=True)
    assert second is not None and second[0].text == again
    assert await post_interview(deps.store, user, {"company": "Acme"}, second=True) is None  # no time: any
    await deps.store.add_review_item(item("Acme", at))
    assert await post_interview(deps.store, user, payload, second=True) is None
    unnamed = await post_interview(deps.store, user, {}, second=False)  # a reminder without a company
    assert unnamed is not None and unnamed[0].text == t("zh", "post_interview", company="")


def grade(score: int) -> Grade:
    return Grade(score=score, dimensions=dict.fromkeys(DIMENSIONS, score))


async def test_the_weekly_summary_counts_this_weeks_answers_and_names_the_weakest(
    store: FakeStore, clock: FakeClock
) -> None:
    bank = Bank(
        [
            make_question("pipe-a-001").model_copy(update={"subtopic": "attention"}),
            make_question("pipe-b-001").model_copy(update={"subtopic": "sharding"}),
        ]
    )
    charts = FakeChartRenderer()
    deps = build_test_app(bank, grader=FakeGrader(), store=store, clock=clock, charts=charts).deps
    service = Service(deps)
    user = await saved_user(service, "zh")
    now = clock.now()
    empty = await push_rules.bind_pushes(deps.provided()).push("weekly", user, None)
    assert empty is not None and empty[0].text == t("zh", "push.weekly_empty")
    assert empty[0].buttons == [[Button("/drill", "next")]]

    def answer(qid: str, score: int | None, ago: timedelta, **kw: object) -> Attempt:
        values: dict[str, object] = {
            "id": 0, "user_id": user.id, "card_id": None, "question_id": qid, "answer": "a",
            "status": "graded", "grade": grade(score) if score is not None else None, "created_at": now - ago,
        }  # fmt: skip
        values.update(kw)
        return Attempt(**values)  # type: ignore[arg-type]

    for attempt in (
        answer("pipe-a-001", 80, timedelta(days=6, hours=23)),
        answer("pipe-b-001", 50, timedelta(hours=1)),
        answer("pipe-b-001", 70, timedelta(hours=2), status="regrade"),  # an estimate counts
        answer("pipe-b-001", 60, timedelta(days=1)),
        answer("pipe-b-001", None, timedelta(hours=3), status="regrade"),  # counted, no score
        answer("pipe-a-001", 10, timedelta(days=7)),  # a week ago exactly: last week
        answer("pipe-a-001", 10, timedelta(hours=4), is_follow_up=True),  # follow-ups are not reviews
        answer("pipe-a-001", None, timedelta(hours=5), status="revealed"),
        answer("gone-001", 0, timedelta(hours=6)),  # counted; its question left the bank: no subtopic
    ):
        await store.add_attempt(attempt)
    replies = await push_rules.bind_pushes(deps.provided()).push("weekly", user, None)
    assert replies is not None
    (summary,) = replies
    # attention 80; sharding 50, 70, 60 (the lowest mean, though the most points): 260 / 4 = 65
    assert summary.text == t(
        "zh", "push.weekly", answers=tn("zh", "count.answer", 6), mean=65, weakest=subtopic_name("sharding", "zh")
    )
    assert summary.kind == "weekly" and summary.buttons == [[Button("/drill", "next")]]
    assert summary.image is not None and summary.image.data == FakeChartRenderer.PNG
    assert charts.calls[-1][1] == "zh"


async def test_a_week_of_ungraded_answers_has_no_mean_and_no_weakest(service: Service, clock: FakeClock) -> None:
    user = await saved_user(service)
    await service.deps.store.add_attempt(
        Attempt(id=0, user_id=user.id, card_id=None, question_id="pipe-q-000", answer="a", status="regrade",
                created_at=clock.now())
    )  # fmt: skip
    replies = await push_rules.bind_pushes(service.deps.provided()).push("weekly", user, None)
    assert replies is not None and replies[0].text == t(
        "en", "push.weekly", answers=tn("en", "count.answer", 1), mean="-", weakest="-"
    )
    assert replies[0].image is None  # no chart renderer


async def test_each_push_kind_has_one_builder_and_an_unknown_reminder_sends_nothing() -> None:
    async def another(*_args: object) -> None:
        return None

    with pytest.raises(ValueError, match="daily"):
        push_rules.register_push("daily", another)  # type: ignore[arg-type]  # the drill builds it already
    with pytest.raises(ValueError, match="post_interview"):
        push_rules.register_reminder("post_interview", another)  # type: ignore[arg-type]
    deps = Deps(store=FakeStore(), bank=Bank([]), grader=FakeGrader(), clock=FakeClock())
    user = User(id=1, created_at=deps.clock.now())
    with pytest.raises(LookupError, match="monthly"):
        await push_rules.bind_pushes(deps.provided()).push("monthly", user, None)
    odd = Reminder(id=1, user_id=1, kind="no_such_kind", due_at=deps.clock.now(), payload={})
    assert await push_rules.bind_pushes(deps.provided()).reminder(user, odd) is None


def test_a_push_going_out_15_minutes_or_more_late_says_when_it_was_due() -> None:
    user = person(timezone=SHANGHAI, daily_time="09:00")
    due = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    replies = [Reply("Question"), Reply("More")]
    assert push_rules.with_late_note(replies, user, due, due + timedelta(minutes=14, seconds=59)) is replies
    late = push_rules.with_late_note(replies, user, due, due + timedelta(minutes=15))
    assert late is not None and [r.text for r in late] == ["(This was due at 2026-03-02 09:00.)\nQuestion", "More"]
    zh = push_rules.with_late_note(replies, user.model_copy(update={"language": "zh"}), due, due + timedelta(hours=3))
    assert zh is not None and zh[0].text == "（这条原定 2026-03-02 09:00 送达。）\nQuestion"
    assert push_rules.with_late_note(None, user, due, due + timedelta(hours=1)) is None
    assert push_rules.with_late_note([], user, due, due + timedelta(hours=1)) == []


def test_the_daily_instant_is_todays_daily_time_on_the_users_local_day() -> None:
    user = person(timezone=SHANGHAI, daily_time="09:00")
    evening = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)  # 18:00 local, 2 March
    just_after_midnight = datetime(2026, 3, 1, 17, 0, tzinfo=UTC)  # 01:00 local, 2 March
    for now in (evening, just_after_midnight):
        instant = push_rules.daily_instant(user, now)
        assert instant == datetime(2026, 3, 2, 1, 0, tzinfo=UTC) and instant.tzinfo == UTC


SEEN: list[tuple[object, object, object]] = []


async def record_reminder(user: object, reminder: object, clock: object) -> list[Reply]:
    SEEN.append((clock, user, reminder))
    return [Reply("Follow up with Acme"), Reply("second")]


async def test_a_due_reminder_is_built_by_its_kinds_feature_with_a_late_note_when_late() -> None:
    push_rules.register_reminder("test.reminder", record_reminder)
    push_rules.register_reminder("test.reminder", record_reminder)  # the same builder again: no clash
    deps = Deps(store=FakeStore(), bank=Bank([]), grader=FakeGrader(), clock=FakeClock())
    user = User(id=1, created_at=deps.clock.now())
    now = deps.clock.now()
    on_time = Reminder(id=1, user_id=1, kind="test.reminder", due_at=now - timedelta(minutes=14), payload={})
    replies = await push_rules.bind_pushes(deps.provided()).reminder(user, on_time)
    assert replies is not None and [r.text for r in replies] == ["Follow up with Acme", "second"]
    assert SEEN[-1][0] is deps.clock and SEEN[-1][1] is user and SEEN[-1][2] is on_time
    late = on_time.model_copy(update={"due_at": now - timedelta(minutes=15)})
    replies = await push_rules.bind_pushes(deps.provided()).reminder(user, late)
    assert replies is not None and replies[0].text.startswith("(This was due at ") and replies[1].text == "second"
    assert SEEN[-1][2] is late


def test_one_feature_builds_the_study_servers_post() -> None:
    async def another(*_args: object) -> None:
        return None

    with pytest.raises(ValueError, match="study server"):
        push_rules.register_server_post(another)  # type: ignore[arg-type]  # the study server's is registered
    push_rules.register_server_post(study_server.daily_post)  # the same one again: no clash


def test_every_registered_builder_names_what_the_root_provides(deps: Deps) -> None:
    """Bound when the dispatcher is built (bot/kernel/push_rules.py bind_pushes): none takes the whole record."""
    pushes = push_rules.bind_pushes(deps.provided())  # raises on any unknown name
    assert {"daily", "nudge", "weekly"} <= set(pushes.pushes)
    assert {"post_interview", "post_interview_again", "app_follow_up"} <= set(pushes.reminders)
    assert list(pushes.posts) == [study_server.daily_post]
    bound = [*pushes.pushes.values(), *pushes.reminders.values(), *pushes.posts.values()]
    assert [b for b in bound if "deps" in b.names] == []
    assert pushes.pushes["daily"].names == ("users", "clock") and pushes.pushes["daily"].groups[0][0] == "deck"


async def test_a_builder_naming_what_nothing_provides_fails_when_the_pushes_are_bound(
    deps: Deps, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def typo(user: User, last_answer: datetime | None, clok: object) -> None:
        return None

    async def spelled(user: User, last_answer: datetime | None, clock: object) -> list[Reply]:
        return [Reply(f"{user.id} at {clock.now():%H:%M}")]  # type: ignore[attr-defined]

    monkeypatch.setitem(push_rules._pushes, "test.spelled", spelled)  # the control case: bound, and built
    user = User(id=7, created_at=deps.clock.now())
    replies = await push_rules.bind_pushes(deps.provided()).push("test.spelled", user, None)
    assert replies == [Reply("7 at 09:00")]
    monkeypatch.setitem(push_rules._pushes, "test.typo", typo)
    with pytest.raises(UnknownDependency, match=r"typo names 'clok', which nothing provides"):
        push_rules.bind_pushes(deps.provided())


async def test_a_builder_registered_after_the_pushes_were_bound_is_bound_when_first_asked_and_kept(
    deps: Deps, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(push_rules, "_pushes", dict(push_rules._pushes))  # registered here only for this test
    monkeypatch.setattr(push_rules, "_reminders", dict(push_rules._reminders))
    pushes = push_rules.bind_pushes(deps.provided())

    async def late(user: User, last_answer: datetime | None, clock: object) -> list[Reply]:
        return [Reply(f"late {user.id} at {clock.now():%H:%M}")]  # type: ignore[attr-defined]

    async def late_reminder(user: User, reminder: Reminder, clock: object) -> list[Reply]:
        return [Reply(f"{reminder.kind} for {user.id}")]

    push_rules.register_push("test.late", late)  # a kind no one built before: registered
    push_rules.register_reminder("test.late", late_reminder)
    user = User(id=3, created_at=deps.clock.now())
    assert "test.late" not in pushes.pushes
    assert await pushes.push("test.late", user, None) == [Reply("late 3 at 09:00")]
    first = pushes.pushes["test.late"]
    assert await pushes.push("test.late", user, None) == [Reply("late 3 at 09:00")]
    assert pushes.pushes["test.late"] is first  # bound once, then kept
    due = Reminder(id=1, user_id=3, kind="test.late", due_at=deps.clock.now(), payload={})
    assert await pushes.reminder(user, due) == [Reply("test.late for 3")]
    kept = pushes.reminders["test.late"]
    assert await pushes.reminder(user, due) == [Reply("test.late for 3")] and pushes.reminders["test.late"] is kept
