"""One turn of a mock interview: an answer (text or transcript) to the open question or follow-up is stored
at once as an Attempt, graded quietly by the grading chain, made an FSRS review (main answers), and
followed by a follow-up on the weakest part of the answer, the next question, or the debrief.

Follow-ups: one on every answer with something weak to press on, two when the answer scored below
FOLLOW_UP_TWICE_BELOW. Offline, the bank's own follow-up that targets the weakest missed key point
(`Turns.follow_up_chooser`); with an LLM grade, the follow-up the LLM wrote with its short rubric."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.features.mock import report as mock_report
from bot.features.mock.chart_data import MockChartData
from bot.features.mock.models import MAX_FOLLOW_UPS, MockFollowUp, MockItem, MockSession
from bot.features.mock.plan import FOLLOW_UP_BUDGET
from bot.features.mock.ports import MockChartRenderer, MocksPort
from bot.kernel import commands as c
from bot.kernel import render, srs, verdicts
from bot.kernel.fences import trimmed
from bot.kernel.follow_ups import follow_up_question
from bot.kernel.i18n import t
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Questions
from bot.kernel.models import Attempt, Card, Grade, Question, User
from bot.kernel.ports import Clock, GradingChain, StarWriter
from bot.kernel.replies import Attachment, Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.session import Idle, InMock, Session
from bot.kernel.store_ports import AttemptsPort, CardsPort, UsersPort
from bot.kernel.timeutil import fmt_local

log = logging.getLogger(__name__)
FOLLOW_UP_TWICE_BELOW = 65  # a score below "Good" (section 5) earns a second follow-up


FollowUpChooser = Callable[[Question, Sequence[str], Collection[int]], "int | None"]


@group
@dataclass(frozen=True)
class Turns:
    """What a mock interview's turns use: the user's state, cards, answers and mocks, the questions by id, the
    grading chain and its budget, the STAR rewriter, the bank follow-up chooser and the debrief's chart renderer
    (each None when the root has none), the clock and the limits."""

    users: UsersPort
    cards: CardsPort
    attempts: AttemptsPort
    mocks: MocksPort
    questions: Questions
    grader: GradingChain
    budget: Budget
    star_writer: StarWriter | None
    follow_up_chooser: FollowUpChooser | None
    mock_charts: MockChartRenderer | None
    clock: Clock
    limits: Limits


def stuck_after(limits: Limits) -> timedelta:
    """A grading still pending after this long was left by a process that stopped (`Limits.grading_stuck_seconds`,
    150 s: longer than any grading, the LLM's deadline being 90 s; shorter than a webhook claim's stale time)."""
    return timedelta(seconds=limits.grading_stuck_seconds)


NOTICES = {"llm_unavailable": "mock.llm_down", "llm_limit": "mock.llm_limit", "llm_budget": "mock.llm_limit"}


def steps(mock: MockSession) -> int:
    """Answers given so far (questions and follow-ups): the session's claim counter."""
    return sum((i.attempt_id is not None) + sum(f.attempt_id is not None for f in i.follow_ups) for i in mock.items)


def weak_points(q: Question, grade: Grade) -> list[str]:
    """Key point ids the answer missed, then those it covered only in part; heaviest first within each."""
    weight = {k.id: k.weight for k in q.rubric.key_points}
    rank = {"missed": 0, "partial": 1}
    weak = [k for k in grade.key_points if k.verdict in rank and k.id in weight]
    return [k.id for k in sorted(weak, key=lambda k: (rank[k.verdict], -weight[k.id]))]


