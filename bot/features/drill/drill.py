"""The drill loop: next question, answer (stored, then graded, then scheduled), reveal, skip,
rating override and follow-up questions."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from bot.features.drill.grading_chain import follow_up_question, grade_answer
from bot.features.jd import focus
from bot.kernel import commands as c
from bot.kernel import render, srs
from bot.kernel.deps import Deps
from bot.kernel.i18n import t, tn
from bot.kernel.models import MAX_NEW_PER_DAY, TOPICS, Attempt, Card, Question, Rating, User
from bot.kernel.replies import Button, Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.session import Answering, FollowingUp, Grading, Idle, Session, open_card_id
from bot.kernel.timeutil import fmt_local, start_of_local_day

log = logging.getLogger(__name__)
FAR_FUTURE = datetime(9999, 1, 1, tzinfo=UTC)


def show_question(q: Question, card: Card, user: User, tag: str) -> list[Reply]:
    lang = user.language
    text = render.question_text(q, lang, tag) + "\n\n" + t(lang, "answer_hint")
    buttons = [[Button(t(lang, "btn.skip"), "skip"), Button(t(lang, "btn.reference"), "ref")]]
    return [Reply(text, buttons, kind="question", ask_text=True)]


async def pick_next(deps: Deps, user: User, now: datetime) -> tuple[Card, Question, str] | None:
    """Design section 5: due cards first (most overdue first), then new ones up to the daily limit, leaning
    to an active job description's subtopics (bot/features/jd/focus.py)."""
    store = deps.store
    for _ in range(3):
        card = await store.next_due_card(user.id, now)
        if card is None:
            break
        q = await deps.question(card.question_id)
        if q is not None:
            return card, q, "personal" if card.personal else ("new" if card.is_new else "due")
        # The question left the bank: suspend the card so it is not served again.
        await store.save_card(card.model_copy(update={"suspended": True}))
    introduced = await store.count_cards_created_since(user.id, start_of_local_day(now, user.timezone))
    if introduced >= user.new_per_day:
        return None
    have = await store.card_question_ids(user.id)
    candidates = deps.bank.new_candidates(user.topics, user.level, have)
    if not candidates:
        return None
    lean = focus.subtopics(await store.active_jd(user.id, now))  # a /jd focus weights the new ones
    q = focus.weighted(candidates, lean, user.level, introduced)[0]
    card = await store.create_card(user.id, q.id, srs.new_state(now), now, False, now)
    return card, q, "new"


async def _card_with_question(deps: Deps, card_id: int) -> tuple[Card, Question] | None:
    card = await deps.store.get_card(card_id)
    q = await deps.question(card.question_id) if card else None
    return (card, q) if card is not None and q is not None else None


async def ask_again(deps: Deps, session: Session) -> tuple[Card, Question, str] | None:
    """The deck question asked earlier and not answered yet (to ask again), or None: none is open, or its
    card or question is gone. A follow-up is not counted: the next question moves on from it."""
    if not isinstance(session, Answering):
        return None
    found = await _card_with_question(deps, session.card_id)
    if found is None:
        return None
    card, q = found
    return card, q, "personal" if card.personal else "due"


async def next_question(cmd: c.NextQuestion, deps: Deps, user: User) -> list[Reply]:
    now = deps.clock.now()
    reopened = await ask_again(deps, await deps.store.get_session(user.id))
    if reopened is not None:
        card, q, tag = reopened
        return show_question(q, card, user, tag)
    picked = await pick_next(deps, user, now)
    if picked is None:
        return [await _nothing_due(deps, user)]
    card, q, tag = picked
    await deps.store.set_session(user.id, Answering(card_id=card.id))
    return show_question(q, card, user, tag)


async def _nothing_due(deps: Deps, user: User) -> Reply:
    """Why there is no question now, and the one thing that would give one: a higher daily limit (when
    there is room above it), new questions turned back on, or more topics once the bank is used up."""
    lang, limit = user.language, user.new_per_day
    nxt = await deps.store.next_due_card(user.id, FAR_FUTURE)
    when = fmt_local(nxt.due, user.timezone) if nxt else t(lang, "no_next")
    if not deps.bank.new_candidates(user.topics, user.level, await deps.store.card_question_ids(user.id)):
        more = t(lang, "nothing_due.more_topics") if set(user.topics) != set(TOPICS) else ""
        return Reply(t(lang, "nothing_due.bank_done", next=when, more=more))
    if limit == 0:
        return Reply(t(lang, "nothing_due.new_off", next=when))
    if limit >= MAX_NEW_PER_DAY:
        return Reply(t(lang, "nothing_due.at_max", new=tn(lang, "count.new_question", limit), next=when))
    suggest = min(MAX_NEW_PER_DAY, limit + 5)
    new = tn(lang, "count.new_question", limit)
    return Reply(t(lang, "nothing_due", new=new, next=when, suggest=suggest))


