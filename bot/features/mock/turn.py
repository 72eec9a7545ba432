"""One turn of a mock interview: an answer (text or transcript) to the open question or follow-up is stored
at once as an Attempt, graded quietly by the grading chain, made an FSRS review (main answers), and
followed by a follow-up on the weakest part of the answer, the next question, or the debrief.

Follow-ups: one on every answer with something weak to press on, two when the answer scored below
FOLLOW_UP_TWICE_BELOW. Offline, the bank's own follow-up that targets the weakest missed key point
(`Deps.follow_up_chooser`); with an LLM grade, the follow-up the LLM wrote with its short rubric."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime, timedelta

from bot.features.deps import Deps
from bot.features.mock import report as mock_report
from bot.features.mock.chart_data import MockChartData
from bot.features.mock.models import MAX_FOLLOW_UPS, MockFollowUp, MockItem, MockSession
from bot.features.mock.plan import FOLLOW_UP_BUDGET
from bot.kernel import commands as c
from bot.kernel import llm_budget, render, srs, verdicts
from bot.kernel.fences import trimmed
from bot.kernel.follow_ups import follow_up_question
from bot.kernel.i18n import t
from bot.kernel.models import Attempt, Card, Grade, Question, User
from bot.kernel.replies import Attachment, Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.session import Idle, InMock, Session
from bot.kernel.timeutil import fmt_local

log = logging.getLogger(__name__)
FOLLOW_UP_TWICE_BELOW = 65  # a score below "Good" (section 5) earns a second follow-up


def stuck_after(deps: Deps) -> timedelta:
    """A grading still pending after this long was left by a process that stopped (`Limits.grading_stuck_seconds`,
    150 s: longer than any grading, the LLM's deadline being 90 s; shorter than a webhook claim's stale time)."""
    return timedelta(seconds=deps.limits.grading_stuck_seconds)


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
    deps: Deps, user: User, mock: MockSession, *, in_session: bool = False, dirty: bool = False
) -> list[Reply]:
    """Ask (or ask again) the open question or follow-up; a question not asked before gets its card now.
    `in_session`: the user's session already points at this step; `dirty`: `mock` has changes to save."""
    lang, item = user.language, mock.current()
    assert item is not None
    q = await deps.question(item.question_id)
    if q is None:  # left the bank since the plan: drop it and go on
        mock.items.remove(item)
        if mock.current() is None:
            return await finish(deps, user, mock, "finished")
        return await ask_current(deps, user, mock, in_session=in_session, dirty=True)
    if not in_session:
        await deps.store.set_session(user.id, InMock(mock_id=mock.id, step=steps(mock)))
    if item.waiting_for() == "follow_up":
        if dirty:
            await deps.store.save_mock(mock)
        fu = item.follow_ups[-1]
        text = t(lang, "mock.follow_up", minutes=_minutes(FOLLOW_UP_BUDGET), text=fu.text)
        return [Reply(text, kind="question", ask_text=True)]
    card = await deps.store.card_for_question(user.id, q.id)
    tag, now = _tag(card), deps.clock.now()
    if card is None:  # asked for the first time (or its card was deleted since): the question joins the deck
        card = await deps.store.create_card(user.id, q.id, srs.new_state(now), now, False, now)
    if item.asked_at is None or item.card_id != card.id:
        item.card_id, item.asked_at, dirty = card.id, item.asked_at or now, True
    if dirty:
        await deps.store.save_mock(mock)
    n, i = len(mock.items), mock.items.index(item) + 1
    text = t(lang, "mock.question", i=i, n=n, minutes=_minutes(item.budget_seconds),
             question=render.question_text(q, lang, tag))  # fmt: skip
    return [Reply(text, kind="question", ask_text=True)]


def _check(text: str, deps: Deps, user: User) -> Reply | None:
    if not text.strip():
        return Reply(t(user.language, "empty_answer"), kind="error")
    if len(text) > deps.limits.max_answer_chars:
        return Reply(
            t(user.language, "answer_too_long", length=len(text), limit=deps.limits.max_answer_chars), kind="error"
        )
    return None


async def submit(cmd: c.SubmitAnswer, deps: Deps, user: User, session: Session | None = None) -> list[Reply]:
    store, lang = deps.store, user.language
    session = session if session is not None else await store.get_session(user.id)
    if not isinstance(session, InMock):
        return [Reply(t(lang, "no_open_question"))]
    if session.grading:
        return await _still_grading(deps, user, session)
    mock = await store.get_mock(session.mock_id)
    if mock is None or mock.state != "running" or mock.current() is None:
        await store.set_session(user.id, Idle())
        return [Reply(t(lang, "mock.none_running"))]
    item = mock.current()
    assert item is not None
    q = await deps.question(item.question_id)
    card = await store.get_card(item.card_id) if item.card_id is not None else None
    if q is None or card is None or item.asked_at is None:
        return await ask_current(deps, user, mock)  # drops a question gone from the bank; asks one not asked
    problem = _check(cmd.text, deps, user)
    if problem is not None:
        return [problem]
    now = deps.clock.now()
    fu = item.follow_ups[-1] if item.waiting_for() == "follow_up" else None
    attempt = await store.open_attempt(
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
        grade, notice = await _grade(deps, user, attempt, card, q, fu, after)
    except Exception:  # the answer is kept and graded later; the session is not left claimed
        await store.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, after)
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
    nxt = _next_follow_up(deps, user, q, item, attempt.id, grade, now) if grade is not None else None
    if nxt is not None:
        item.follow_ups.append(nxt)
    else:
        item.follow_ups_wanted = len(item.follow_ups)
    if fu is None and q.type == "case" and deps.star_writer is not None:
        await store.save_mock(mock)  # the answer is recorded before the slow LLM call
        item.star = await _star(deps, user, q, attempt.answer, now)
    if mock.current() is None:  # finish() saves the mock with its summary
        return [Reply(head), *await finish(deps, user, mock, "finished")]
    return [Reply(head), *await ask_current(deps, user, mock, in_session=True, dirty=True)]