def _minutes(seconds: int) -> int:
    return max(1, -(-seconds // 60))


def _tag(card: Card | None) -> str:
    if card is None or card.personal:
        return "personal" if card else "new"
    return "new" if card.is_new else "due"


async def ask_current(
    turns: Turns, user: User, mock: MockSession, *, in_session: bool = False, dirty: bool = False
) -> list[Reply]:
    """Ask (or ask again) the open question or follow-up; a question not asked before gets its card now.
    `in_session`: the user's session already points at this step; `dirty`: `mock` has changes to save."""
    lang, item = user.language, mock.current()
    assert item is not None
    q = await turns.questions.get(item.question_id)
    if q is None:  # left the bank since the plan: drop it and go on
        mock.items.remove(item)
        if mock.current() is None:
            return await finish(turns, user, mock, "finished")
        return await ask_current(turns, user, mock, in_session=in_session, dirty=True)
    if not in_session:
        await turns.users.set_session(user.id, InMock(mock_id=mock.id, step=steps(mock)))
    if item.waiting_for() == "follow_up":
        if dirty:
            await turns.mocks.save_mock(mock)
        fu = item.follow_ups[-1]
        text = t(lang, "mock.follow_up", minutes=_minutes(FOLLOW_UP_BUDGET), text=fu.text)
        return [Reply(text, kind="question", ask_text=True)]
    card = await turns.cards.card_for_question(user.id, q.id)
    tag, now = _tag(card), turns.clock.now()
    if card is None:  # asked for the first time (or its card was deleted since): the question joins the deck
        card = await turns.cards.create_card(user.id, q.id, srs.new_state(now), now, False, now)
    if item.asked_at is None or item.card_id != card.id:
        item.card_id, item.asked_at, dirty = card.id, item.asked_at or now, True
    if dirty:
        await turns.mocks.save_mock(mock)
    n, i = len(mock.items), mock.items.index(item) + 1
    text = t(lang, "mock.question", i=i, n=n, minutes=_minutes(item.budget_seconds),
             question=render.question_text(q, lang, tag))  # fmt: skip
    return [Reply(text, kind="question", ask_text=True)]


def _check(text: str, limits: Limits, user: User) -> Reply | None:
    if not text.strip():
        return Reply(t(user.language, "empty_answer"), kind="error")
    if len(text) > limits.max_answer_chars:
        return Reply(t(user.language, "answer_too_long", length=len(text), limit=limits.max_answer_chars), kind="error")
    return None


async def submit(cmd: c.SubmitAnswer, turns: Turns, user: User, session: Session | None = None) -> list[Reply]:
    lang = user.language
    session = session if session is not None else await turns.users.get_session(user.id)
    if not isinstance(session, InMock):
        return [Reply(t(lang, "no_open_question"))]
    if session.grading:
        return await _still_grading(turns, user, session)
    mock = await turns.mocks.get_mock(session.mock_id)
    if mock is None or mock.state != "running" or mock.current() is None:
        await turns.users.set_session(user.id, Idle())
        return [Reply(t(lang, "mock.none_running"))]
    item = mock.current()
    assert item is not None
    q = await turns.questions.get(item.question_id)
    card = await turns.cards.get_card(item.card_id) if item.card_id is not None else None
    if q is None or card is None or item.asked_at is None:
        return await ask_current(turns, user, mock)  # drops a question gone from the bank; asks one not asked
    problem = _check(cmd.text, turns.limits, user)
    if problem is not None:
        return [problem]
    now = turns.clock.now()
    fu = item.follow_ups[-1] if item.waiting_for() == "follow_up" else None
    attempt = await turns.attempts.open_attempt(
        Attempt(
            id=0, user_id=user.id, card_id=card.id, question_id=q.id, answer=trimmed(cmd.text),
            transcript=cmd.transcript, audio_ref=cmd.audio_ref, audio_seconds=cmd.audio_seconds,
            card_before=card.fsrs, is_follow_up=fu is not None, follow_up_question=fu.text if fu else None,
            source=f"mock:{mock.id}", created_at=now,
        ),
        session,
        session.model_copy(update={"grading": True}),
    )  # fmt: skip
    if attempt is None:
        return [Reply(t(lang, "already_grading"))]
    after = InMock(mock_id=mock.id, step=session.step + 1)
    try:
        grade, notice = await _grade(turns, user, attempt, card, q, fu, after)
    except Exception:  # the answer is kept and graded later; the session is not left claimed
        await turns.attempts.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, after)
        raise
    seconds = cmd.audio_seconds if cmd.audio_seconds else (now - (fu.asked_at if fu else item.asked_at)).total_seconds()
    head = t(lang, "mock.noted") + ("\n" + t(lang, notice) if notice else "")
    if fu is None:
        item.attempt_id, item.answer_seconds, item.voice = attempt.id, seconds, cmd.audio_seconds is not None
        item.score = grade.score if grade else None
        item.weak_points = weak_points(q, grade) if grade else []
        item.follow_ups_wanted = 0 if grade is None else (2 if grade.score < FOLLOW_UP_TWICE_BELOW else 1)
    else:
        fu.attempt_id, fu.score, fu.answer_seconds = attempt.id, grade.score if grade else None, seconds
    nxt = _next_follow_up(turns, user, q, item, attempt.id, grade, now) if grade is not None else None
    if nxt is not None:
        item.follow_ups.append(nxt)
    else:
        item.follow_ups_wanted = len(item.follow_ups)
    if fu is None and q.type == "case" and turns.star_writer is not None:
        await turns.mocks.save_mock(mock)  # the answer is recorded before the slow LLM call
        item.star = await _star(turns, user, q, attempt.answer, now)
    if mock.current() is None:  # finish() saves the mock with its summary
        return [Reply(head), *await finish(turns, user, mock, "finished")]
    return [Reply(head), *await ask_current(turns, user, mock, in_session=True, dirty=True)]


async def skip(turns: Turns, user: User, session: InMock) -> list[Reply]:
    """/skip in a mock: pass on the open question (it counts as 0) or follow-up, and go on."""
    lang = user.language
    if session.grading:
        return await _still_grading(turns, user, session)
    mock = await turns.mocks.get_mock(session.mock_id)
    item = mock.current() if mock is not None and mock.state == "running" else None
    if mock is None or item is None:
        await turns.users.set_session(user.id, Idle())
        return [Reply(t(lang, "mock.none_running"))]
    if item.waiting_for() == "follow_up":
        item.follow_ups[-1].skipped = True
        item.follow_ups_wanted = len(item.follow_ups)  # no more follow-ups on a question the user passed on
    elif item.asked_at is not None:
        item.skipped = True
    head = Reply(t(lang, "mock.skipped"))
    if mock.current() is None:
        return [head, *await finish(turns, user, mock, "finished")]
    return [head, *await ask_current(turns, user, mock, dirty=True)]


async def _still_grading(turns: Turns, user: User, session: InMock) -> list[Reply]:
    """An answer is being graded, or was when the process stopped: past `stuck_after` its attempt is queued
    for a regrade (kept, never lost) and the question asked again, so a restart never leaves the user stuck."""
    lang = user.language
    last = next(
        (a for a in reversed(await turns.attempts.list_attempts(user.id)) if a.source == f"mock:{session.mock_id}"),
        None,
    )
    if last is None or last.status != "pending" or turns.clock.now() - last.created_at < stuck_after(turns.limits):
        return [Reply(t(lang, "already_grading"))]
    if await turns.attempts.claim_attempt(last.id, "pending", "regrade"):
        log.warning("mock %d: attempt %d was left pending (a restart?); queued for a regrade", session.mock_id, last.id)
    mock = await turns.mocks.get_mock(session.mock_id)
    if mock is None or mock.state != "running" or mock.current() is None:
        await turns.users.set_session(user.id, Idle())
        return [Reply(t(lang, "mock.none_running"))]
    return [Reply(t(lang, "mock.interrupted")), *await ask_current(turns, user, mock)]


async def _grade(
    turns: Turns, user: User, attempt: Attempt, card: Card, q: Question, fu: MockFollowUp | None, after: InMock
) -> tuple[Grade | None, str | None]:
    """The grading chain on the answer; the main answer becomes an FSRS review. The grade and the
    notice (an i18n key) to show: none of the grade itself, as in a real interview."""
    if fu is not None:
        parent = await turns.attempts.get_attempt(fu.parent)
        q = follow_up_question(q, parent.grade if parent else None, fu.text)
    outcome = await turns.grader.grade_answer(q, attempt.answer, user, attempt.created_at, turns.budget)
    grade = outcome.grade
    if grade is None:
        await turns.attempts.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, after)
        return None, "mock.not_graded"
    estimate = verdicts.is_estimate(grade)  # an estimate never rates: the card comes back until the user rates
    rating = verdicts.UNRATED if estimate else rating_from_score(grade.score)
    new_card = None
    if fu is None:
        state, due = srs.review(card.fsrs, rating, attempt.created_at, user.desired_retention, turns.limits.fuzz)
        new_card = card.model_copy(update={"fsrs": state, "due": due, "is_new": False})
    done = attempt.model_copy(
        update={
            "status": "regrade" if outcome.regrade else "graded", "grade": grade, "grader": grade.grader,
            "prompt_version": grade.prompt_version, "latency_ms": outcome.latency_ms, "tokens": grade.tokens,
            "rating": int(rating), "rating_by": "unrated" if estimate else "grade", "graded_at": attempt.created_at,
        }
    )  # fmt: skip
    await turns.attempts.finish_attempt(done, new_card, after)
    return grade, NOTICES.get(outcome.notice or "")