def _check_text(text: str, deps: Deps, user: User) -> Reply | None:
    if not text.strip():
        return Reply(t(user.language, "empty_answer"), kind="error")
    if len(text) > deps.limits.max_answer_chars:
        return Reply(
            t(user.language, "answer_too_long", length=len(text), limit=deps.limits.max_answer_chars),
            kind="error",
        )
    return None


async def submit_answer(cmd: c.SubmitAnswer, deps: Deps, user: User, session: Session | None = None) -> list[Reply]:
    store, lang = deps.store, user.language
    session = session if session is not None else await store.get_session(user.id)
    card_id = open_card_id(session)
    if card_id is None:
        return [Reply(t(lang, "no_open_question"))]
    problem = _check_text(cmd.text, deps, user)
    if problem is not None:
        return [problem]
    found = await _card_with_question(deps, card_id)
    if found is None:
        await store.set_session(user.id, Idle())
        return [Reply(t(lang, "no_open_question"))]
    card, q = found
    now = deps.clock.now()
    follow_up = isinstance(session, FollowingUp)
    attempt = await store.open_attempt(
        Attempt(
            id=0,
            user_id=user.id,
            card_id=card.id,
            question_id=q.id,
            answer=cmd.text.strip(),
            transcript=cmd.transcript,
            audio_ref=cmd.audio_ref,
            audio_seconds=cmd.audio_seconds,
            card_before=card.fsrs,
            is_follow_up=follow_up,
            source=cmd.source,
            created_at=now,
        ),
        session,
        Grading(card_id=card.id),  # claimed: a second process answering this session gets None
    )
    if attempt is None:
        return [Reply(t(lang, "already_grading"))]
    try:
        return await _grade_claimed(deps, user, attempt, card, q, session)
    except Exception:  # the answer is kept: graded again later, and the session is not left claimed
        await store.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, _idle(attempt))
        raise


def _idle(attempt: Attempt) -> Idle:
    return Idle(last_attempt=attempt.id)


async def _grade_claimed(
    deps: Deps, user: User, attempt: Attempt, card: Card, q: Question, session: Session
) -> list[Reply]:
    store, lang, now = deps.store, user.language, attempt.created_at
    follow_up = attempt.is_follow_up
    if isinstance(session, FollowingUp):
        parent = await store.get_attempt(session.parent)
        q = follow_up_question(q, parent.grade if parent else None, session.text)
    elif not q.rubric.key_points and not q.reference_answer.get(lang).strip():
        await store.finish_attempt(attempt.model_copy(update={"status": "self"}), None, _idle(attempt))
        return [Reply(t(lang, "self_rate"), [render.rating_buttons(attempt.id, lang)], kind="grade")]
    outcome = await grade_answer(deps, q, attempt.answer, user, now)
    grade = outcome.grade
    if grade is None:
        await store.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, _idle(attempt))
        return [Reply(t(lang, "grading_failed"), [[Button(t(lang, "btn.next"), "next")]], kind="error")]
    rating = rating_from_score(grade.score)
    new_card = None if follow_up else _reviewed(card, rating, now, deps, user)
    done = attempt.model_copy(
        update={
            "status": "regrade" if outcome.regrade else "graded",
            "grade": grade,
            "grader": grade.grader,
            "prompt_version": grade.prompt_version,
            "latency_ms": outcome.latency_ms,
            "tokens": grade.tokens,
            "rating": int(rating),
            "graded_at": now,
        }
    )
    await store.finish_attempt(done, new_card, _idle(attempt))
    due = fmt_local((new_card or card).due, user.timezone)
    text = render.grade_text(grade, q, lang, rating, due)
    if outcome.notice:
        text += "\n" + t(lang, outcome.notice)
    if follow_up:
        return [Reply(text + "\n" + t(lang, "follow_up_done"), [[Button(t(lang, "btn.next"), "next")]], kind="grade")]
    return [Reply(text, render.grade_buttons(attempt.id, lang, bool(grade.follow_up)), kind="grade")]


def _reviewed(card: Card, rating: Rating, when: datetime, deps: Deps, user: User) -> Card:
    state, due = srs.review(card.fsrs, rating, when, user.desired_retention, deps.limits.fuzz)
    return card.model_copy(update={"fsrs": state, "due": due, "is_new": False})


