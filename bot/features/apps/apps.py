"""/apps: the application board. Applications with company, role, stage (applied -> screen -> technical
1..n -> HR -> offer, or rejected / withdrawn), dated notes and follow-up reminders; the interviews and /review
questions logged at a company attach to its application (bot/features/apps/attach.py), and the insights across
applications come from them (bot/features/apps/insights.py).

Typed: `/apps`, `/apps add Company | role | notes` (or `/apps add` step by step), `/apps N`, `/apps N stage
technical 2` (or `/apps N 二面`), `/apps N note ...`, `/apps N remind 7`, `/apps N remind off` (or `取消提醒`),
`/apps N delete`, `/apps insights`.
Buttons: `cr:apps:<verb>:<id>...` (typed in bot/features/apps/actions.py), every id checked against the user."""

from __future__ import annotations

import re

from bot.features.apps import actions as btn
from bot.features.apps import data as apps_data
from bot.features.apps.board import MAX_ROUND, by_number, display_number, move, next_number, next_stage, parse_stage
from bot.features.apps.data import Tracker
from bot.features.apps.view import app_text, stage_label
from bot.features.career.models import CLOSED_STAGES, STAGES, Application, AppNote, StageChange
from bot.features.career.tool import Tool
from bot.features.review.companies import company_name
from bot.kernel.actions import ToolAction
from bot.kernel.i18n import t, tn
from bot.kernel.models import Lang, User
from bot.kernel.parsing import split_fields
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer

MAX_APPS = 200
MAX_NOTE_CHARS = 2000
MAX_NOTES = 50

_ADD = {"add", "new", "+", "添加", "新增", "新建"}
_INSIGHTS = {"insights", "insight", "stats", "洞察", "分析", "统计"}
_STAGE = {"stage", "move", "mv", "阶段", "进度", "状态"}
_NOTE = {"note", "notes", "笔记", "备注", "记录"}
_DELETE = {"delete", "del", "remove", "rm", "删除", "删掉"}
_SKIP = {"skip", "none", "-", "跳过", "无", "没有"}
_REMIND = re.compile(r"remind|follow|提醒|跟进")
_REMIND_OFF = re.compile(  # with _REMIND: cancel the application's reminders
    r"\b(?:off|cancel|stop|clear)\b|\b(?:don'?t|do not|no more)\s+(?:remind|follow)|取消|关闭|停止"
    r"|(?:别|不用|不要|无需)再?(?:提醒|跟进)"
)


async def command(args: str, tracker: Tracker, user: User) -> list[Reply]:
    words = args.strip()
    head, _, rest = words.partition(" ")
    low = head.casefold()
    if not words:
        return await apps_data.board(tracker, user)
    if low in _ADD:
        return await _add_command(rest.strip(), tracker, user)
    if low in _INSIGHTS:
        return await apps_data.insights(tracker, user)
    if head.lstrip("#").isdigit():
        apps = await tracker.applications.list_applications(user.id)
        app = by_number(apps, int(head.lstrip("#")))
        if app is None:
            return [_not_found(user.language)]
        return await _on_app(app, rest.strip(), tracker, user)
    return [_usage(user.language)]


async def _on_app(app: Application, rest: str, tracker: Tracker, user: User) -> list[Reply]:
    """`/apps N ...`: show it, move it, note on it, a reminder, or delete it."""
    lang = user.language
    if not rest:
        return await show(app, tracker, user)
    head, _, tail = rest.partition(" ")
    low = head.casefold()
    if low in _NOTE:
        return await add_note(app, tail, tracker, user)
    if low in _DELETE:
        return [_confirm_delete(lang, app)]
    if _REMIND.search(rest.casefold()):
        if _REMIND_OFF.search(rest.casefold()):
            return [await apps_data.cancel_follow_ups(app, tracker.reminders, user)]
        days = re.search(r"\d+", rest)
        return await remind(app, int(days.group()) if days else apps_data.DEFAULT_REMIND_DAYS, tracker, user)
    target = parse_stage(tail if low in _STAGE else rest, app)
    if target is None:
        return [Reply(t(lang, "apps.bad_stage", value=(tail if low in _STAGE else rest)[:40]), kind="error")]
    return await move_to(app, target[0], target[1], tracker, user)