async def skip(deps: Deps, user: User, session: InMock) -> list[Reply]:
    """/skip in a mock: pass on the open question (it counts as 0) or follow-up, and go on."""
    lang = user.language
    if session.grading:
        return await _still_grading(deps, user, session)
    mock = await deps.store.get_mock(session.mock_id)
    item = mock.current() if mock is not None and mock.state == "running" else None
    if mock is None or item is None:
        await deps.store.set_session(user.id, Idle())
        return [Reply(t(lang, "mock.none_running"))]
    if item.waiting_for() == "follow_up":
        item.follow_ups[-1].skipped = True
        item.follow_ups_wanted = len(item.follow_ups)  # no more follow-ups on a question the user passed on
    elif item.asked_at is not None:
        item.skipped = True
    head = Reply(t(lang, "mock.skipped"))
    if mock.current() is None:
        return [head, *await finish(deps, user, mock, "finished")]
    return [head, *await ask_current(deps, user, mock, dirty=True)]


async def _still_grading(deps: Deps, user: User, session: InMock) -> list[Reply]:
    """An answer is being graded, or was when the process stopped: past `stuck_after` its attempt is queued
    for a regrade (kept, never lost) and the question asked again, so a restart never leaves the user stuck."""
    store, lang = deps.store, user.language
    last = next(
        (a for a in reversed(await store.list_attempts(user.id)) if a.source == f"mock:{session.mock_id}"), None
    )
    if last is None or last.status != "pending" or deps.clock.now() - last.created_at < stuck_after(deps):
        return [Reply(t(lang, "already_grading"))]
    if await store.claim_attempt(last.id, "pending", "regrade"):
        log.warning("mock %d: attempt %d was left pending (a restart?); queued for a regrade", session.mock_id, last.id)
    mock = await store.get_mock(session.mock_id)
    if mock is None or mock.state != "running" or mock.current() is None:
        await store.set_session(user.id, Idle())
        return [Reply(t(lang, "mock.none_running"))]
    return [Reply(t(lang, "mock.interrupted")), *await ask_current(deps, user, mock)]


async def _grade(
    deps: Deps, user: User, attempt: Attempt, card: Card, q: Question, fu: MockFollowUp | None, after: InMock
) -> tuple[Grade | None, str | None]:
    """The grading chain on the answer; the main answer becomes an FSRS review. The grade and the
    notice (an i18n key) to show: none of the grade itself, as in a real interview."""
    if fu is not None:
        parent = await deps.store.get_attempt(fu.parent)
        q = follow_up_question(q, parent.grade if parent else None, fu.text)
    outcome = await deps.grader.grade_answer(q, attempt.answer, user, attempt.created_at, llm_budget.of(deps))
    grade = outcome.grade
    if grade is None:
        await deps.store.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, after)
        return None, "mock.not_graded"
    estimate = verdicts.is_estimate(grade)  # an estimate never rates: the card comes back until the user rates
    rating = verdicts.UNRATED if estimate else rating_from_score(grade.score)
    new_card = None
    if fu is None:
        state, due = srs.review(card.fsrs, rating, attempt.created_at, user.desired_retention, deps.limits.fuzz)
        new_card = card.model_copy(update={"fsrs": state, "due": due, "is_new": False})
    done = attempt.model_copy(
        update={
            "status": "regrade" if outcome.regrade else "graded", "grade": grade, "grader": grade.grader,
            "prompt_version": grade.prompt_version, "latency_ms": outcome.latency_ms, "tokens": grade.tokens,
            "rating": int(rating), "rating_by": "unrated" if estimate else "grade", "graded_at": attempt.created_at,
        }
    )  # fmt: skip
    await deps.store.finish_attempt(done, new_card, after)
    return grade, NOTICES.get(outcome.notice or "")


async def _star(deps: Deps, user: User, q: Question, answer: str, now: datetime) -> dict[str, str] | None:
    """The LLM's STAR rewrite of a case answer, written now (the debrief then has it at once), within the
    user's LLM budget; None without an LLM, over the budget, or when it fails (the offline check remains)."""
    if deps.star_writer is None or await llm_budget.refusal(deps, user, now) is not None:
        return None
    try:
        star, tokens = await deps.star_writer.rewrite(q.prompt.get(user.language), answer, user.language)
    except Exception:
        log.exception("STAR rewrite failed")
        star, tokens = None, 0
    await llm_budget.spend(deps, user.id, "star", tokens, now)
    return star


