"""What the scheduler pushes, and when: pure rules on the user's local time, and the replies.

The scheduler (bot/scheduling) only ticks and asks these functions; times are UTC in and out,
and the user's timezone is used for "today", the daily time and quiet hours (design section 6).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Protocol

from bot.features.apps import data as apps_data
from bot.features.drill import drill
from bot.features.stats.report import build_progress, chart_attachment
from bot.kernel import actions
from bot.kernel.deps import Deps
from bot.kernel.i18n import t, tn
from bot.kernel.models import Reminder, User
from bot.kernel.render import subtopic_name
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Answering, ConfirmingForget, InFlow, Onboarding
from bot.kernel.timeutil import fmt_local, local_now, parse_hhmm, start_of_local_day

NUDGE_MIN_DUE = 5
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


async def daily_drill(deps: Deps, user: User) -> list[Reply] | None:
    """The daily push: the next due (or new) question, opened as the user's current question.

    Returns None when there is nothing to ask (no due card and today's new limit reached)."""
    session = await deps.store.get_session(user.id)
    if isinstance(session, InFlow | Onboarding | ConfirmingForget):
        return None  # the user is in the middle of a conversation: do not interrupt it
    # yesterday's question still open is asked again
    picked = await drill.ask_again(deps, session) or await drill.pick_next(deps, user, deps.clock.now())
    if picked is None:
        return None
    card, q, tag = picked
    await deps.store.set_session(user.id, Answering(card_id=card.id))
    shown = drill.show_question(q, card, user, tag, await drill.asked_as(deps, user, q, tag))
    first = shown[0]
    head = Reply(t(user.language, "push.daily") + "\n\n" + first.text, first.buttons, kind="daily", ask_text=True)
    now = deps.clock.now()
    return with_late_note([head, *shown[1:]], user, daily_instant(user, now), now)


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


async def review_nudge(deps: Deps, user: User, last_answer: datetime | None) -> list[Reply] | None:
    """One short nudge when many cards are due and the user has not practised for a day."""
    now = deps.clock.now()
    if last_answer is not None and last_answer > now - timedelta(days=1):
        return None
    due = await deps.store.count_due(user.id, now)
    if due < NUDGE_MIN_DUE:
        return None
    return [Reply(tn(user.language, "review_due_nudge", due), [[Button("/drill", actions.Next().encode())]])]


async def post_interview(deps: Deps, user: User, payload: dict[str, Any], second: bool) -> list[Reply] | None:
    """After an interview: ask how it went; the next-day reminder only if nothing was logged since."""
    company = str(payload.get("company", ""))
    if second:
        since = datetime.fromisoformat(str(payload.get("at"))) if payload.get("at") else None
        items = await deps.store.list_review_items(user.id)
        if any(i.company == company and (since is None or i.created_at >= since) for i in items):
            return None
        return [Reply(t(user.language, "post_interview_again", company=company))]
    return [Reply(t(user.language, "post_interview", company=company))]


async def reminder_replies(deps: Deps, user: User, reminder: Reminder) -> list[Reply] | None:
    """A due reminder as its message, by kind: an application's follow-up (/apps), else after an interview."""
    if reminder.kind == apps_data.FOLLOW_UP:
        replies = await apps_data.follow_up_push(deps, user, reminder.payload)
    else:
        replies = await post_interview(deps, user, reminder.payload, reminder.kind == "post_interview_again")
    return with_late_note(replies, user, reminder.due_at, deps.clock.now())


@dataclass(frozen=True)
class WeekSummary:
    reviews: int
    mean: int | None
    weakest: str | None


async def weekly_summary(deps: Deps, user: User) -> list[Reply] | None:
    now = deps.clock.now()
    attempts = [
        a
        for a in await deps.store.list_attempts(user.id)
        if not a.is_follow_up and a.created_at > now - timedelta(days=7) and a.status in ("graded", "regrade")
    ]
    if not attempts:
        return [Reply(t(user.language, "push.weekly_empty"), [[Button("/drill", actions.Next().encode())]])]
    scores: dict[str, list[int]] = {}
    for a in attempts:
        q = await deps.question(a.question_id)
        if a.grade is not None and q is not None:
            scores.setdefault(q.subtopic, []).append(a.grade.score)
    all_scores = [s for v in scores.values() for s in v]
    mean = round(sum(all_scores) / len(all_scores)) if all_scores else None
    weakest = min(scores, key=lambda k: sum(scores[k]) / len(scores[k])) if scores else None
    lang = user.language
    text = t(
        lang,
        "push.weekly",
        answers=tn(lang, "count.answer", len(attempts)),
        mean=mean if mean is not None else "-",
        weakest=subtopic_name(weakest, lang) if weakest else "-",
    )
    image = await chart_attachment(deps, await build_progress(deps, user), user.language)
    return [Reply(text, [[Button("/drill", actions.Next().encode())]], image=image, kind="weekly")]


def next_daily_instant(user: User, now: datetime) -> datetime:
    """When the next daily drill is due (UTC), for display and for tests."""
    local = local_now(now, user.timezone)
    target = datetime.combine(local.date(), _hhmm(user.daily_time), tzinfo=local.tzinfo)
    if local.time() >= _hhmm(user.daily_time):
        target = datetime.combine(local.date() + timedelta(days=1), _hhmm(user.daily_time), tzinfo=local.tzinfo)
    return target.astimezone(UTC)
