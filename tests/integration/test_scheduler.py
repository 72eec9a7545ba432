"""The scheduler on a real database with an injected clock: on time, exactly once, through restarts."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.bootstrap import App, build_app, build_scheduler
from bot.config import Settings
from bot.delivery import NotifierRouter
from bot.grading.offline import OfflineGrader
from bot.kernel import commands as c
from bot.kernel.ports import AboutToSend, Delivery, Notify
from bot.kernel.replies import Reply
from bot.scheduling.dispatcher import MAX_ATTEMPTS, Dispatcher
from bot.scheduling.scheduler import HOUSEKEEPING_JOB_ID, JOB_ID, REGRADE_JOB_ID, Scheduler
from bot.storage.pushes import PushStore
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.shipped import shipped_bank


class Outbox:
    """A recording sender that calls `about_to_send` and reports as a platform adapter does. Users in
    `blocked` are unreachable like a Telegram 403, `crash_on` raise like a dead network (before the
    request leaves), `refused_after_wire` get an error answer (FAILED), and `hang_after_wire` never
    get an answer (the process dies there when the test cancels the tick)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, list[Reply], datetime]] = []
        self.blocked: set[int] = set()
        self.crash_on: set[int] = set()
        self.refused_after_wire: set[int] = set()
        self.hang_after_wire: set[int] = set()
        self.on_the_wire: list[int] = []
        self.tried: Counter[int] = Counter()  # send calls per user, failed ones included
        self.progress = asyncio.Event()  # set whenever a request leaves or a message is recorded
        self.release = asyncio.Event()  # lets the `hang_after_wire` requests complete
        self.clock: FakeClock | None = None

    async def wait(self, done: Callable[[], bool]) -> None:
        while not done():
            self.progress.clear()
            await asyncio.wait_for(self.progress.wait(), 10)

    async def __call__(self, user_id: int, replies: list[Reply], about_to_send: AboutToSend | None) -> Delivery:
        self.tried[user_id] += 1
        if user_id in self.crash_on:
            raise ConnectionError("network down")
        if about_to_send is not None:
            await about_to_send()
        self.on_the_wire.append(user_id)
        self.progress.set()
        if user_id in self.blocked:
            return Delivery.UNREACHABLE
        if user_id in self.refused_after_wire:
            return Delivery.FAILED
        if user_id in self.hang_after_wire:
            await self.release.wait()
        self.sent.append((user_id, replies, self.clock.now() if self.clock else datetime.now(UTC)))
        self.progress.set()
        return Delivery.DELIVERED

    def count(self, kind_text: str = "") -> Counter[int]:
        return Counter(u for u, r, _ in self.sent if kind_text in r[0].text)


@pytest.fixture
async def app(db_url: str) -> AsyncIterator[App]:
    clock = FakeClock(datetime(2026, 3, 1, 0, 0, tzinfo=UTC))
    settings = Settings(database_url=db_url, _env_file=None)  # type: ignore[call-arg]
    a = await build_app(settings, grader=FakeGrader(), clock=clock, fuzz=False, bank=shipped_bank())
    yield a
    await a.close()


def clock_of(app: App) -> FakeClock:
    clock = app.service.deps.clock
    assert isinstance(clock, FakeClock)
    return clock


async def add_user(app: App, name: str, tz: str, daily: str = "09:00", **extra: object) -> int:
    user = await app.service.user_for("test", name)
    await app.store.save_user(user.model_copy(update={"timezone": tz, "daily_time": daily, "onboarded": True, **extra}))
    return user.id


def dispatcher(app: App, outbox: Outbox, **kw: object) -> Dispatcher:
    async def pause(user_id: int) -> None:
        await app.service.set_paused(user_id, True)

    return Dispatcher(app.service.deps, PushStore(app.engines), outbox, pause, **kw)  # type: ignore[arg-type]


async def run_ticks(d: Dispatcher, clock: FakeClock, hours: float, step_min: int = 30) -> None:
    for _ in range(int(hours * 60 / step_min)):
        await d.tick()
        clock.advance(minutes=step_min)