async def reveal(cmd: c.RevealReference, deps: Deps, user: User) -> list[Reply]:
    store, lang = deps.store, user.language
    session = await store.get_session(user.id)
    if cmd.attempt_id is None and isinstance(session, Answering):
        reopened = await ask_again(deps, session)
        if reopened is None:
            return [Reply(t(lang, "no_open_question"))]
        card, q, _ = reopened
        now = deps.clock.now()
        attempt = await store.add_attempt(
            Attempt(
                id=0,
                user_id=user.id,
                card_id=card.id,
                question_id=q.id,
                answer="",
                status="revealed",
                rating=int(Rating.AGAIN),
                card_before=card.fsrs,
                created_at=now,
                graded_at=now,
            )
        )
        await store.finish_attempt(attempt, _reviewed(card, Rating.AGAIN, now, deps, user))
        await store.set_session(user.id, _idle(attempt))
        return [_reference(q, user), Reply(t(lang, "revealed"), [[Button(t(lang, "btn.next"), "next")]])]
    attempt_id = cmd.attempt_id or (session.last_attempt if isinstance(session, Idle) else None)
    earlier = await store.get_attempt(attempt_id) if attempt_id else None
    if earlier is None or earlier.user_id != user.id:
        return [Reply(t(lang, "no_open_question"))]
    asked = await deps.question(earlier.question_id)
    return [_reference(asked, user)] if asked else [Reply(t(lang, "not_found"))]


def _reference(q: Question, user: User) -> Reply:
    text = q.reference_answer.get(user.language).strip()
    if not text:
        return Reply(t(user.language, "reference_none"))
    return Reply(t(user.language, "reference", text=text), kind="reference")


async def skip(cmd: c.SkipQuestion, deps: Deps, user: User) -> list[Reply]:
    session = await deps.store.get_session(user.id)
    if open_card_id(session) is None:
        return [Reply(t(user.language, "no_open_question"))]
    if isinstance(session, Answering):  # a skipped follow-up leaves its card as it is
        card = await deps.store.get_card(session.card_id)
        if card is not None:
            await deps.store.save_card(card.model_copy(update={"due": deps.clock.now() + timedelta(days=1)}))
    await deps.store.set_session(user.id, Idle())
    return [Reply(t(user.language, "skipped"), [[Button(t(user.language, "btn.next"), "next")]])]


async def override_rating(cmd: c.OverrideRating, deps: Deps, user: User) -> list[Reply]:
    store, lang = deps.store, user.language
    attempt = await store.get_attempt(cmd.attempt_id)
    if attempt is None or attempt.user_id != user.id or attempt.card_id is None or attempt.is_follow_up:
        return [Reply(t(lang, "not_found"))]
    if cmd.rating not in (1, 2, 3, 4) or attempt.card_before is None:
        return [Reply(t(lang, "not_found"))]
    latest = await store.latest_attempt_for_card(attempt.card_id)
    card = await store.get_card(attempt.card_id)
    if card is None or latest is None or latest.id != attempt.id:
        return [Reply(t(lang, "rating_stale"))]
    rating = Rating(cmd.rating)
    when = attempt.graded_at or deps.clock.now()
    before = card.model_copy(update={"fsrs": attempt.card_before})
    new_card = _reviewed(before, rating, when, deps, user)
    await store.finish_attempt(attempt.model_copy(update={"rating": int(rating), "graded_at": when}), new_card)
    due = fmt_local(new_card.due, user.timezone)
    return [
        Reply(
            t(lang, "rating_set", rating=t(lang, f"rating.{int(rating)}"), due=due),
            [[Button(t(lang, "btn.next"), "next")]],
        )
    ]


async def start_follow_up(cmd: c.StartFollowUp, deps: Deps, user: User) -> list[Reply]:
    attempt = await deps.store.get_attempt(cmd.attempt_id)
    lang = user.language
    if attempt is None or attempt.user_id != user.id or attempt.grade is None or not attempt.grade.follow_up:
        return [Reply(t(lang, "follow_up_none"))]
    if attempt.card_id is None:  # not made today (every attempt has a card); its follow-up could not be answered
        return [Reply(t(lang, "follow_up_none"))]
    text = attempt.grade.follow_up
    await deps.store.set_session(user.id, FollowingUp(card_id=attempt.card_id, text=text, parent=attempt.id))
    return [Reply(t(lang, "follow_up_prompt", text=text), kind="question", ask_text=True)]
