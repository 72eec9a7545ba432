"""Step-by-step /review and /interview: ask one field at a time, then confirm.

Sent with no arguments, /review and /interview start a short conversation kept in the session
(`InFlow`), so every platform gets it; the one-line forms (`/review company | question`)
skip it. The flow ends by calling the same handlers as the one-line forms.
"""

from __future__ import annotations

from bot.core import commands as c
from bot.core import interviews
from bot.core.deps import Deps
from bot.core.i18n import t
from bot.core.models import Lang, User
from bot.core.replies import Button, Reply
from bot.core.session import FlowKind, Idle, InFlow
from bot.core.timeutil import fmt_local

# (field, required) in the order they are asked
STEPS: dict[FlowKind, tuple[tuple[str, bool], ...]] = {
    "review": (("company", True), ("question", True), ("answer", False)),
    "interview": (("company", True), ("role", False), ("when", True)),
}
YES = {"yes", "y", "ok", "save", "是", "好", "好的", "确认", "保存", "对"}
NO = {"no", "n", "cancel", "否", "不", "取消", "算了"}


def _ask(flow: FlowKind, step: str, lang: Lang) -> Reply:
    required = dict(STEPS[flow])[step]
    row = [] if required else [Button(t(lang, "btn.skip"), "flow:skip")]
    row.append(Button(t(lang, "btn.cancel"), "flow:cancel"))
    return Reply(t(lang, f"flow.{flow}.{step}"), [row], ask_text=True)


def _confirm(flow: FlowKind, data: dict[str, str], lang: Lang) -> Reply:
    shown = {name: data.get(name) or t(lang, "flow.none") for name, _ in STEPS[flow]}
    buttons = [[Button(t(lang, "btn.save"), "flow:ok"), Button(t(lang, "btn.cancel"), "flow:cancel")]]
    return Reply(t(lang, f"flow.{flow}.confirm", **shown), buttons)


async def _advance(flow: FlowKind, data: dict[str, str], deps: Deps, user: User) -> list[Reply]:
    """Ask the first field that has no value yet, or for confirmation when all have one."""
    step = next((name for name, _ in STEPS[flow] if name not in data), "confirm")
    await deps.store.set_session(user.id, InFlow(flow=flow, data=data, step=step))
    if step == "confirm":
        return [_confirm(flow, data, user.language)]
    return [_ask(flow, step, user.language)]


async def start_flow(cmd: c.StartFlow, deps: Deps, user: User) -> list[Reply]:
    flow = next((kind for kind in STEPS if kind == cmd.flow), None)
    if flow is None:
        return [Reply(t(user.language, "not_found"), kind="error")]
    return await _advance(flow, {}, deps, user)


async def flow_text(text: str, deps: Deps, user: User, state: InFlow) -> list[Reply]:
    """Typed text during a flow: the value of the current field, or yes / no at the confirmation."""
    lang = user.language
    flow, step, value = state.flow, state.step, text.strip()
    if step == "confirm":
        word = value.lower()
        if word in YES:
            return await _finish(flow, state.data, deps, user)
        if word in NO:
            return await _cancel(deps, user)
        return [Reply(t(lang, "flow.confirm_hint"), kind="error"), _confirm(flow, state.data, lang)]
    if not value:
        return [Reply(t(lang, "flow.required"), kind="error"), _ask(flow, step, lang)]
    limit = deps.limits.max_answer_chars if step in ("question", "answer") else deps.limits.max_field_chars
    if len(value) > limit:
        return [Reply(t(lang, "answer_too_long", length=len(value), limit=limit), kind="error")]
    if step == "when":
        at = deps.parse_when(value, deps.clock.now(), user.timezone)
        if at is None:
            return [Reply(t(lang, "interview.bad_date", value=value[:64]), kind="error"), _ask(flow, step, lang)]
        value = fmt_local(at, user.timezone)  # stored as local 'YYYY-MM-DD HH:MM', read back the same
    return await _advance(flow, {**state.data, step: value}, deps, user)


async def flow_action(cmd: c.FlowAction, deps: Deps, user: User) -> list[Reply]:
    """Buttons: skip an optional field, save at the confirmation, or cancel at any step."""
    lang = user.language
    state = await deps.store.get_session(user.id)
    if not isinstance(state, InFlow):
        return [Reply(t(lang, "flow.expired"))]
    flow, step = state.flow, state.step
    if cmd.action == "cancel":
        return await _cancel(deps, user)
    if cmd.action == "ok" and step == "confirm":
        return await _finish(flow, state.data, deps, user)
    if cmd.action == "skip" and step != "confirm" and not dict(STEPS[flow])[step]:
        return await _advance(flow, {**state.data, step: ""}, deps, user)
    return await _advance(flow, state.data, deps, user)  # a stale button: ask the current step again


async def _cancel(deps: Deps, user: User) -> list[Reply]:
    await deps.store.set_session(user.id, Idle())
    return [Reply(t(user.language, "flow.cancelled"))]


async def _finish(flow: FlowKind, data: dict[str, str], deps: Deps, user: User) -> list[Reply]:
    await deps.store.set_session(user.id, Idle())
    if flow == "review":
        cmd_r = c.LogReview(user.id, data.get("company", ""), data.get("question", ""), data.get("answer", ""))
        return await interviews.log_review(cmd_r, deps, user)
    cmd_i = c.LogInterview(user.id, data.get("company", ""), data.get("role", ""), data.get("when", ""))
    return await interviews.log_interview(cmd_i, deps, user)
