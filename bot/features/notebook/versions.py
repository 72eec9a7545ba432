"""New versions in the answer notebook (/notes): a graded answer saved from its grade reply, a version the user
writes (typed or spoken) and has graded, and an LLM's proposal ("Rewrite with STAR", "Tighten to 2 minutes")
the user keeps.

A version written here is graded with the grading chain (the LLM with the offline estimate as its
fallback, within the user's LLM budget) but is not a review: no attempt is stored and no card is rescheduled,
so practising a polished answer in the notebook never moves the spaced-repetition schedule."""

from __future__ import annotations

import logging

from bot.features.career.models import NoteEntry, NoteOrigin
from bot.features.deps import Deps
from bot.features.notebook.view import coverage, prompt_of, score_text, short
from bot.kernel import actions, llm_budget
from bot.kernel.i18n import t, tn
from bot.kernel.models import Attempt, Grade, Lang, Question, User
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer

log = logging.getLogger(__name__)
MAX_NOTES = 500  # notebook entries one user may keep in all...
MAX_VERSIONS = 20  # ...and versions of one question
STAR_PARTS = ("situation", "task", "action", "result")


def verdicts(grade: Grade | None) -> dict[str, list[str]]:
    """The grade's key point ids by verdict, as a NoteEntry keeps them."""
    points = grade.key_points if grade else []
    return {v: [k.id for k in points if k.verdict == v] for v in ("hit", "partial", "missed")}


async def room_for(deps: Deps, user: User, question_id: str) -> Reply | None:
    """None while the user may add a version of this question; else the reply saying which limit is reached."""
    lang = user.language
    if await deps.store.count_notes(user.id) >= MAX_NOTES:
        return Reply(t(lang, "notes.limit.total", entries=tn(lang, "count.note", MAX_NOTES)), kind="error")
    if len(await deps.store.list_notes(user.id, question_id)) >= MAX_VERSIONS:
        return Reply(t(lang, "notes.limit.versions", versions=tn(lang, "count.version", MAX_VERSIONS)), kind="error")
    return None


def text_problem(text: str, deps: Deps, user: User) -> Reply | None:
    """Why this text cannot be a version (empty, longer than an answer may be), or None."""
    lang = user.language
    if not text.strip():
        return Reply(t(lang, "notes.write.empty"), kind="error")
    if len(text) > deps.limits.max_answer_chars:
        return Reply(
            t(lang, "notes.write.too_long", length=len(text), limit=deps.limits.max_answer_chars), kind="error"
        )
    return None


def saved_reply(note: NoteEntry, q: Question | None, user: User, key: str = "notes.saved") -> Reply:
    """ "Saved as version N of <question>", with what it scored and the buttons to tag it, mark it best, open it."""
    lang = user.language
    score = score_text(note, lang)
    text = t(lang, key, n=note.version, prompt=short(prompt_of(q, note.question_id, lang), lang), score=score)
    buttons = [
        [
            Button(t(lang, "notes.btn.tag"), actions.Career(tool="notes", arg=f"tag:{note.id}").encode()),
            Button(t(lang, "notes.btn.best"), actions.Career(tool="notes", arg=f"best:{note.id}").encode()),
            Button(t(lang, "notes.btn.open"), actions.Career(tool="notes", arg=f"view:{note.id}").encode()),
        ]
    ]
    return Reply(text, buttons, kind="grade")


async def save_attempt(attempt_id: int, deps: Deps, user: User) -> list[Reply]:
    """ "Save to notebook" on a grade: the graded answer becomes the next version of its question, once (saving
    it again after an LLM regrade updates that version's grade instead of adding one)."""
    lang, store = user.language, deps.store
    attempt = await store.get_attempt(attempt_id)
    if attempt is None or attempt.user_id != user.id:
        return [Reply(t(lang, "notes.not_found"), kind="error")]
    if attempt.grade is None or attempt.is_follow_up:
        key = "notes.save.follow_up" if attempt.is_follow_up else "notes.save.ungraded"
        return [Reply(t(lang, key), kind="error")]
    q = await deps.question(attempt.question_id)
    earlier = [n for n in await store.list_notes(user.id, attempt.question_id) if n.attempt_id == attempt.id]
    if earlier:
        return [await _regraded(earlier[0], attempt, q, deps, user)]
    full = await room_for(deps, user, attempt.question_id)
    if full is not None:
        return [full]
    note = await store.add_note(
        NoteEntry(
            user_id=user.id,
            question_id=attempt.question_id,
            text=(attempt.answer or attempt.transcript or "").strip(),
            score=attempt.grade.score,
            grader=attempt.grade.grader,
            attempt_id=attempt.id,
            origin="graded",
            created_at=deps.clock.now(),
            **verdicts(attempt.grade),
        )
    )
    return [saved_reply(note, q, user)]


async def _regraded(note: NoteEntry, attempt: Attempt, q: Question | None, deps: Deps, user: User) -> Reply:
    grade = attempt.grade
    if grade is None or (note.score, note.grader) == (grade.score, grade.grader):
        return saved_reply(note, q, user, "notes.saved.already")
    note = note.model_copy(update={"score": grade.score, "grader": grade.grader, **verdicts(grade)})
    await deps.store.save_note(note)
    return saved_reply(note, q, user, "notes.saved.updated")


