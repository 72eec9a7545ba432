"""New versions in the answer notebook (/notes): a graded answer saved from its grade reply, a version the user
writes (typed or spoken) and has graded, and an LLM's proposal ("Rewrite with STAR", "Tighten to 2 minutes")
the user keeps.

A version written here is graded with the grading chain (the LLM with the offline estimate as its
fallback, within the user's LLM budget) but is not a review: no attempt is stored and no card is rescheduled,
so practising a polished answer in the notebook never moves the spaced-repetition schedule."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.features.career.models import NoteEntry, NoteOrigin
from bot.features.notebook.ports import NotebookPort
from bot.features.notebook.view import coverage, prompt_of, score_text, short
from bot.kernel import actions
from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Questions
from bot.kernel.models import Attempt, Grade, Lang, Question, User
from bot.kernel.ports import Clock, GradingChain, StarWriter, Tightener
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer
from bot.kernel.store_ports import AttemptsPort, UsersPort

log = logging.getLogger(__name__)
MAX_NOTES = 500  # notebook entries one user may keep in all...
MAX_VERSIONS = 20  # ...and versions of one question
STAR_PARTS = ("situation", "task", "action", "result")


@group
@dataclass(frozen=True)
class Notebook:
    """What /notes uses: the user's state, their notebook and graded answers, the questions by id and the bank, the
    grader with the budget of LLM calls, the LLM's STAR rewrite and two-minute version (None: no such button), the
    clock and the limits."""

    users: UsersPort
    notes: NotebookPort
    attempts: AttemptsPort
    questions: Questions
    bank: Bank
    grader: GradingChain
    budget: Budget
    star_writer: StarWriter | None
    tightener: Tightener | None
    clock: Clock
    limits: Limits


def verdicts(grade: Grade | None) -> dict[str, list[str]]:
    """The grade's key point ids by verdict, as a NoteEntry keeps them."""
    points = grade.key_points if grade else []
    return {v: [k.id for k in points if k.verdict == v] for v in ("hit", "partial", "missed")}


async def room_for(notes: NotebookPort, user: User, question_id: str) -> Reply | None:
    """None while the user may add a version of this question; else the reply saying which limit is reached."""
    lang = user.language
    if await notes.count_notes(user.id) >= MAX_NOTES:
        return Reply(t(lang, "notes.limit.total", entries=tn(lang, "count.note", MAX_NOTES)), kind="error")
    if len(await notes.list_notes(user.id, question_id)) >= MAX_VERSIONS:
        return Reply(t(lang, "notes.limit.versions", versions=tn(lang, "count.version", MAX_VERSIONS)), kind="error")
    return None


def text_problem(text: str, limits: Limits, user: User) -> Reply | None:
    """Why this text cannot be a version (empty, longer than an answer may be), or None."""
    lang = user.language
    if not text.strip():
        return Reply(t(lang, "notes.write.empty"), kind="error")
    if len(text) > limits.max_answer_chars:
        return Reply(t(lang, "notes.write.too_long", length=len(text), limit=limits.max_answer_chars), kind="error")
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


async def save_attempt(attempt_id: int, book: Notebook, user: User) -> list[Reply]:
    """ "Save to notebook" on a grade: the graded answer becomes the next version of its question, once (saving
    it again after an LLM regrade updates that version's grade instead of adding one)."""
    lang = user.language
    attempt = await book.attempts.get_attempt(attempt_id)
    if attempt is None or attempt.user_id != user.id:
        return [Reply(t(lang, "notes.not_found"), kind="error")]
    if attempt.grade is None or attempt.is_follow_up:
        key = "notes.save.follow_up" if attempt.is_follow_up else "notes.save.ungraded"
        return [Reply(t(lang, key), kind="error")]
    q = await book.questions.get(attempt.question_id)
    earlier = [n for n in await book.notes.list_notes(user.id, attempt.question_id) if n.attempt_id == attempt.id]
    if earlier:
        return [await _regraded(earlier[0], attempt, q, book, user)]
    full = await room_for(book.notes, user, attempt.question_id)
    if full is not None:
        return [full]
    note = await book.notes.add_note(
        NoteEntry(
            user_id=user.id,
            question_id=attempt.question_id,
            text=(attempt.answer or attempt.transcript or "").strip(),
            score=attempt.grade.score,
            grader=attempt.grade.grader,
            attempt_id=attempt.id,
            origin="graded",
            created_at=book.clock.now(),
            **verdicts(attempt.grade),
        )
    )
    return [saved_reply(note, q, user)]