async def _star(turns: Turns, user: User, q: Question, answer: str, now: datetime) -> dict[str, str] | None:
    """The LLM's STAR rewrite of a case answer, written now (the debrief then has it at once), within the
    user's LLM budget; None without an LLM, over the budget, or when it fails (the offline check remains)."""
    if turns.star_writer is None or await turns.budget.refusal(user, now) is not None:
        return None
    try:
        star, tokens = await turns.star_writer.rewrite(q.prompt.get(user.language), answer, user.language)
    except Exception:
        log.exception("STAR rewrite failed")
        star, tokens = None, 0
    await turns.budget.spend(user.id, "star", tokens, now)
    return star


def _next_follow_up(
    turns: Turns, user: User, q: Question, item: MockItem, answered: int, grade: Grade, now: datetime
) -> MockFollowUp | None:
    """The next follow-up on `item`, or None when it has had the ones it earned. The first presses on the
    weakest point of the answer; the second on the next weakest (offline) or on the follow-up answer (LLM)."""
    asked = len(item.follow_ups)
    if asked >= min(item.follow_ups_wanted, MAX_FOLLOW_UPS):
        return None
    used = {f.bank_index for f in item.follow_ups if f.bank_index is not None}
    texts = {f.text for f in item.follow_ups}
    weak = item.weak_points[asked:] + item.weak_points[:asked]
    if grade.estimate and turns.follow_up_chooser is not None and q.follow_ups and weak:
        index = turns.follow_up_chooser(q, weak, used)
        if index is not None:
            text = q.follow_ups[index].get(user.language)
            return MockFollowUp(text=text, parent=item.attempt_id or answered, bank_index=index, asked_at=now)
    if grade.follow_up and grade.follow_up not in texts:
        return MockFollowUp(text=grade.follow_up, parent=answered, asked_at=now)
    return None


