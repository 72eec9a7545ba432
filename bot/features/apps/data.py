"""/apps from the store: the board (text, PNG and the short insights under it), the full insights, and the
follow-up reminders (created here; the scheduler renders a due one through `follow_up_push`). What /apps uses is
`Tracker`, the group its handlers name (bot/features/career/tool.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from bot.features.apps import actions as btn
from bot.features.apps.attach import Attached, attach_all
from bot.features.apps.board import days_since, display_number
from bot.features.apps.insights import AppsInsights, compute_insights
from bot.features.apps.ports import ApplicationsPort, AppsChartRenderer
from bot.features.apps.view import board_data, board_text, insights_short, insights_text, stage_label
from bot.features.career.models import CLOSED_STAGES, Application
from bot.features.review.companies import company_name
from bot.features.stats.progress import mastery_by_subtopic, reviewed
from bot.kernel import actions
from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.lookups import Questions
from bot.kernel.models import Reminder, User
from bot.kernel.ports import Clock
from bot.kernel.push_rules import register_reminder
from bot.kernel.replies import Attachment, Button, Reply
from bot.kernel.store_ports import AttemptsPort, CardsPort, InterviewsPort, RemindersPort, UsersPort
from bot.kernel.timeutil import fmt_local, local_now, parse_hhmm, zone

log = logging.getLogger(__name__)

FOLLOW_UP = "app_follow_up"
"""The reminder kind of "follow up on this application in N days"."""
DEFAULT_REMIND_DAYS = 7
MAX_REMIND_DAYS = 90
REMIND_CHOICES = (3, 7, 14)
MAX_PENDING_REMINDERS = 3  # per application
BOARD_BUTTONS = 8  # open applications given a button under the board


@group
@dataclass(frozen=True)
class Tracker:
    """What /apps uses: the user's state, applications and reminders, the interviews and /review questions that
    attach to them, the cards and answers with the questions by id and the bank (the insights), the board's renderer
    (None: text only), the clock and the limits."""

    users: UsersPort
    applications: ApplicationsPort
    reminders: RemindersPort
    interviews: InterviewsPort
    cards: CardsPort
    attempts: AttemptsPort
    questions: Questions
    bank: Bank
    apps_charts: AppsChartRenderer | None
    clock: Clock
    limits: Limits


async def attached_to(interviews: InterviewsPort, user: User, apps: Sequence[Application]) -> dict[int, Attached]:
    logs = await interviews.list_interviews(user.id)
    items = await interviews.list_review_items(user.id)
    return attach_all(apps, logs, items)


async def compute(
    tracker: Tracker, user: User, apps: Sequence[Application], found: dict[int, Attached]
) -> AppsInsights:
    """The insights now: what the attached logs asked, with the user's mastery of each subtopic."""
    now = tracker.clock.now()
    cards = await tracker.cards.list_cards(user.id)
    attempts = reviewed(await tracker.attempts.list_attempts(user.id))
    ids = sorted({c.question_id for c in cards} | {a.question_id for a in attempts})
    questions = {qid: await tracker.questions.get(qid) for qid in ids}
    scored = []
    for a in attempts:
        q = questions.get(a.question_id)
        if a.grade is not None and q is not None:
            scored.append(((q.topic, q.subtopic), a.grade.score))
    mastery = mastery_by_subtopic(cards, scored, questions, now, user.desired_retention)
    return compute_insights(apps, found, mastery, tracker.bank.all(), cards, now)


async def board(tracker: Tracker, user: User) -> list[Reply]:
    """The board as text with its PNG (when a renderer is there), the short insights under it, and buttons."""
    lang, now = user.language, tracker.clock.now()
    apps = await tracker.applications.list_applications(user.id)
    if not apps:
        return [Reply(t(lang, "apps.empty"), [[Button(t(lang, "apps.btn.add"), btn.Add().encode())]])]
    found = await attached_to(tracker.interviews, user, apps)
    ins = await compute(tracker, user, apps, found)
    text = board_text(lang, apps, found, now, insights_short(lang, ins, apps))
    image = None
    if tracker.apps_charts is not None:
        try:
            png = await asyncio.to_thread(tracker.apps_charts.render_board, board_data(lang, apps, found, now))
            image = Attachment(f"apps-{now.date().isoformat()}.png", png, "image/png")
        except Exception:
            log.exception("application board chart failed; sending the text alone")
    open_apps = [a for a in apps if a.stage not in CLOSED_STAGES][:BOARD_BUTTONS]
    rows = [
        [Button(f"#{display_number(a, apps)} {company_name(a.company, lang)}"[:40], btn.Show(id=a.id).encode())
         for a in open_apps[i : i + 4]]
        for i in range(0, len(open_apps), 4)
    ]  # fmt: skip
    rows.append(
        [
            Button(t(lang, "apps.btn.add"), btn.Add().encode()),
            Button(t(lang, "apps.btn.insights"), btn.Insights().encode()),
        ]
    )
    return [Reply(text, rows, image=image)]