async def show(app: Application, tracker: Tracker, user: User) -> list[Reply]:
    apps = await tracker.applications.list_applications(user.id)
    found = await apps_data.attached_to(tracker.interviews, user, apps)
    reminders = apps_data.pending_for(await tracker.reminders.list_reminders(user.id), app)
    text = app_text(user.language, app, apps, found.get(app.id), reminders, user.timezone, tracker.clock.now())
    return [Reply(text, app_buttons(user.language, app, reminding=bool(reminders)))]


def app_buttons(lang: Lang, app: Application, reminding: bool = False) -> list[list[Button]]:
    """Move it (the next stage, offer, rejected, withdrawn), a note, a reminder (or cancel the ones set when
    `reminding`), delete; the board."""
    moves = []
    upcoming = next_stage(app)
    if upcoming is not None:
        stage, round_ = upcoming
        moves.append(
            Button("→ " + stage_label(lang, stage, round_), btn.Move(id=app.id, stage=stage, round=round_).encode())
        )
    if app.stage == "technical":
        moves.append(Button("→ " + stage_label(lang, "hr"), btn.Move(id=app.id, stage="hr").encode()))
    for stage in ("offer", "rejected", "withdrawn"):
        if app.stage != stage and (upcoming is None or upcoming[0] != stage):
            moves.append(Button(stage_label(lang, stage), btn.Move(id=app.id, stage=stage).encode()))
    return [
        moves,
        [
            Button(t(lang, "apps.btn.note"), btn.Note(id=app.id).encode()),
            Button(t(lang, "apps.btn.remind"), btn.Remind(id=app.id).encode()),
            *([Button(t(lang, "apps.btn.remind_off"), btn.RemindOff(id=app.id).encode())] if reminding else []),
            Button(t(lang, "apps.btn.delete"), btn.Delete(id=app.id).encode()),
        ],
        [Button(t(lang, "apps.btn.board"), btn.Board().encode())],
    ]


async def move_to(app: Application, stage: str, round_: int, tracker: Tracker, user: User) -> list[Reply]:
    lang = user.language
    if stage not in STAGES or (stage == "technical" and not 1 <= round_ <= MAX_ROUND):
        return [_not_found(lang)]
    moved = move(app, stage, round_, tracker.clock.now())
    if moved is None:
        return [Reply(t(lang, "apps.already", stage=stage_label(lang, app.stage, app.round)))]
    await tracker.applications.save_application(moved)
    key = "apps.closed_now" if moved.stage in CLOSED_STAGES else "apps.moved"
    text = t(lang, key, number=display_number(app, await tracker.applications.list_applications(user.id)),
             company=company_name(app.company, lang), stage=stage_label(lang, moved.stage, moved.round))  # fmt: skip
    return [Reply(text, app_buttons(lang, moved))]


async def add_note(app: Application, text: str, tracker: Tracker, user: User) -> list[Reply]:
    lang, text = user.language, text.strip()
    if not text:
        await tracker.users.set_session(user.id, InCareer(tool="apps", step="note", data={"id": str(app.id)}))
        return [Reply(t(lang, "apps.ask_note", company=company_name(app.company, lang)), _cancel(lang), ask_text=True)]
    if len(text) > MAX_NOTE_CHARS:
        return [Reply(t(lang, "apps.note_too_long", length=len(text), limit=MAX_NOTE_CHARS), kind="error")]
    if len(app.note_log) >= MAX_NOTES:
        return [Reply(t(lang, "apps.too_many_notes", limit=MAX_NOTES), kind="error")]
    now = tracker.clock.now()
    notes = [*app.note_log, AppNote(text=text, at=now)]
    await tracker.applications.save_application(app.model_copy(update={"note_log": notes, "updated_at": now}))
    return [Reply(t(lang, "apps.noted", company=company_name(app.company, lang), n=len(notes), limit=MAX_NOTES),
                  [[Button(t(lang, "apps.btn.open"), btn.Show(id=app.id).encode())]])]  # fmt: skip