def _next_follow_up(
    deps: Deps, user: User, q: Question, item: MockItem, answered: int, grade: Grade, now: datetime
) -> MockFollowUp | None:
    """The next follow-up on `item`, or None when it has had the ones it earned. The first presses on the
    weakest point of the answer; the second on the next weakest (offline) or on the follow-up answer (LLM)."""
    asked = len(item.follow_ups)
    if asked >= min(item.follow_ups_wanted, MAX_FOLLOW_UPS):
        return None
    used = {f.bank_index for f in item.follow_ups if f.bank_index is not None}
    texts = {f.text for f in item.follow_ups}
    weak = item.weak_points[asked:] + item.weak_points[:asked]
    if grade.estimate and deps.follow_up_chooser is not None and q.follow_ups and weak:
        index = deps.follow_up_chooser(q, weak, used)
        if index is not None:
            text = q.follow_ups[index].get(user.language)
            return MockFollowUp(text=text, parent=item.attempt_id or answered, bank_index=index, asked_at=now)
    if grade.follow_up and grade.follow_up not in texts:
        return MockFollowUp(text=grade.follow_up, parent=answered, asked_at=now)
    return None


async def finish(deps: Deps, user: User, mock: MockSession, state: str) -> list[Reply]:
    """End the mock ("finished" or "stopped"), keep its summary, and return the debrief."""
    store, lang, now = deps.store, user.language, deps.clock.now()
    rows = await rows_of(deps, mock)
    mock.state, mock.finished_at = state, now  # type: ignore[assignment]
    mock.summary = mock_report.summary(rows)
    await store.save_mock(mock)
    session = await store.get_session(user.id)
    if isinstance(session, InMock) and session.mock_id == mock.id:
        last = max((r.main.id for r in rows if r.main is not None), default=None)
        await store.set_session(user.id, Idle(last_attempt=last))
    answered = sum(1 for r in rows if r.main is not None)
    if state == "stopped" and answered == 0:
        return [Reply(t(lang, "mock.stopped_empty"))]
    earlier = [
        m for m in await store.list_mocks(user.id) if m.id != mock.id and m.summary and m.created_at <= mock.created_at
    ]
    previous = (earlier[-1].created_at, earlier[-1].summary) if earlier and earlier[-1].summary else None
    date = fmt_local(previous[0], user.timezone) if previous else ""
    if state == "stopped":
        head = Reply(t(lang, "mock.stopped", answered=answered, n=len(mock.items)))
    else:
        head = Reply(t(lang, "mock.finished"))
    replies = mock_report.report(mock, rows, lang, previous, date)
    image = await _chart(deps, mock_report.chart_data(mock, rows, lang, previous[1] if previous else None), mock)
    if image is not None and replies:
        replies[0] = replace(replies[0], image=image)  # the summary's text with the chart
    return [head, *replies]


async def _chart(deps: Deps, data: MockChartData | None, mock: MockSession) -> Attachment | None:
    """The debrief as a PNG, or None without a renderer, without a graded answer, or when drawing fails."""
    if deps.mock_charts is None or data is None:
        return None
    try:
        png = await asyncio.to_thread(deps.mock_charts.render_mock, data)
    except Exception:
        log.exception("mock debrief chart failed; sending the text alone")
        return None
    return Attachment(f"mock-{mock.id}.png", png, "image/png")


async def rows_of(deps: Deps, mock: MockSession) -> list[mock_report.Answered]:
    rows = []
    for i, item in enumerate(mock.items, 1):
        q = await deps.question(item.question_id)
        if q is None or item.asked_at is None:
            continue
        main = await deps.store.get_attempt(item.attempt_id) if item.attempt_id is not None else None
        fus = [
            a for f in item.follow_ups if f.attempt_id is not None and (a := await deps.store.get_attempt(f.attempt_id))
        ]
        rows.append(mock_report.Answered(i, item, q, main, fus))
    return rows


async def mock_of(deps: Deps, attempt: Attempt) -> MockSession | None:
    """The mock interview an attempt was given in (its source is "mock:<id>"), if it still exists."""
    kind, _, raw = (attempt.source or "").partition(":")
    if kind != "mock" or not raw.isdigit():
        return None
    mock = await deps.store.get_mock(int(raw))
    return mock if mock is not None and mock.user_id == attempt.user_id else None


async def asked_follow_up(deps: Deps, attempt: Attempt) -> tuple[str, int] | None:
    """For a mock's follow-up answer: the follow-up asked (it may be another than its parent grade's own)
    and the attempt it pressed on, so a regrade grades it against the right rubric."""
    mock = await mock_of(deps, attempt)
    for item in mock.items if mock else []:
        for fu in item.follow_ups:
            if fu.attempt_id == attempt.id:
                return fu.text, fu.parent
    return None