async def insights(tracker: Tracker, user: User) -> list[Reply]:
    lang = user.language
    apps = await tracker.applications.list_applications(user.id)
    found = await attached_to(tracker.interviews, user, apps)
    ins = await compute(tracker, user, apps, found)

    def prompt(qid: str) -> str:
        q = tracker.bank.get(qid)
        return q.prompt.get(lang) if q else qid

    rows = [[Button("/drill", actions.Next().encode()), Button(t(lang, "apps.btn.board"), btn.Board().encode())]]
    return [Reply(insights_text(lang, ins, apps, prompt), rows)]


def follow_up_time(user: User, now: datetime, days: int) -> datetime:
    """`days` local days from today, at the user's daily time (UTC)."""
    tz = zone(user.timezone)
    local = local_now(now, user.timezone)
    hh, mm = (int(x) for x in (parse_hhmm(user.daily_time) or "09:00").split(":"))
    due = datetime.combine(local.date() + timedelta(days=days), time(hh, mm), tzinfo=tz or local.tzinfo)
    return due.astimezone(now.tzinfo)


def pending_for(reminders: Sequence[Reminder], app: Application) -> list[Reminder]:
    """The follow-up reminders on this application not sent yet."""
    return [r for r in reminders if r.kind == FOLLOW_UP and r.state == "pending" and r.payload.get("app_id") == app.id]


async def add_follow_up(app: Application, days: int, reminders: RemindersPort, clock: Clock, user: User) -> Reply:
    """A follow-up reminder on the application in `days` days; at most MAX_PENDING_REMINDERS pending each."""
    lang, now = user.language, clock.now()
    pending = pending_for(await reminders.list_reminders(user.id), app)
    if len(pending) >= MAX_PENDING_REMINDERS:
        return Reply(t(lang, "apps.too_many_reminders", limit=MAX_PENDING_REMINDERS), kind="error")
    due = follow_up_time(user, now, days)
    payload: dict[str, object] = {"app_id": app.id, "company": app.company, "days": days}
    await reminders.add_reminder(Reminder(id=0, user_id=user.id, kind=FOLLOW_UP, due_at=due, payload=payload))
    when = fmt_local(due, user.timezone)
    name = company_name(app.company, lang)
    buttons = [[Button(t(lang, "apps.btn.remind_off"), btn.RemindOff(id=app.id).encode()),
                Button(t(lang, "apps.btn.open"), btn.Show(id=app.id).encode())]]  # fmt: skip
    text = t(lang, "apps.reminder_added", company=name, days=tn(lang, "count.day", days), when=when)
    return Reply(text, buttons, promise=True)


async def cancel_follow_ups(app: Application, reminders: RemindersPort, user: User) -> Reply:
    """Every follow-up reminder on the application not sent yet is cancelled (one being sent right now is not)."""
    lang, name = user.language, company_name(app.company, user.language)
    pending = pending_for(await reminders.list_reminders(user.id), app)
    cancelled = await reminders.cancel_reminders(user.id, [r.id for r in pending])
    buttons = [[Button(t(lang, "apps.btn.open"), btn.Show(id=app.id).encode())]]
    if not cancelled:
        return Reply(t(lang, "apps.no_reminders", company=name), buttons)
    return Reply(
        t(lang, "apps.reminders_cancelled", company=name, count=tn(lang, "count.reminder", cancelled)), buttons
    )


async def follow_up_push(
    applications: ApplicationsPort, clock: Clock, user: User, payload: dict[str, object]
) -> list[Reply] | None:
    """A due follow-up reminder as a message; None (nothing sent) when the application is gone, another
    user's, or closed since."""
    raw = payload.get("app_id")
    app = await applications.get_application(raw) if isinstance(raw, int) else None
    if app is None or app.user_id != user.id or app.stage in CLOSED_STAGES:
        return None
    lang, now = user.language, clock.now()
    apps = await applications.list_applications(user.id)
    text = t(lang, "apps.follow_up_push", number=display_number(app, apps), company=company_name(app.company, lang),
             stage=stage_label(lang, app.stage, app.round), days=tn(lang, "count.day", days_since(app, now)))  # fmt: skip
    return [Reply(text, [[Button(t(lang, "apps.btn.open"), btn.Show(id=app.id).encode())]], kind="reminder")]


async def _follow_up_reminder(
    user: User, reminder: Reminder, applications: ApplicationsPort, clock: Clock
) -> list[Reply] | None:
    """The follow-up push, named what it uses (bot/kernel/push_rules.py binds it)."""
    return await follow_up_push(applications, clock, user, reminder.payload)


register_reminder(FOLLOW_UP, _follow_up_reminder)
