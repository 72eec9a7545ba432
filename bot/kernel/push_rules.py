"""What the scheduler pushes, and when: pure rules on the user's local time, and who builds each push.

The scheduler (bot/scheduling) only ticks and asks these functions; times are UTC in and out,
and the user's timezone is used for "today", the daily time and quiet hours (design section 6).
The pushes themselves are built by the features, which register a builder per kind when imported
(`register_push`, `register_reminder`, `register_server_post`): the daily drill and the nudge by the
drill, the weekly summary by /stats, an interview's reminders by /interview, a follow-up by /apps.
A builder names what it uses as a handler does (bot/kernel/inject.py): its per-call values (`PUSH_CALL`,
`REMINDER_CALL`, `SERVER_POST_CALL`) and the dependencies it uses, bound when the dispatcher is built
(`bind_pushes`), so an unknown name fails at start-up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Protocol, TypeVar, cast

from bot.kernel.i18n import t
from bot.kernel.inject import Bound, bind
from bot.kernel.models import Guild, Reminder, User
from bot.kernel.ports import Clock
from bot.kernel.replies import Reply
from bot.kernel.timeutil import fmt_local, local_now, parse_hhmm, start_of_local_day

PushBuilder = Callable[..., Awaitable["list[Reply] | None"]]
"""A user's push of one kind (daily, nudge, weekly), given `user` and `last_answer` (the time of their last answer,
or None) and what else it names; None: nothing to send."""
ReminderBuilder = Callable[..., Awaitable["list[Reply] | None"]]
"""A due reminder of one kind as its message, given `user` and `reminder` and what else it names; None: nothing."""
ServerPost = Callable[..., "Reply | None"]
"""A study server's post of the day in its channel, given `guild` and `now` and what else it names (not awaited)."""
PUSH_CALL = ("user", "last_answer")
REMINDER_CALL = ("user", "reminder")
SERVER_POST_CALL = ("guild", "now")

K = TypeVar("K")
_pushes: dict[str, PushBuilder] = {}
_reminders: dict[str, ReminderBuilder] = {}
_server_post: list[ServerPost] = []


def _put(table: dict[str, Callable[..., object]], kind: str, builder: Callable[..., object]) -> None:
    if table.setdefault(kind, builder) is not builder:
        raise ValueError(f"two features build the push {kind!r}")


def register_push(kind: str, builder: PushBuilder) -> None:
    """The feature that builds a user's push of `kind` (one per kind: a second one raises)."""
    _put(_pushes, kind, builder)  # type: ignore[arg-type]


def register_reminder(kind: str, builder: ReminderBuilder) -> None:
    """The feature that builds a due reminder of `kind` (one per kind: a second one raises)."""
    _put(_reminders, kind, builder)  # type: ignore[arg-type]


def register_server_post(builder: ServerPost) -> None:
    if _server_post and _server_post[0] is not builder:
        raise ValueError("two features build the study server's post")
    _server_post[:] = [builder]


@dataclass
class Pushes:
    """Every registered builder with what it names (`bind_pushes`): the dispatcher's, made when it is. A builder
    registered after that (a test's) is bound when first asked."""

    provided: Mapping[str, object]
    pushes: dict[str, Bound]
    reminders: dict[str, Bound]
    posts: dict[ServerPost, Bound]

    async def push(self, kind: str, user: User, last_answer: datetime | None) -> list[Reply] | None:
        """The push of `kind` for `user`, by the feature registered for it."""
        builder = _pushes.get(kind)
        if builder is None:
            raise LookupError(f"no feature builds the push {kind!r}")
        bound = _bound(self.pushes, kind, builder, self.provided, PUSH_CALL)
        replies: list[Reply] | None = await bound(user=user, last_answer=last_answer)
        return replies

    async def reminder(self, user: User, reminder: Reminder) -> list[Reply] | None:
        """A due reminder as its message, by the feature registered for its kind; None for a kind no feature
        builds (nothing is sent)."""
        builder = _reminders.get(reminder.kind)
        if builder is None:
            return None
        bound = _bound(self.reminders, reminder.kind, builder, self.provided, REMINDER_CALL)
        replies: list[Reply] | None = await bound(user=user, reminder=reminder)
        clock = cast(Clock, self.provided["clock"])
        return with_late_note(replies, user, reminder.due_at, clock.now())

    def server_post(self, guild: Guild, now: datetime) -> Reply | None:
        """A study server's post of the day, when the study-server feature is there."""
        if not _server_post:
            return None
        bound = _bound(self.posts, _server_post[0], _server_post[0], self.provided, SERVER_POST_CALL)
        post: Reply | None = bound(guild=guild, now=now)
        return post


