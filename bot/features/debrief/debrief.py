"""/debrief: after a real interview, the user's notes or transcript (pasted, or a sent file) become /review
items on that interview, in one go.

Steps (an `InCareer` session, tool "debrief"): which interview ("company": a logged interview's button, or
a typed company) -> the notes ("paste") -> the questions found, each with its bank match and whether an
answer is recalled ("confirm": Log all, Drop N or "drop 2 5", more notes, Cancel) -> logged
(bot/features/debrief/log.py). The split is the LLM's when one is configured and the user is within the LLM
budget, else the offline one (bot/features/debrief/split.py), and the reply says which. What is waited on
(the notes, the list) stays in the session's data, bounded, so nothing is lost between messages.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import asdict, dataclass
from datetime import timedelta

from bot.features.career.tool import Tool
from bot.features.debrief import log as debrief_log
from bot.features.debrief.log import Debriefing
from bot.features.debrief.split import MAX_QUESTIONS, Asked, split_notes
from bot.kernel import actions
from bot.kernel.i18n import t, tn
from bot.kernel.limits import Limits
from bot.kernel.models import InterviewLog, Lang, User
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer
from bot.kernel.timeutil import local_date
from bot.kernel.yes_no import YES, is_no, is_yes, normalise

log = logging.getLogger(__name__)
TOOL_NAME = "debrief"
RECENT_INTERVIEWS = 5  # buttons offered at "which interview?"
DROP_BUTTONS = 15  # questions with a Drop button (Discord shows 25 buttons at most); past them: typed
MAX_DATA_CHARS = 60_000  # the list kept in the session while the user checks it
LOG_WORDS = YES | {"log", "log all", "all", "记录", "全部记录"}
_NUMBERS = r"\s*+((?:\d++[\s,，、]*+)++)$"  # possessive: "drop 111…1x" fails at once (issue #34)
_DROP = re.compile(r"^(?:drop|remove|delete|删除?|去掉|不要)" + _NUMBERS, re.I)
_OWN = re.compile(r"^(?:own|mine|自己|个人)" + _NUMBERS, re.I)
_BANK = re.compile(r"^(?:bank|题库)" + _NUMBERS, re.I)
_SHOWN_QUESTION, _SHOWN_TITLE = 160, 60
MAX_EDIT_CHARS = 200  # "drop 1 2 … 30" is under 100 characters: longer text at the list is never an edit


@dataclass
class Item:
    """A question in the list: its text, the recalled answer, the bank question it matches ("" none)."""

    q: str
    a: str = ""
    m: str = ""
    u: bool = False  # the match is possible, not sure: logged as the user's own unless they say "bank"
    o: bool = False  # kept as the user's own question (a possible match is, until the user says "bank")
    x: bool = False  # dropped

    def bank_id(self) -> str:
        """The bank question it is logged as ("": a personal question)."""
        return "" if self.u and self.o else self.m


def _pack(items: list[Item]) -> str:
    return json.dumps([asdict(i) for i in items], ensure_ascii=False)


def _unpack(raw: str) -> list[Item]:
    try:
        return [Item(**d) for d in json.loads(raw)]
    except (ValueError, TypeError):
        return []


def _cancel_row(lang: Lang) -> list[Button]:
    return [Button(t(lang, "btn.cancel"), actions.Career(tool="debrief", arg="cancel").encode())]


async def command(args: str, debriefing: Debriefing, user: User) -> list[Reply]:
    """`/debrief [company]`, or `/debrief company | notes` (Discord's text option) or the notes on the lines
    after `/debrief company`, for all in one go."""
    company, _, notes = args.partition("|" if "|" in args.split("\n", 1)[0] else "\n")
    company, notes = company.strip(), notes.strip()
    too_long = _company_too_long(company, debriefing.limits, user)
    if too_long is not None:
        return [too_long]
    if company and not notes:  # notes sent before, waiting for their interview (a Discord server cannot type it)
        state = await debriefing.users.get_session(user.id)
        if isinstance(state, InCareer) and state.tool == TOOL_NAME and state.step == "company":
            notes = state.data.get("text", "")
    if company and notes:
        return await _take_notes(debriefing, user, {"company": company}, notes)
    if company:
        return await _ask_notes(debriefing, user, company)
    return await _ask_interview(debriefing, user, notes)


async def _ask_interview(debriefing: Debriefing, user: User, notes: str = "") -> list[Reply]:
    """Which interview: the user's latest logged ones as buttons (typing a company works too); `notes` sent
    before it are kept for it, when they are within the limit."""
    lang, now = user.language, debriefing.clock.now()
    if len(notes) > debriefing.limits.max_document_chars:
        return [_too_long(user, debriefing.limits, len(notes))]
    logs = await debriefing.interviews.list_interviews(user.id)
    held = [i for i in logs if i.at <= now + timedelta(days=1)] or logs
    recent = sorted(held, key=lambda i: i.at, reverse=True)[:RECENT_INTERVIEWS]
    await debriefing.users.set_session(user.id, InCareer(tool=TOOL_NAME, step="company", data={"text": notes}))
    head = t(lang, "debrief.have_notes", chars=tn(lang, "count.character", len(notes))) + "\n" if notes else ""
    rows = [
        [Button(_interview_label(i, user), actions.Career(tool="debrief", arg=f"i{i.id}").encode())] for i in recent
    ]
    rows.append(_cancel_row(lang))
    key = "debrief.which" if recent else "debrief.which_none"
    return [Reply(head + t(lang, key), rows, ask_text=True)]


def _interview_label(log_: InterviewLog, user: User) -> str:
    return f"{log_.company[:40]} · {local_date(log_.at, user.timezone).isoformat()}"


async def _ask_notes(debriefing: Debriefing, user: User, company: str) -> list[Reply]:
    await debriefing.users.set_session(user.id, InCareer(tool=TOOL_NAME, step="paste", data={"company": company}))
    return [Reply(t(user.language, "debrief.paste", company=company), [_cancel_row(user.language)], ask_text=True)]


async def action(arg: str, debriefing: Debriefing, user: User) -> list[Reply]:
    """Buttons: `i<id>` (the interview), `drop:<n>`, `log`, `cancel`; each only at its own step."""
    lang = user.language
    state = await debriefing.users.get_session(user.id)
    if not isinstance(state, InCareer) or state.tool != TOOL_NAME:
        return [Reply(t(lang, "career.expired"))]
    if arg == "cancel":
        await debriefing.users.set_session(user.id, Idle())
        return [Reply(t(lang, "debrief.cancelled"))]
    if arg.startswith("i") and state.step == "company":
        chosen = next((i for i in await debriefing.interviews.list_interviews(user.id) if f"i{i.id}" == arg), None)
        if chosen is None or chosen.user_id != user.id:
            return [Reply(t(lang, "not_found"), kind="error")]
        return await _with_company(debriefing, user, chosen.company, state)
    if state.step == "confirm" and arg == "log":
        return await _log(debriefing, user, state)
    if state.step == "confirm" and arg.startswith("drop:"):
        return await _change(debriefing, user, state, arg.removeprefix("drop:").split(), {"x": True})
    return [Reply(t(lang, "career.expired"))]


async def text(value: str, debriefing: Debriefing, user: User, state: InCareer) -> list[Reply]:
    """What the user sends at each step (a sent file's text arrives the same way; step "file": a file sent
    before /debrief, placed here with the "what is this file?" buttons)."""
    lang = user.language
    if state.step in ("file", "company") and _looks_like_notes(value, debriefing.limits):
        kept = (state.data.get("text", "") + "\n" + value).strip()
        if len(kept) > debriefing.limits.max_document_chars and len(value) <= debriefing.limits.max_document_chars:
            kept = value.strip()  # earlier notes and these are too long together: the newer ones stand
        return await _ask_interview(debriefing, user, kept)
    if is_no(value):
        await debriefing.users.set_session(user.id, Idle())
        return [Reply(t(lang, "debrief.cancelled"))]
    if state.step == "company":
        company = value.strip()
        if not company:
            return await _ask_interview(debriefing, user, state.data.get("text", ""))
        return await _with_company(debriefing, user, company, state)
    if state.step == "paste":
        return await _take_notes(debriefing, user, dict(state.data), value)
    if state.step == "confirm":
        return await _confirm_text(debriefing, user, state, value)
    return await _ask_interview(debriefing, user, value if state.step == "file" else "")


def _too_long(user: User, limits: Limits, length: int) -> Reply:
    limit = limits.max_document_chars
    reply = t(user.language, "career.file_too_long", length=length, limit=limit)
    return Reply(reply, [_cancel_row(user.language)], kind="error", ask_text=True)


def _company_too_long(company: str, limits: Limits, user: User) -> Reply | None:
    if len(company) <= limits.max_field_chars:
        return None
    return Reply(t(user.language, "debrief.company_too_long", limit=limits.max_field_chars), kind="error")


def _looks_like_notes(value: str, limits: Limits) -> bool:
    """At "which interview?": text that cannot be a company name (several lines, too long, a question)."""
    value = value.strip()
    return "\n" in value or len(value) > limits.max_field_chars or bool(re.search(r"[?？]", value))


async def _with_company(debriefing: Debriefing, user: User, company: str, state: InCareer) -> list[Reply]:
    too_long = _company_too_long(company, debriefing.limits, user)
    if too_long is not None:
        return [too_long]
    notes = state.data.get("text", "")
    if notes:
        return await _take_notes(debriefing, user, {"company": company}, notes)
    return await _ask_notes(debriefing, user, company)


async def _take_notes(debriefing: Debriefing, user: User, data: dict[str, str], notes: str) -> list[Reply]:
    """Split the notes and show the list; notes that are empty, too long or hold no question are answered
    with why, and the step waits for them again."""
    lang, lim = user.language, debriefing.limits
    company = data["company"]
    waiting = InCareer(tool=TOOL_NAME, step="paste", data={"company": company})
    if not notes.strip() or len(notes) > lim.max_document_chars:
        await debriefing.users.set_session(user.id, waiting)
        if notes.strip():
            return [_too_long(user, debriefing.limits, len(notes))]
        return [Reply(t(lang, "debrief.empty"), [_cancel_row(lang)], kind="error", ask_text=True)]
    asked, more, how = await _split(debriefing, user, notes)
    if not asked:
        await debriefing.users.set_session(user.id, waiting)
        return [Reply(t(lang, "debrief.none_found"), [_cancel_row(lang)], kind="error", ask_text=True)]
    unsure = debriefing.bank.bars()[1]
    items = []
    for a in asked:
        candidates = await debriefing.matching.candidates(a.question, 2)
        best = next(iter(candidates), None)
        if best is None or best[1] < unsure:
            items.append(Item(a.question, a.answer))
        else:
            sure = debriefing.bank.is_sure(candidates, a.question)
            items.append(Item(a.question, a.answer, best[0].id, u=not sure, o=not sure))
    data = {"company": company, "text": notes, "how": how, "more": str(more), "items": _pack(_bounded(items))}
    await debriefing.users.set_session(user.id, InCareer(tool=TOOL_NAME, step="confirm", data=data))
    return [_listing(debriefing, user, data)]


async def _split(debriefing: Debriefing, user: User, notes: str) -> tuple[list[Asked], int, str]:
    """(questions, how many more were left out, "llm" | "rules" | "rules_llm_failed")."""
    lim, now = debriefing.limits, debriefing.clock.now()
    how = "rules"
    if debriefing.debrief_splitter is not None and await debriefing.budget.refusal(user, now) is None:
        try:
            found = await debriefing.debrief_splitter.split(notes)
        except Exception:
            log.exception("debrief splitter failed")
            found = None
        await debriefing.budget.spend(user.id, "debrief", found.tokens if found else 0, now)
        questions = [(q.strip(), a.strip()) for q, a in found.questions if q.strip()] if found else []
        if questions:
            asked = [Asked(q[: lim.max_question_chars], a[: lim.max_answer_chars]) for q, a in questions]
            return asked[:MAX_QUESTIONS], max(0, len(asked) - MAX_QUESTIONS), "llm"
        how = "rules" if found is not None else "rules_llm_failed"
    split = split_notes(notes, lim.max_question_chars, lim.max_answer_chars)
    return split.items, split.more, how


def _bounded(items: list[Item]) -> list[Item]:
    """The list within MAX_DATA_CHARS: the longest answers cut first (the notes themselves are bounded)."""
    while len(_pack(items)) > MAX_DATA_CHARS:
        longest = max(items, key=lambda i: len(i.a))
        longest.a = longest.a[: len(longest.a) // 2].rstrip() + "…"
    return items


def _listing(debriefing: Debriefing, user: User, data: dict[str, str]) -> Reply:
    """The questions found, each with its bank match and whether an answer is recalled, and the buttons."""
    lang = user.language
    items = _unpack(data.get("items", "[]"))
    lines = []
    for n, item in enumerate(items, 1):
        question = _short(item.q, _SHOWN_QUESTION)
        if item.x:
            lines.append(f"{n}. {t(lang, 'debrief.dropped')} {question}")
            continue
        bank = debriefing.bank.get(item.m) if item.m else None
        title = _short(bank.prompt.get(lang), _SHOWN_TITLE) if bank else ""
        key = (
            "debrief.match_new"
            if bank is None
            else "debrief.match_maybe"
            if item.u and item.o
            else "debrief.match_bank"
        )
        match = t(lang, key, title=title, n=n) if bank else t(lang, key)
        said = tn(lang, "count.character", len(item.a))
        answer = t(lang, "debrief.answer_yes", chars=said) if item.a else t(lang, "debrief.answer_no")
        lines.append(f"{n}. {question}\n    → {match} · {answer}")
    kept = [n for n, item in enumerate(items, 1) if not item.x]
    head = t(lang, "debrief.found", company=data["company"], questions=tn(lang, "count.question", len(items)))
    parts = [head, t(lang, f"debrief.by_{data.get('how', 'rules')}"), "\n".join(lines)]
    more = int(data.get("more", "0") or 0)
    if more:
        parts.append(t(lang, "debrief.more", limit=MAX_QUESTIONS, more=tn(lang, "count.question", more)))
    parts.append(t(lang, "debrief.confirm") if kept else t(lang, "debrief.all_dropped"))
    if any(i.u and not i.x for i in items):
        parts.append(t(lang, "debrief.confirm_own"))
    drops = [
        Button(t(lang, "debrief.btn.drop", n=n), actions.Career(tool="debrief", arg=f"drop:{n}").encode())
        for n in kept
        if n <= DROP_BUTTONS
    ]
    rows = [drops[i : i + 5] for i in range(0, len(drops), 5)]
    last = [Button(t(lang, "debrief.btn.log"), actions.Career(tool="debrief", arg="log").encode())] if kept else []
    rows.append(last + _cancel_row(lang))
    return Reply("\n".join(parts), rows, ask_text=True)


def _short(value: str, limit: int) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1].rstrip() + "…"


async def _confirm_text(debriefing: Debriefing, user: User, state: InCareer, value: str) -> list[Reply]:
    """Typed at the list: "drop 2 5", "log" (or yes), more notes (several lines, a question, or long)."""
    typed = normalise(value)
    for pattern, change in ((_DROP, {"x": True}), (_OWN, {"o": True}), (_BANK, {"o": False})):
        if len(typed) <= MAX_EDIT_CHARS and (m := pattern.match(typed)):
            return await _change(debriefing, user, state, re.findall(r"\d+", m.group(1)), change)
    if is_yes(value, LOG_WORDS):
        return await _log(debriefing, user, state)
    if _looks_like_notes(value, debriefing.limits):  # a long paste arrives in several messages on Telegram
        notes = state.data.get("text", "") + "\n" + value
        if len(notes) > debriefing.limits.max_document_chars:  # the list stays as it is
            return [_too_long(user, debriefing.limits, len(notes))]
        replies = await _take_notes(debriefing, user, {"company": state.data["company"]}, notes)
        if replies and replies[0].kind != "error":
            return [Reply(t(user.language, "debrief.added")), *replies]
        return replies
    return [Reply(t(user.language, "debrief.confirm_help"), [_cancel_row(user.language)])]


async def _change(
    debriefing: Debriefing, user: User, state: InCareer, numbers: list[str], change: dict[str, bool]
) -> list[Reply]:
    """Drop questions (`{"x": True}`), or keep likely matches as the user's own (`{"o": ...}`), by number."""
    items = _unpack(state.data.get("items", "[]"))
    for raw in numbers:
        if not raw.isdigit() or not 1 <= int(raw) <= len(items):
            reply = t(user.language, "debrief.drop_bad", count=len(items), value=raw[:8])
            return [Reply(reply, kind="error")]
    for raw in numbers:
        for name, value in change.items():
            setattr(items[int(raw) - 1], name, value)
    data = {**state.data, "items": _pack(items)}
    await debriefing.users.set_session(user.id, state.model_copy(update={"data": data}))
    return [_listing(debriefing, user, data)]


async def _log(debriefing: Debriefing, user: User, state: InCareer) -> list[Reply]:
    """Log the questions not dropped; those not logged (a cap, a failure) are named, and after a failure
    they stay in the list to try again."""
    items = _unpack(state.data.get("items", "[]"))
    kept = [(n, Item(**asdict(i))) for n, i in enumerate(items, 1) if not i.x]
    if not kept:
        return [_listing(debriefing, user, dict(state.data))]
    asked = [(n, i.q, i.a, i.bank_id()) for n, i in kept]
    result = await debrief_log.log_items(debriefing, user, state.data["company"], asked)
    if result.failed_at is not None:
        left = [i for n, i in kept if n not in result.logged_numbers]
        data = {**state.data, "items": _pack(left)}
        await debriefing.users.set_session(user.id, state.model_copy(update={"data": data}))
    else:
        await debriefing.users.set_session(user.id, Idle())
    return debrief_log.summary(user, state.data["company"], result, {n: i.q for n, i in kept})


TOOL = Tool(command, action, text, file_label="career.file_for.debrief")