async def test_daily_drill_once_per_local_day_across_timezones(app: App) -> None:
    clock = clock_of(app)
    zones = ["Pacific/Honolulu", "America/Los_Angeles", "UTC", "Asia/Shanghai", "Pacific/Kiritimati"]
    ids = {tz: await add_user(app, tz, tz) for tz in zones}
    outbox = Outbox()
    outbox.clock = clock
    await run_ticks(dispatcher(app, outbox), clock, hours=72)
    daily = [(u, at) for u, r, at in outbox.sent if r[0].kind == "daily"]
    for tz, uid in ids.items():
        local = [at.astimezone(ZoneInfo(tz)) for u, at in daily if u == uid]
        dates = [x.date() for x in local]
        assert len(dates) == len(set(dates)) and len(dates) in (3, 4), (tz, local)  # one per local day
        assert all((b - a).days == 1 for a, b in itertools.pairwise(dates)), tz  # none skipped
        # the first may be a catch-up (the day's time had passed when the bot started); the rest are on time
        assert {x.strftime("%H:%M") for x in local[1:]} == {"09:00"}, (tz, local)


async def test_dst_changes_fire_once_and_never_skip(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 7, 7, 0, tzinfo=UTC)  # 02:00 in New York, the day before it springs forward
    await add_user(app, "ny", "America/New_York", daily="02:30")  # 02:30 does not exist on 8 March
    outbox = Outbox()
    outbox.clock = clock
    await run_ticks(dispatcher(app, outbox), clock, hours=48, step_min=15)
    ny = ZoneInfo("America/New_York")
    daily = [at.astimezone(ny).strftime("%m-%d %H:%M") for u, r, at in outbox.sent if r[0].kind == "daily"]
    assert daily == ["03-07 02:30", "03-08 03:00", "03-09 02:30"]


async def test_fall_back_day_sends_once(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 11, 1, 4, 0, tzinfo=UTC)  # 00:00 EDT; 01:30 happens twice this night
    uid = await add_user(app, "ny", "America/New_York", daily="01:30")
    outbox = Outbox()
    await run_ticks(dispatcher(app, outbox), clock, hours=5, step_min=15)
    assert outbox.count("Your daily drill")[uid] == 1


async def test_a_user_who_was_offline_gets_todays_drill_once(app: App) -> None:
    clock = clock_of(app)
    uid = await add_user(app, "late", "UTC", daily="09:00")
    clock.current = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)  # the bot was down from 08:00 to 15:00
    outbox = Outbox()
    d = dispatcher(app, outbox)
    for _ in range(5):
        await d.tick()
        clock.advance(minutes=1)
    assert outbox.count("Your daily drill")[uid] == 1


async def test_no_push_when_the_user_already_practised_today(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)
    uid = await add_user(app, "keen", "UTC", daily="09:00")
    await app.service.handle_text(uid, "/drill")
    await app.service.handle_text(uid, "an early answer")
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    outbox = Outbox()
    report = await dispatcher(app, outbox).tick()
    assert outbox.count("Your daily drill")[uid] == 0 and report.skipped >= 1
    assert (await PushStore(app.engines).push_states())[f"daily:{uid}:2026-03-02"] == "skipped"