async def _regraded(note: NoteEntry, attempt: Attempt, q: Question | None, book: Notebook, user: User) -> Reply:
    grade = attempt.grade
    if grade is None or (note.score, note.grader) == (grade.score, grade.grader):
        return saved_reply(note, q, user, "notes.saved.already")
    note = note.model_copy(update={"score": grade.score, "grader": grade.grader, **verdicts(grade)})
    await book.notes.save_note(note)
    return saved_reply(note, q, user, "notes.saved.updated")


async def add_version(book: Notebook, user: User, q: Question, text: str, origin: NoteOrigin) -> list[Reply]:
    """Grade `text` as an answer to `q` and keep it as the next version (a question with neither key points nor
    a reference answer is kept ungraded: there is nothing to grade it against)."""
    lang = user.language
    problem = text_problem(text, book.limits, user) or await room_for(book.notes, user, q.id)
    if problem is not None:
        return [problem]
    now, notice = book.clock.now(), None
    grade = None
    if q.rubric.key_points or q.reference_answer.get(lang).strip():
        outcome = await book.grader.grade_answer(q, text.strip(), user, now, book.budget)
        grade, notice = outcome.grade, outcome.notice or (None if outcome.grade else "notes.grade_failed")
    note = await book.notes.add_note(
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
    await book.users.set_session(user.id, Idle())
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


async def propose(kind: str, note: NoteEntry, q: Question, book: Notebook, user: User) -> list[Reply]:
    """The LLM's STAR rewrite (`kind` "star") or two-minute version ("tighten") of a version, offered to keep.
    Without the LLM (none configured, or the user is over the budget) nothing is pretended."""
    lang, now = user.language, book.clock.now()
    writer = book.star_writer if kind == "star" else book.tightener
    if writer is None or (kind == "star" and q.type != "case"):
        return [Reply(t(lang, "notes.llm.none"), kind="error")]
    refused = await book.budget.refusal(user, now)
    if refused is not None:
        return [Reply(t(lang, "notes.llm.limit"), kind="error")]
    proposal: str | None = None
    tokens = 0
    try:
        if kind == "star" and book.star_writer is not None:
            story, tokens = await book.star_writer.rewrite(q.prompt.get(lang), note.text, lang)
            proposal = _star_text(story, lang) if story else None
        elif book.tightener is not None:
            proposal, tokens = await book.tightener.tighten(q.prompt.get(lang), note.text, lang)
    except Exception:
        log.exception("notebook %s rewrite failed", kind)
    await book.budget.spend(user.id, kind, tokens, now)
    if not proposal or not proposal.strip():
        return [Reply(t(lang, "notes.llm.failed"), kind="error")]
    proposal = proposal.strip()[: book.limits.max_answer_chars]
    data = {"kind": kind, "question_id": q.id, "text": proposal, "from": str(note.id)}
    await book.users.set_session(user.id, InCareer(tool="notes", step="propose", data=data))
    head = t(lang, f"notes.proposal.{kind}", n=note.version)
    return [Reply(head + "\n\n" + proposal + "\n\n" + t(lang, "notes.proposal.ask"), proposal_buttons(lang))]


def _star_text(story: dict[str, str], lang: Lang) -> str:
    return "\n".join(f"{t(lang, f'mock.star.{p[0].upper()}')}: {story.get(p, '').strip()}" for p in STAR_PARTS)


async def keep(book: Notebook, user: User) -> list[Reply]:
    """ "Keep as new version": the waiting proposal graded and kept (origin "star" or "tighten")."""
    state = await book.users.get_session(user.id)
    if not isinstance(state, InCareer) or state.tool != "notes" or state.step != "propose":
        return [Reply(t(user.language, "career.expired"))]
    q = await book.questions.get(state.data.get("question_id", ""))
    if q is None:
        await book.users.set_session(user.id, Idle())
        return [Reply(t(user.language, "notes.not_found"), kind="error")]
    origin: NoteOrigin = "star" if state.data.get("kind") == "star" else "tighten"
    return await add_version(book, user, q, state.data.get("text", ""), origin)


async def discard(book: Notebook, user: User) -> list[Reply]:
    state = await book.users.get_session(user.id)
    if not isinstance(state, InCareer) or state.tool != "notes":
        return [Reply(t(user.language, "career.expired"))]
    await book.users.set_session(user.id, Idle())
    return [Reply(t(user.language, "notes.proposal.discarded"))]