async def add_version(deps: Deps, user: User, q: Question, text: str, origin: NoteOrigin) -> list[Reply]:
    """Grade `text` as an answer to `q` and keep it as the next version (a question with neither key points nor
    a reference answer is kept ungraded: there is nothing to grade it against)."""
    lang = user.language
    problem = text_problem(text, deps, user) or await room_for(deps, user, q.id)
    if problem is not None:
        return [problem]
    now, notice = deps.clock.now(), None
    grade = None
    if q.rubric.key_points or q.reference_answer.get(lang).strip():
        outcome = await deps.grader.grade_answer(q, text.strip(), user, now, llm_budget.of(deps))
        grade, notice = outcome.grade, outcome.notice or (None if outcome.grade else "notes.grade_failed")
    note = await deps.store.add_note(
        NoteEntry(
            user_id=user.id,
            question_id=q.id,
            text=text.strip(),
            score=grade.score if grade else None,
            grader=grade.grader if grade else None,
            origin=origin,
            created_at=now,
            **verdicts(grade),
        )
    )
    await deps.store.set_session(user.id, Idle())
    reply = saved_reply(note, q, user)
    lines = [reply.text, *coverage(note, q, lang)]
    if grade is not None and grade.feedback:
        lines.append(t(lang, "grade.feedback", text=grade.feedback))
    if notice:
        lines.append(t(lang, notice))
    return [Reply("\n".join(lines), reply.buttons, kind="grade")]


def proposal_buttons(lang: Lang) -> list[list[Button]]:
    return [
        [
            Button(t(lang, "notes.btn.keep"), actions.Career(tool="notes", arg="keep").encode()),
            Button(t(lang, "notes.btn.discard"), actions.Career(tool="notes", arg="drop").encode()),
        ]
    ]


async def propose(kind: str, note: NoteEntry, q: Question, deps: Deps, user: User) -> list[Reply]:
    """The LLM's STAR rewrite (`kind` "star") or two-minute version ("tighten") of a version, offered to keep.
    Without the LLM (none configured, or the user is over the budget) nothing is pretended."""
    lang, now = user.language, deps.clock.now()
    writer = deps.star_writer if kind == "star" else deps.tightener
    if writer is None or (kind == "star" and q.type != "case"):
        return [Reply(t(lang, "notes.llm.none"), kind="error")]
    refused = await llm_budget.refusal(deps, user, now)
    if refused is not None:
        return [Reply(t(lang, "notes.llm.limit"), kind="error")]
    proposal: str | None = None
    tokens = 0
    try:
        if kind == "star" and deps.star_writer is not None:
            story, tokens = await deps.star_writer.rewrite(q.prompt.get(lang), note.text, lang)
            proposal = _star_text(story, lang) if story else None
        elif deps.tightener is not None:
            proposal, tokens = await deps.tightener.tighten(q.prompt.get(lang), note.text, lang)
    except Exception:
        log.exception("notebook %s rewrite failed", kind)
    await llm_budget.spend(deps, user.id, kind, tokens, now)
    if not proposal or not proposal.strip():
        return [Reply(t(lang, "notes.llm.failed"), kind="error")]
    proposal = proposal.strip()[: deps.limits.max_answer_chars]
    data = {"kind": kind, "question_id": q.id, "text": proposal, "from": str(note.id)}
    await deps.store.set_session(user.id, InCareer(tool="notes", step="propose", data=data))
    head = t(lang, f"notes.proposal.{kind}", n=note.version)
    return [Reply(head + "\n\n" + proposal + "\n\n" + t(lang, "notes.proposal.ask"), proposal_buttons(lang))]


def _star_text(story: dict[str, str], lang: Lang) -> str:
    return "\n".join(f"{t(lang, f'mock.star.{p[0].upper()}')}: {story.get(p, '').strip()}" for p in STAR_PARTS)


async def keep(deps: Deps, user: User) -> list[Reply]:
    """ "Keep as new version": the waiting proposal graded and kept (origin "star" or "tighten")."""
    state = await deps.store.get_session(user.id)
    if not isinstance(state, InCareer) or state.tool != "notes" or state.step != "propose":
        return [Reply(t(user.language, "career.expired"))]
    q = await deps.question(state.data.get("question_id", ""))
    if q is None:
        await deps.store.set_session(user.id, Idle())
        return [Reply(t(user.language, "notes.not_found"), kind="error")]
    origin: NoteOrigin = "star" if state.data.get("kind") == "star" else "tighten"
    return await add_version(deps, user, q, state.data.get("text", ""), origin)


async def discard(deps: Deps, user: User) -> list[Reply]:
    state = await deps.store.get_session(user.id)
    if not isinstance(state, InCareer) or state.tool != "notes":
        return [Reply(t(user.language, "career.expired"))]
    await deps.store.set_session(user.id, Idle())
    return [Reply(t(user.language, "notes.proposal.discarded"))]
