"""Step-by-step /review and /interview: ask one field at a time, then confirm.

Sent with no arguments, /review and /interview start a short conversation kept in the session
(`InFlow`), so every platform gets it; the one-line forms (`/review company | question`)
skip it. The flow ends by running the one-line form's command (`dispatch`). What a flow uses is `Forms`, a
dependency group (bot/kernel/inject.py); its button (`flow_action`) and what it is told when another command comes
(`after_command`) are the routes' hooks (bot/features/routes.py), and name what they use as handlers do.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.features.review import interviews
from bot.kernel import actions
from bot.kernel import commands as c
from bot.kernel.i18n import t
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.lookups import Dates
from bot.kernel.models import Lang, User
from bot.kernel.ports import Clock
from bot.kernel.replies import Button, Reply
from bot.kernel.routing import Dispatch
from bot.kernel.session import FlowKind, Idle, InFlow, Session
from bot.kernel.store_ports import UsersPort
from bot.kernel.timeutil import fmt_local
from bot.kernel.yes_no import is_no, is_yes

# (field, required) in the order they are asked
STEPS: dict[FlowKind, tuple[tuple[str, bool], ...]] = {
    "review": (("company", True), ("question", True), ("answer", False)),
    "interview": (("company", True), ("role", False), ("when", True)),
}


@group
@dataclass(frozen=True)
class Forms:
    """What a step-by-step flow uses: the users' sessions (where it is kept), the date reader (an interview's
    date), the clock, the limits (a field's length), and `dispatch`, which runs the one-line command it ends with."""

    users: UsersPort
    dates: Dates
    clock: Clock
    limits: Limits
    dispatch: Dispatch


def _ask(flow: FlowKind, step: str, lang: Lang) -> Reply:
    required = dict(STEPS[flow])[step]
    row = [] if required else [Button(t(lang, "btn.skip"), actions.Flow(step="skip").encode())]
    row.append(Button(t(lang, "btn.cancel"), actions.Flow(step="cancel").encode()))
    return Reply(t(lang, f"flow.{flow}.{step}"), [row], ask_text=True)


def _confirm(flow: FlowKind, data: dict[str, str], lang: Lang) -> Reply:
    shown = {name: data.get(name) or t(lang, "flow.none") for name, _ in STEPS[flow]}
    buttons = [
        [
            Button(t(lang, "btn.save"), actions.Flow(step="ok").encode()),
            Button(t(lang, "btn.cancel"), actions.Flow(step="cancel").encode()),
        ]
    ]
    return Reply(t(lang, f"flow.{flow}.confirm", **shown), buttons)


async def _advance(flow: FlowKind, data: dict[str, str], users: UsersPort, user: User) -> list[Reply]:
    """Ask the first field that has no value yet, or for confirmation when all have one."""
    step = next((name for name, _ in STEPS[flow] if name not in data), "confirm")
    await users.set_session(user.id, InFlow(flow=flow, data=data, step=step))
    if step == "confirm":
        return [_confirm(flow, data, user.language)]
    return [_ask(flow, step, user.language)]


async def start_flow(cmd: c.StartFlow, user: User, users: UsersPort) -> list[Reply]:
    flow = next((kind for kind in STEPS if kind == cmd.flow), None)
    if flow is None:
        return [Reply(t(user.language, "not_found"), kind="error")]
    return await _advance(flow, {}, users, user)


async def flow_text(text: str, forms: Forms, user: User, state: InFlow) -> list[Reply]:
    """Typed text during a flow: the value of the current field, or yes / no at the confirmation."""
    lang = user.language
    flow, step, value = state.flow, state.step, text.strip()
    if step == "confirm":
        if is_yes(value):
            return await _finish(flow, state.data, forms, user)
        if is_no(value):
            return await _cancel(forms.users, user)
        return [Reply(t(lang, "flow.confirm_hint"), kind="error"), _confirm(flow, state.data, lang)]
    if not value:
        return [Reply(t(lang, "flow.required"), kind="error"), _ask(flow, step, lang)]
    limit = forms.limits.max_answer_chars if step in ("question", "answer") else forms.limits.max_field_chars
    if len(value) > limit:
        return [Reply(t(lang, "answer_too_long", length=len(value), limit=limit), kind="error")]
    if step == "when":
        at = forms.dates.when(value, forms.clock.now(), user.timezone)
        if at is None:
            return [Reply(t(lang, "interview.bad_date", value=value[:64]), kind="error"), _ask(flow, step, lang)]
        value = fmt_local(at, user.timezone)  # stored as local 'YYYY-MM-DD HH:MM', read back the same
        doubt = interviews.date_doubt(at, forms.clock.now(), user)
        if doubt is not None:  # far back or far ahead: said at the Save step, which then logs it as it is
            replies = await _advance(flow, {**state.data, step: value}, forms.users, user)
            return [Reply(doubt + "\n" + replies[0].text, replies[0].buttons), *replies[1:]]
    return await _advance(flow, {**state.data, step: value}, forms.users, user)


async def flow_action(cmd: c.FlowAction, user: User, session: Session, forms: Forms) -> list[Reply]:
    """Buttons: skip an optional field, save at the confirmation, or cancel at any step (the routes' hook)."""
    lang, state = user.language, session
    if not isinstance(state, InFlow):
        return [Reply(t(lang, "flow.expired"))]
    flow, step = state.flow, state.step
    if cmd.action == "cancel":
        return await _cancel(forms.users, user)
    if cmd.action == "ok" and step == "confirm":
        return await _finish(flow, state.data, forms, user)
    if cmd.action == "skip" and step != "confirm" and not dict(STEPS[flow])[step]:
        return await _advance(flow, {**state.data, step: ""}, forms.users, user)
    return await _advance(flow, state.data, forms.users, user)  # a stale button: ask the current step again


def one_line(flow: FlowKind, data: dict[str, str]) -> str | None:
    """The one-line command that logs what the flow holds, or None while a required field is missing."""
    if any(required and not data.get(name) for name, required in STEPS[flow]):
        return None
    fields = [data.get(name, "") for name, _ in STEPS[flow]]
    while fields and not fields[-1]:  # an optional last field left empty
        fields.pop()
    return f"/{flow} " + " | ".join(fields)


async def after_command(
    before: InFlow, replies: list[Reply], user: User, restart: bool, users: UsersPort
) -> list[Reply]:
    """Another command arrived while this flow waited (the routes' hook): when it left the flow open, say so and
    ask again (unless it was the same flow starting afresh); when it replaced it, say that nothing was logged and
    give the one-line command that logs it."""
    state = before
    lang, command = user.language, f"/{state.flow}"
    if await users.get_session(user.id) == state:
        if restart:
            return replies
        again = (
            _confirm(state.flow, state.data, lang) if state.step == "confirm" else _ask(state.flow, state.step, lang)
        )
        text = t(lang, "flow.still_open", command=command) + "\n" + again.text
        return [*replies, Reply(text, again.buttons, ask_text=again.ask_text)]
    notice = t(lang, "flow.dropped", command=command)
    line = one_line(state.flow, state.data)
    if line is not None:
        notice += "\n" + t(lang, "flow.dropped_resend", line=line)
    return [Reply(notice), *replies]


async def _cancel(users: UsersPort, user: User) -> list[Reply]:
    await users.set_session(user.id, Idle())
    return [Reply(t(user.language, "flow.cancelled"))]


async def _finish(flow: FlowKind, data: dict[str, str], forms: Forms, user: User) -> list[Reply]:
    """The flow's one-line command, run now (/review's log_review, /interview's log_interview), the flow closed."""
    idle = Idle()
    await forms.users.set_session(user.id, idle)
    if flow == "review":
        cmd_r = c.LogReview(user.id, data.get("company", ""), data.get("question", ""), data.get("answer", ""))
        return await forms.dispatch(cmd_r, user, idle)
    # the date was shown at the Save step (with a word when it was far off): pressing Save confirmed it
    cmd_i = c.LogInterview(user.id, data.get("company", ""), data.get("role", ""), data.get("when", ""), True)
    return await forms.dispatch(cmd_i, user, idle)