def _bound(
    table: dict[K, Bound],
    key: K,
    builder: Callable[..., object],
    provided: Mapping[str, object],
    per_call: tuple[str, ...],
) -> Bound:
    bound = table.get(key)
    if bound is None:
        bound = table[key] = bind(builder, provided, per_call)
    return bound


def bind_pushes(provided: Mapping[str, object]) -> Pushes:
    """Every registered builder bound to what it names from `provided` (each value read when the push is built, as
    a handler's): a name nothing provides raises UnknownDependency here."""
    pushes = {kind: bind(builder, provided, PUSH_CALL) for kind, builder in _pushes.items()}
    reminders = {kind: bind(builder, provided, REMINDER_CALL) for kind, builder in _reminders.items()}
    posts = {builder: bind(builder, provided, SERVER_POST_CALL) for builder in _server_post}
    return Pushes(provided, pushes, reminders, posts)


LATE_AFTER = timedelta(minutes=15)
"""A push sent this long after its time shows the time it was due (the bot or the terminal was not running)."""


def _hhmm(value: str) -> time:
    hh, mm = (int(x) for x in (parse_hhmm(value) or "09:00").split(":"))
    return time(hh, mm)


def in_quiet_hours(user: User, now: datetime) -> bool:
    """Quiet hours are a local window [start, end); it may wrap midnight (23:00-08:00)."""
    if not user.quiet_start or not user.quiet_end:
        return False
    start, end, at = _hhmm(user.quiet_start), _hhmm(user.quiet_end), local_now(now, user.timezone).time()
    if start == end:
        return False
    return start <= at < end if start < end else (at >= start or at < end)


class HasDailyTime(Protocol):
    timezone: str
    daily_time: str


def daily_date(user: HasDailyTime, now: datetime) -> date | None:
    """The local date whose daily drill is due now: the daily time has passed today (wall clock, so
    a daily time skipped by a DST change fires at the first local time after it)."""
    local = local_now(now, user.timezone)
    return local.date() if local.time() >= _hhmm(user.daily_time) else None


def daily_key(user_id: int, day: date) -> str:
    return f"daily:{user_id}:{day.isoformat()}"


def practised_before_push(user: User, last_answer: datetime | None, now: datetime) -> bool:
    """True when the user already answered something today (local) before the push was due."""
    return last_answer is not None and last_answer >= start_of_local_day(now, user.timezone)


def weekly_key(user: User, now: datetime) -> str | None:
    """The weekly summary key when today is the user's weekly day and the daily time has passed."""
    if user.weekly_day is None:
        return None
    local = local_now(now, user.timezone)
    if local.weekday() != user.weekly_day or local.time() < _hhmm(user.daily_time):
        return None
    year, week, _ = local.isocalendar()
    return f"weekly:{user.id}:{year}-W{week:02d}"


def nudge_key(user: User, now: datetime) -> str:
    return f"nudge:{user.id}:{local_now(now, user.timezone).date().isoformat()}"


def daily_instant(user: User, now: datetime) -> datetime:
    """Today's daily time (the user's local day) as a UTC instant."""
    local = local_now(now, user.timezone)
    return datetime.combine(local.date(), _hhmm(user.daily_time), tzinfo=local.tzinfo).astimezone(UTC)


def with_late_note(replies: list[Reply] | None, user: User, due: datetime, now: datetime) -> list[Reply] | None:
    """The first reply with the time it was due in front, when it goes out LATE_AFTER or more past it (the bot,
    or the terminal chat, was not running then), so a catch-up is never read as sent on time."""
    if not replies or now - due < LATE_AFTER:
        return replies
    note = t(user.language, "push.late", when=fmt_local(due, user.timezone))
    return [replace(replies[0], text=note + "\n" + replies[0].text), *replies[1:]]


def next_daily_instant(user: User, now: datetime) -> datetime:
    """When the next daily drill is due (UTC), for display and for tests."""
    local = local_now(now, user.timezone)
    target = datetime.combine(local.date(), _hhmm(user.daily_time), tzinfo=local.tzinfo)
    if local.time() >= _hhmm(user.daily_time):
        target = datetime.combine(local.date() + timedelta(days=1), _hhmm(user.daily_time), tzinfo=local.tzinfo)
    return target.astimezone(UTC)