async def test_daily_push_opens_the_question_for_answering(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    uid = await add_user(app, "u", "UTC")
    outbox = Outbox()
    await dispatcher(app, outbox).tick()
    ((_, replies, _),) = [s for s in outbox.sent if s[1][0].kind == "daily"]
    assert replies[0].kind == "daily" and replies[0].text.startswith("Your daily drill:") and replies[0].ask_text
    answer = await app.service.handle_text(uid, "my answer to the pushed question")
    assert answer[0].kind == "grade"


async def test_quiet_hours_delay_the_push(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)
    uid = await add_user(app, "q", "UTC", daily="09:00", quiet_start="08:00", quiet_end="10:30")
    outbox = Outbox()
    outbox.clock = clock
    await run_ticks(dispatcher(app, outbox), clock, hours=12)
    (at,) = [at for u, r, at in outbox.sent if u == uid and r[0].kind == "daily"]
    assert at == datetime(2026, 3, 2, 10, 30, tzinfo=UTC)


async def test_blocked_users_are_paused_and_not_retried(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    uid = await add_user(app, "gone", "UTC")
    outbox = Outbox()
    outbox.blocked.add(uid)
    d = dispatcher(app, outbox)
    report = await d.tick()
    assert (report.paused, report.failed, report.sent) == (1, 0, 0)
    user = await app.store.get_user(uid)
    assert user is not None and user.paused
    states = await PushStore(app.engines).push_states()
    assert [v for k, v in states.items() if k.startswith("daily:")] == ["paused"]  # recorded as paused, not sent
    clock.advance(days=1)
    outbox.blocked.clear()
    await d.tick()
    assert outbox.count()[uid] == 0


async def test_a_crash_mid_dispatch_is_retried_without_duplicates(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    ids = [await add_user(app, f"u{i}", "UTC") for i in range(6)]
    outbox = Outbox()
    outbox.crash_on = set(ids[:3])  # the send fails after the claim: as if the process died there
    first = dispatcher(app, outbox)
    await first.tick()
    assert {u for u, _, _ in outbox.sent} == set(ids[3:])
    restarted = dispatcher(app, outbox)  # a new process on the same database
    outbox.crash_on.clear()
    await restarted.tick()
    assert {u for u, _, _ in outbox.sent} == set(ids[3:])  # claims younger than the stale timeout wait
    clock.advance(minutes=6)
    report = await restarted.tick()
    assert report.retried == 3
    daily = outbox.count("Your daily drill")
    assert all(daily[u] == 1 for u in ids)
    clock.advance(minutes=10)
    await restarted.tick()
    assert all(outbox.count("Your daily drill")[u] == 1 for u in ids)


async def test_two_schedulers_on_one_database_never_send_the_same_push(app: App, db_url: str) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    ids = [await add_user(app, f"u{i}", "UTC") for i in range(40)]
    settings = Settings(database_url=db_url, _env_file=None)  # type: ignore[call-arg]
    other = await build_app(settings, grader=FakeGrader(), clock=clock, fuzz=False, migrate=False, bank=shipped_bank())
    outbox = Outbox()
    a = dispatcher(app, outbox, concurrency=4, page_size=7)
    b = dispatcher(other, outbox, concurrency=4, page_size=7)
    await asyncio.gather(a.tick(), b.tick(), a.tick(), b.tick())
    await other.close()
    daily = outbox.count("Your daily drill")
    assert all(daily[u] == 1 for u in ids), daily


async def test_post_interview_reminders_then_one_more_only_if_nothing_logged(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)
    quiet = await add_user(app, "quiet", "UTC", daily="23:59")
    busy = await add_user(app, "busy", "UTC", daily="23:59")
    for uid in (quiet, busy):
        await app.service.handle_text(uid, "/interview Moonshot | RE | 2026-03-02 10:00")
    outbox = Outbox()
    outbox.clock = clock
    d = dispatcher(app, outbox)
    clock.current = datetime(2026, 3, 2, 11, 59, tzinfo=UTC)
    await d.tick()
    assert not outbox.sent
    clock.current = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    await d.tick()
    assert sorted(u for u, r, _ in outbox.sent if "How did your interview at Moonshot" in r[0].text) == sorted(
        [quiet, busy]
    )
    await app.service.handle_text(busy, "/review Moonshot | How do you pick the warmup length?")
    clock.current = datetime(2026, 3, 3, 12, 0, tzinfo=UTC)
    await d.tick()
    again = [u for u, r, _ in outbox.sent if "Did you get to log the questions" in r[0].text]
    assert again == [quiet]
    clock.advance(days=3)
    await d.tick()
    assert len([1 for u, r, _ in outbox.sent if "Moonshot" in r[0].text]) == 3


async def test_weekly_summary_and_review_nudge(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 3, 8, 0, tzinfo=UTC)  # a Tuesday
    uid = await add_user(app, "w", "UTC", daily="09:00", weekly_day=0, new_per_day=10)
    for _ in range(6):
        await app.service.handle_text(uid, "/drill")
        await app.service.handle_text(uid, "answer")
    await app.service.handle_action(uid, "next")
    clock.current = datetime(2026, 3, 9, 9, 0, tzinfo=UTC)  # next Monday; the cards are due, no practice since
    outbox = Outbox()
    d = dispatcher(app, outbox)
    await d.tick()
    texts = [r[0].text for u, r, _ in outbox.sent if u == uid]
    assert any(x.startswith("Your week: 6 answers") for x in texts)
    (weekly,) = [r[0] for u, r, _ in outbox.sent if r[0].kind == "weekly"]
    assert weekly.image is not None and weekly.image.data.startswith(b"\x89PNG")  # the /stats chart
    assert any("questions are due for review" in x for x in texts)
    clock.advance(hours=3)
    await d.tick()
    assert len([u for u, _, _ in outbox.sent if u == uid]) == len(texts)  # at most one of each a day


async def test_paused_users_get_nothing_and_resume_works(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    uid = await add_user(app, "p", "UTC")
    r = await app.service.handle_text(uid, "/pause")
    assert "paused" in r[0].text
    outbox = Outbox()
    d = dispatcher(app, outbox)
    await d.tick()
    assert not outbox.sent
    await app.service.handle_text(uid, "/resume")
    await d.tick()
    assert outbox.count("Your daily drill")[uid] == 1


async def test_apscheduler_runs_the_tick_as_one_interval_job(app: App) -> None:
    s = Scheduler(dispatcher(app, Outbox()), every_s=30)
    s.start()
    try:
        job = s.aps.get_job(JOB_ID)
        assert job is not None and job.trigger.interval == timedelta(seconds=30)
        assert len(s.aps.get_jobs()) == 1
        d = s.dispatcher
        assert d is not None
        async with d._lock:  # a round in progress: another tick returns at once instead of overlapping
            assert d.busy
            await asyncio.wait_for(s.tick(), 1)
    finally:
        s.shutdown()


class JobRecorder:
    """Where a scheduler sends its jobs: records each job and how it may notify; the first round fails (the LLM
    is down), the next ones regrade two answers. A hand-written fake of the service's `run_job`."""

    def __init__(self) -> None:
        self.sent: list[tuple[c.Job, Notify | None]] = []

    async def run_job(self, job: c.Job, notify: Notify | None = None) -> int:
        self.sent.append((job, notify))
        if len(self.sent) == 1:
            raise RuntimeError("the LLM is down")
        return 2


async def test_the_regrade_round_is_a_job_on_the_same_scheduler(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.scheduling.scheduler")
    service = JobRecorder()
    s = Scheduler(None, jobs=service, regrade_every_s=60)
    s.start()
    try:
        job = s.aps.get_job(REGRADE_JOB_ID)
        assert job is not None and job.trigger.interval == timedelta(seconds=60) and job.max_instances == 1
        assert s.aps.get_job(JOB_ID) is None  # no chat platform: no pushes, the regrades still run
        await job.func()  # the job's own callable, as APScheduler calls it
        assert "regrade round failed" in caplog.text  # logged; the next round tries again
        await job.func()
        assert "regraded 2 answers" in caplog.text and len(service.sent) == 2
    finally:
        s.shutdown()


async def test_the_regrade_tick_sends_the_regrade_round_command_to_the_service() -> None:
    service = JobRecorder()
    router = NotifierRouter(FakeStore())
    s = Scheduler(None, jobs=service, notify=router)
    await s.regrade_tick()
    await s.regrade_tick()
    assert service.sent == [(c.RegradeRound(limit=20), router), (c.RegradeRound(limit=20), router)]
    assert Scheduler(None).jobs is None and Scheduler(None).aps.get_jobs() == []  # no service: no regrade job
    await Scheduler(None).regrade_tick()  # nothing to send it to: nothing happens


async def test_the_composition_root_adds_the_regrade_job_only_with_an_llm(app: App) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    router = NotifierRouter(app.store)
    plain = build_scheduler(app, router, settings, pushes=True)
    assert plain.jobs is None and plain.dispatcher is not None  # no LLM: nothing is ever queued for one
    app.service.deps.grader.estimator = OfflineGrader()  # as when an LLM grades and the offline grader stands by
    with_llm = build_scheduler(app, router, settings, pushes=False)
    assert with_llm.jobs is app.service and with_llm.notify is router and with_llm.dispatcher is None
    # a real round on the real database, sent as the scheduler sends it: nothing queued yet
    assert await app.service.run_job(c.RegradeRound(), with_llm.notify) == 0


async def test_housekeeping_forgets_update_ids_older_than_a_week_and_keeps_the_rest(
    app: App, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.scheduling.scheduler")
    now = clock_of(app).now()
    for key, age in [("old", timedelta(days=7, seconds=1)), ("week", timedelta(days=7) - timedelta(seconds=1)),
                     ("new", timedelta(0))]:  # fmt: skip
        assert await app.store.claim_event(f"telegram:update:{key}", now - age)
    gone = await app.service.user_for("telegram", "77")  # a forgotten user's LLM calls: kept two days, then dropped
    await app.store.record_llm_call(gone.id, "grading", 300, now - timedelta(days=2, seconds=1))
    await app.store.record_llm_call(gone.id, "grading", 20, now - timedelta(days=2) + timedelta(seconds=1))
    await app.store.delete_user(gone.id)
    s = build_scheduler(app, NotifierRouter(app.store), Settings(_env_file=None), pushes=False)  # type: ignore[call-arg]
    s.start()
    try:
        job = s.aps.get_job(HOUSEKEEPING_JOB_ID)
        assert job is not None and job.trigger.interval == timedelta(hours=1) and job.max_instances == 1
        await job.func()
    finally:
        s.shutdown()
    assert "forgot 2 old update ids and usage rows" in caplog.text
    assert await app.store.llm_tokens_since(now - timedelta(days=3)) == 20
    assert await app.store.claim_event("telegram:update:old", now)  # forgotten: a redelivery would be new
    assert not await app.store.claim_event("telegram:update:week", now)
    assert not await app.store.claim_event("telegram:update:new", now)


async def test_a_failed_housekeeping_round_is_logged_and_the_next_one_runs(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []

    async def housekeeping() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("database is locked")
        return 0

    s = Scheduler(None, housekeeping=housekeeping)
    await s.housekeeping_tick()
    assert "housekeeping failed" in caplog.text
    await s.housekeeping_tick()
    assert len(calls) == 2


async def test_study_server_daily_question_is_posted_once_in_its_timezone(app: App) -> None:
    from bot.kernel.models import Guild

    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)
    await app.store.save_guild(
        Guild(
            id="g1",
            channel_id="c1",
            daily_time="09:00",
            timezone="Asia/Shanghai",
            language="zh",
            created_at=clock.now(),
        )
    )
    posts: list[tuple[str, list[Reply], datetime]] = []

    async def post_channel(channel_id: str, replies: list[Reply], about_to_send: AboutToSend | None) -> Delivery:
        posts.append((channel_id, replies, clock.now()))
        return Delivery.DELIVERED

    d = dispatcher(app, Outbox(), post_channel=post_channel)
    await run_ticks(d, clock, hours=30)
    assert [(c, at) for c, _, at in posts] == [
        ("c1", datetime(2026, 3, 2, 1, 0, tzinfo=UTC)),  # 09:00 in Shanghai
        ("c1", datetime(2026, 3, 3, 1, 0, tzinfo=UTC)),
    ]
    assert posts[0][1][0].actions(), "the post carries an Answer button"


async def test_a_claim_left_before_its_message_was_built_is_built_and_sent(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    uid = await add_user(app, "u", "UTC")
    pushes = PushStore(app.engines)
    won = await pushes.claim_many([(f"daily:{uid}:2026-03-02", "daily", uid)], clock.now())  # then the process died
    assert list(won) == [f"daily:{uid}:2026-03-02"]
    outbox = Outbox()
    d = dispatcher(app, outbox)
    await d.tick()
    assert not outbox.sent  # not stale yet, and the key is taken: nothing is sent twice
    clock.advance(minutes=6)
    report = await d.tick()
    assert report.retried == 1 and outbox.count("Your daily drill")[uid] == 1
    assert (await pushes.push_states())[f"daily:{uid}:2026-03-02"] == "sent"


async def test_a_push_that_may_have_left_when_the_process_died_is_never_sent_again(app: App) -> None:
    """At most once: a push marked "sending" by the adapter may have arrived, so after a crash it
    becomes "unconfirmed" and is not sent again; claims that never reached the wire are retried."""
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    doubtful = [await add_user(app, f"u{i}", "UTC") for i in range(2)]
    outbox = Outbox()
    outbox.hang_after_wire = set(doubtful)
    dying = asyncio.create_task(dispatcher(app, outbox, concurrency=4).tick())
    await outbox.wait(lambda: set(doubtful) <= set(outbox.on_the_wire))
    dying.cancel()  # the process dies with both requests in flight
    with pytest.raises(asyncio.CancelledError):
        await dying
    states = await PushStore(app.engines).push_states()
    assert [states[f"daily:{u}:2026-03-02"] for u in doubtful] == ["sending", "sending"]

    others = [await add_user(app, f"v{i}", "UTC") for i in range(3)]
    outbox.hang_after_wire.clear()
    restarted = dispatcher(app, outbox)
    await restarted.tick()
    clock.advance(minutes=6)  # past the stale timeout
    await restarted.tick()
    daily = outbox.count("Your daily drill")
    assert [daily[u] for u in doubtful + others] == [0, 0, 1, 1, 1]  # never twice: the two in doubt stay
    states = await PushStore(app.engines).push_states()
    assert [states[f"daily:{u}:2026-03-02"] for u in doubtful + others] == ["unconfirmed"] * 2 + ["sent"] * 3


async def test_an_error_answer_after_the_wire_puts_the_push_back_for_a_retry(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    uid = await add_user(app, "u", "UTC")
    outbox = Outbox()
    outbox.refused_after_wire = {uid}
    d = dispatcher(app, outbox)
    report = await d.tick()
    assert report.failed == 1 and not outbox.sent
    key = f"daily:{uid}:2026-03-02"
    assert (await PushStore(app.engines).push_states())[key] == "claimed"
    outbox.refused_after_wire.clear()
    clock.advance(minutes=6)
    report = await d.tick()
    assert report.retried == 1 and outbox.count("Your daily drill")[uid] == 1
    assert (await PushStore(app.engines).push_states())[key] == "sent"


async def test_stopping_finishes_the_sends_under_way_and_claims_nothing_more(app: App) -> None:
    """A normal shutdown (SIGTERM) leaves no push in doubt: the sends under way complete and are
    marked sent; jobs claimed but not started stay claimed for the next process."""
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    ids = [await add_user(app, f"u{i}", "UTC") for i in range(6)]
    outbox = Outbox()
    outbox.hang_after_wire = set(ids[:2])
    d = dispatcher(app, outbox, concurrency=2)
    round_ = asyncio.create_task(d.tick())
    await outbox.wait(lambda: set(ids[:2]) <= set(outbox.on_the_wire))
    d.stop()
    outbox.release.set()
    report = await round_
    await d.wait_idle()
    assert report.sent == 2 and sorted(u for u, _, _ in outbox.sent) == ids[:2]
    states = await PushStore(app.engines).push_states()
    daily = {u: states.get(f"daily:{u}:2026-03-02") for u in ids}
    assert [daily[u] for u in ids[:2]] == ["sent", "sent"]
    assert all(daily[u] in (None, "claimed") for u in ids[2:])  # never "sending": nothing in doubt
    assert (await d.tick()).sent == 0  # a stopped dispatcher starts no new round


async def test_a_push_that_keeps_failing_is_given_up_after_max_attempts(app: App) -> None:
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    uid = await add_user(app, "flaky", "UTC")
    outbox = Outbox()
    outbox.crash_on = {uid}  # every send fails before it leaves: the claim goes stale and is retried
    d = dispatcher(app, outbox)
    for _ in range(MAX_ATTEMPTS + 3):
        await d.tick()
        clock.advance(minutes=6)
    assert outbox.tried[uid] == 1 + MAX_ATTEMPTS  # the first try and MAX_ATTEMPTS retries, then given up
    assert (await PushStore(app.engines).push_states())[f"daily:{uid}:2026-03-02"] == "failed"
    outbox.crash_on.clear()
    await d.tick()
    assert outbox.count("Your daily drill")[uid] == 0  # not sent later either


async def test_a_reminder_that_may_have_left_when_the_process_died_is_never_sent_again(app: App) -> None:
    """A process died with the reminder's request in flight: it had claimed the reminder and marked it
    "sending" (what the dispatcher does right before a request leaves, see the about-to-send tests).
    Those rows are made here through the push store, as the dead process left them: cancelling a task
    in this process stands in badly for a death (its connections and locks outlive it), and made this
    test hang now and then."""
    clock = clock_of(app)
    clock.current = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)
    uid = await add_user(app, "asked", "UTC", daily="23:59")
    await app.service.handle_text(uid, "/interview Moonshot | RE | 2026-03-02 10:00")
    clock.current = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    pushes = PushStore(app.engines)
    (due,) = await pushes.due_reminders(clock.now(), clock.now() - timedelta(minutes=5))
    assert await pushes.claim_reminder(due.id, clock.now(), clock.now() - timedelta(minutes=5))
    await pushes.mark_reminder(due.id, "sending", clock.now())  # the request left; then the process died
    outbox = Outbox()
    restarted = dispatcher(app, outbox)
    await restarted.tick()  # too early to call it lost: it may still be on its way
    assert (await app.store.list_reminders(uid))[0].state == "sending" and not outbox.sent
    clock.advance(minutes=6)
    await restarted.tick()
    (reminder,) = [r for r in await app.store.list_reminders(uid) if r.kind == "post_interview"]
    assert reminder.state == "unconfirmed" and not outbox.sent  # it may have arrived: never sent twice