async def remind(app: Application, days: int, tracker: Tracker, user: User) -> list[Reply]:
    lang = user.language
    if not 1 <= days <= apps_data.MAX_REMIND_DAYS:
        return [Reply(t(lang, "apps.bad_days", limit=apps_data.MAX_REMIND_DAYS), kind="error")]
    return [await apps_data.add_follow_up(app, days, tracker.reminders, tracker.clock, user)]


def _confirm_delete(lang: Lang, app: Application) -> Reply:
    buttons = [[Button(t(lang, "apps.btn.delete_yes"), btn.DeleteConfirmed(id=app.id).encode()),
                Button(t(lang, "btn.cancel"), btn.Show(id=app.id).encode())]]  # fmt: skip
    return Reply(t(lang, "apps.confirm_delete", company=company_name(app.company, lang)), buttons)


async def _add_command(rest: str, tracker: Tracker, user: User) -> list[Reply]:
    """`/apps add Company | role | notes` at once; `/apps add` alone asks step by step."""
    lang = user.language
    if await tracker.applications.count_applications(user.id) >= MAX_APPS:
        return [Reply(t(lang, "apps.too_many", limit=MAX_APPS), kind="error")]
    if not rest:
        await tracker.users.set_session(user.id, InCareer(tool="apps", step="company"))
        return [Reply(t(lang, "apps.ask_company"), _cancel(lang), ask_text=True)]
    fields = [*split_fields(rest), "", ""]
    return await create(fields[0], fields[1], " | ".join(f for f in fields[2:] if f), tracker, user)


async def create(company: str, role: str, note: str, tracker: Tracker, user: User) -> list[Reply]:
    lang, lim, now = user.language, tracker.limits, tracker.clock.now()
    company, role, note = company.strip(), role.strip(), note.strip()
    if not company:
        return [Reply(t(lang, "usage", usage=t(lang, "apps.usage_add")), kind="error")]
    too_long = next((v for v in (company, role) if len(v) > lim.max_field_chars), None)
    if too_long is not None:
        return [Reply(t(lang, "apps.field_too_long", length=len(too_long), limit=lim.max_field_chars), kind="error")]
    if len(note) > MAX_NOTE_CHARS:
        return [Reply(t(lang, "apps.note_too_long", length=len(note), limit=MAX_NOTE_CHARS), kind="error")]
    apps = await tracker.applications.list_applications(user.id)
    if len(apps) >= MAX_APPS:
        return [Reply(t(lang, "apps.too_many", limit=MAX_APPS), kind="error")]
    app = Application(user_id=user.id, company=company, role=role, number=next_number(apps),
                      history=[StageChange(stage="applied", at=now)], created_at=now, updated_at=now,
                      note_log=[AppNote(text=note, at=now)] if note else [])  # fmt: skip
    app = await tracker.applications.add_application(app)
    text = t(lang, "apps.added", number=app.number, company=company_name(company, lang))
    return [Reply(text, app_buttons(lang, app))]


async def press(payload: ToolAction, tracker: Tracker, user: User) -> list[Reply]:
    """A button, its payload typed (bot/features/apps/actions.py); one on an application acts only on the user's."""
    lang = user.language
    if isinstance(payload, btn.Board):
        return await apps_data.board(tracker, user)
    if isinstance(payload, btn.Insights):
        return await apps_data.insights(tracker, user)
    if isinstance(payload, btn.Add):
        return await _add_command("", tracker, user)
    if isinstance(payload, btn.Skip | btn.Cancel):
        state = await tracker.users.get_session(user.id)
        if not isinstance(state, InCareer) or state.tool != "apps":
            return [Reply(t(lang, "career.expired"))]
        if isinstance(payload, btn.Skip):
            return await text("", tracker, user, state)
        await tracker.users.set_session(user.id, Idle())
        return [Reply(t(lang, "apps.cancelled"))]
    app = await _own_id(tracker, user, payload.id) if isinstance(payload, btn.OnApplication) else None
    if app is None:
        return [_not_found(lang)]
    if isinstance(payload, btn.Show):
        return await show(app, tracker, user)
    if isinstance(payload, btn.Move):
        return await move_to(app, payload.stage, payload.round, tracker, user)
    if isinstance(payload, btn.Note):
        return await add_note(app, "", tracker, user)
    if isinstance(payload, btn.Remind):
        if payload.days is not None:
            return await remind(app, payload.days, tracker, user)
        days = [Button(t(lang, "apps.btn.days", days=tn(lang, "count.day", n)), btn.Remind(id=app.id, days=n).encode())
                for n in apps_data.REMIND_CHOICES]  # fmt: skip
        return [Reply(t(lang, "apps.ask_days", company=company_name(app.company, lang)), [days])]
    if isinstance(payload, btn.RemindOff):
        return [await apps_data.cancel_follow_ups(app, tracker.reminders, user)]
    if isinstance(payload, btn.Delete):
        return [_confirm_delete(lang, app)]
    if isinstance(payload, btn.DeleteConfirmed):
        await tracker.applications.delete_application(user.id, app.id)
        return [Reply(t(lang, "apps.deleted", company=company_name(app.company, lang)),
                      [[Button(t(lang, "apps.btn.board"), btn.Board().encode())]])]  # fmt: skip
    return [_not_found(lang)]