async def finish(turns: Turns, user: User, mock: MockSession, state: str) -> list[Reply]:
    """End the mock ("finished" or "stopped"), keep its summary, and return the debrief."""
    lang, now = user.language, turns.clock.now()
    rows = await rows_of(turns, mock)
    mock.state, mock.finished_at = state, now  # type: ignore[assignment]
    mock.summary = mock_report.summary(rows)
    await turns.mocks.save_mock(mock)
    session = await turns.users.get_session(user.id)
    if isinstance(session, InMock) and session.mock_id == mock.id:
        last = max((r.main.id for r in rows if r.main is not None), default=None)
        await turns.users.set_session(user.id, Idle(last_attempt=last))
    answered = sum(1 for r in rows if r.main is not None)
    if state == "stopped" and answered == 0:
        return [Reply(t(lang, "mock.stopped_empty"))]
    earlier = [
        m
        for m in await turns.mocks.list_mocks(user.id)
        if m.id != mock.id and m.summary and m.created_at <= mock.created_at
    ]
    previous = (earlier[-1].created_at, earlier[-1].summary) if earlier and earlier[-1].summary else None
    date = fmt_local(previous[0], user.timezone) if previous else ""
    if state == "stopped":
        head = Reply(t(lang, "mock.stopped", answered=answered, n=len(mock.items)))
    else:
        head = Reply(t(lang, "mock.finished"))
    replies = mock_report.report(mock, rows, lang, previous, date)
    image = await _chart(turns, mock_report.chart_data(mock, rows, lang, previous[1] if previous else None), mock)
    if image is not None and replies:
        replies[0] = replace(replies[0], image=image)  # the summary's text with the chart
    return [head, *replies]


async def _chart(turns: Turns, data: MockChartData | None, mock: MockSession) -> Attachment | None:
    """The debrief as a PNG, or None without a renderer, without a graded answer, or when drawing fails."""
    if turns.mock_charts is None or data is None:
        return None
    try:
        png = await asyncio.to_thread(turns.mock_charts.render_mock, data)
    except Exception:
        log.exception("mock debrief chart failed; sending the text alone")
        return None
    return Attachment(f"mock-{mock.id}.png", png, "image/png")


async def rows_of(turns: Turns, mock: MockSession) -> list[mock_report.Answered]:
    rows = []
    for i, item in enumerate(mock.items, 1):
        q = await turns.questions.get(item.question_id)
        if q is None or item.asked_at is None:
            continue
        main = await turns.attempts.get_attempt(item.attempt_id) if item.attempt_id is not None else None
        fus = [
            a
            for f in item.follow_ups
            if f.attempt_id is not None and (a := await turns.attempts.get_attempt(f.attempt_id))
        ]
        rows.append(mock_report.Answered(i, item, q, main, fus))
    return rows


async def mock_of(mocks: MocksPort, attempt: Attempt) -> MockSession | None:
    """The mock interview an attempt was given in (its source is "mock:<id>"), if it still exists."""
    kind, _, raw = (attempt.source or "").partition(":")
    if kind != "mock" or not raw.isdigit():
        return None
    mock = await mocks.get_mock(int(raw))
    return mock if mock is not None and mock.user_id == attempt.user_id else None


async def asked_follow_up(mocks: MocksPort, attempt: Attempt) -> tuple[str, int] | None:
    """For a mock's follow-up answer: the follow-up asked (it may be another than its parent grade's own)
    and the attempt it pressed on, so a regrade grades it against the right rubric."""
    mock = await mock_of(mocks, attempt)
    for item in mock.items if mock else []:
        for fu in item.follow_ups:
            if fu.attempt_id == attempt.id:
                return fu.text, fu.parent
    return None