async def action(arg: str, user: User) -> list[Reply]:
    """A button no payload of /apps reads (`cr:apps:<garbage>`, a forged or mangled one): not found."""
    return [_not_found(user.language)]


async def _own_id(tracker: Tracker, user: User, app_id: int) -> Application | None:
    """The application with this id when it is the user's; None for a deleted one or another's."""
    app = await tracker.applications.get_application(app_id)
    return app if app is not None and app.user_id == user.id else None


async def _own(tracker: Tracker, user: User, raw: str) -> Application | None:
    """The application with this id when it is the user's; None for garbage, a deleted one or another's."""
    if not raw.isdigit() or len(raw) > 18:
        return None
    app = await tracker.applications.get_application(int(raw))
    return app if app is not None and app.user_id == user.id else None


async def text(value: str, tracker: Tracker, user: User, state: InCareer) -> list[Reply]:
    """The step-by-step add (company, role, notes) and a note typed after its button; "" skips a step."""
    lang, value = user.language, value.strip()
    skip = value.casefold() in _SKIP
    if state.step == "note":
        app = await _own(tracker, user, state.data.get("id", ""))
        await tracker.users.set_session(user.id, Idle())
        if app is None:
            return [_not_found(lang)]
        if not value or skip:
            return [Reply(t(lang, "apps.cancelled"))]
        return await add_note(app, value, tracker, user)
    if state.step == "company":
        if not value or skip:
            return [Reply(t(lang, "apps.ask_company"), _cancel(lang), ask_text=True)]
        if len(value) > tracker.limits.max_field_chars:
            return [Reply(t(lang, "apps.field_too_long", length=len(value), limit=tracker.limits.max_field_chars),
                          _cancel(lang), kind="error", ask_text=True)]  # fmt: skip
        await tracker.users.set_session(user.id, InCareer(tool="apps", step="role", data={"company": value}))
        return [Reply(t(lang, "apps.ask_role", company=company_name(value, lang)), _skip(lang), ask_text=True)]
    if state.step == "role":
        data = {**state.data, "role": "" if skip else value}
        await tracker.users.set_session(user.id, InCareer(tool="apps", step="notes", data=data))
        return [Reply(t(lang, "apps.ask_notes"), _skip(lang), ask_text=True)]
    await tracker.users.set_session(user.id, Idle())
    if state.step == "notes":
        return await create(
            state.data.get("company", ""), state.data.get("role", ""), "" if skip else value, tracker, user
        )
    return [Reply(t(lang, "career.expired"))]


def _cancel(lang: Lang) -> list[list[Button]]:
    return [[Button(t(lang, "btn.cancel"), btn.Cancel().encode())]]


def _skip(lang: Lang) -> list[list[Button]]:
    return [
        [Button(t(lang, "apps.btn.skip"), btn.Skip().encode()), Button(t(lang, "btn.cancel"), btn.Cancel().encode())]
    ]


def _not_found(lang: Lang) -> Reply:
    return Reply(t(lang, "apps.not_found"), [[Button(t(lang, "apps.btn.board"), btn.Board().encode())]], kind="error")


def _usage(lang: Lang) -> Reply:
    return Reply(t(lang, "usage", usage=t(lang, "apps.usage")), kind="error")


TOOL = Tool(command, action, text, press=press)
