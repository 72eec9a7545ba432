"""The drill loop: next question, answer (stored, then graded, then scheduled), reveal, skip,
rating override and follow-up questions."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.features.drill import checklist
from bot.features.jd import focus
from bot.features.jd.ports import JobsPort
from bot.kernel import actions, render, srs, verdicts
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.fences import trimmed
from bot.kernel.follow_ups import follow_up_question
from bot.kernel.i18n import t, tn
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Questions
from bot.kernel.models import MAX_NEW_PER_DAY, TOPICS, Attempt, Card, Question, Rating, User
from bot.kernel.non_answer import is_non_answer
from bot.kernel.ports import Clock, GradingChain
from bot.kernel.replies import Button, Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.session import Answering, FollowingUp, Grading, Idle, Session, open_card_id
from bot.kernel.store_ports import AttemptsPort, CardsPort, InterviewsPort, UsersPort
from bot.kernel.timeutil import fmt_local, start_of_local_day

log = logging.getLogger(__name__)
FAR_FUTURE = datetime(9999, 1, 1, tzinfo=UTC)


@group
@dataclass(frozen=True)
class Deck:
    """What picks the next question: the user's cards, the bank (its questions and the new ones), the questions by
    id, the active job description (a /jd focus) and the review items (how a real interview asked a question)."""

    cards: CardsPort
    questions: Questions
    bank: Bank
    jds: JobsPort
    interviews: InterviewsPort


@group
@dataclass(frozen=True)
class Answers:
    """What grading an answer to the open deck question uses (`submit_answer`: typed, spoken, on a study server, in
    a /review, or Discord's /answer), and giving it up for the reference answer (`reveal`)."""

    users: UsersPort
    cards: CardsPort
    attempts: AttemptsPort
    questions: Questions
    grader: GradingChain
    budget: Budget
    clock: Clock
    limits: Limits


def show_question(q: Question, card: Card, user: User, tag: str, asked: str | None = None) -> list[Reply]:
    """The question as asked: `asked` is the user's own wording of a bank question they logged with /review
    (shown, with the bank question whose rubric grades it named beside it)."""
    lang = user.language
    hint = "answer_hint.code" if q.type == "code" else "answer_hint"  # how to send code, on every platform
    text = render.question_text(q, lang, tag, asked) + "\n\n" + t(lang, hint)
    buttons = [
        [
            Button(t(lang, "btn.skip"), actions.Skip().encode()),
            Button(t(lang, "btn.reference"), actions.Reference().encode()),
        ]
    ]
    return [Reply(text, buttons, kind="question", ask_text=True)]


async def pick_next(deck: Deck, user: User, now: datetime) -> tuple[Card, Question, str] | None:
    """Design section 5: due cards first (most overdue first), then new ones up to the daily limit, leaning
    to an active job description's subtopics (bot/features/jd/focus.py)."""
    cards = deck.cards
    for _ in range(3):
        card = await cards.next_due_card(user.id, now)
        if card is None:
            break
        q = await deck.questions.get(card.question_id)
        if q is not None:
            return card, q, "personal" if card.personal else ("new" if card.is_new else "due")
        # The question left the bank: suspend the card so it is not served again.
        await cards.save_card(card.model_copy(update={"suspended": True}))
    introduced = await cards.count_cards_created_since(user.id, start_of_local_day(now, user.timezone))
    if introduced >= user.new_per_day:
        return None
    have = await cards.card_question_ids(user.id)
    candidates = deck.bank.new_candidates(user.topics, user.level, have)
    if not candidates:
        return None
    lean = focus.subtopics(await deck.jds.active_jd(user.id, now))  # a /jd focus weights the new ones
    q = focus.weighted(candidates, lean, user.level, introduced)[0]
    card = await cards.create_card(user.id, q.id, srs.new_state(now), now, False, now)
    return card, q, "new"


async def asked_as(deck: Deck, user: User, q: Question, tag: str) -> str | None:
    """How a real interview asked this bank question, in the user's words (their latest /review of it), when
    the card is one they logged and the words are not the bank's; else None."""
    if tag != "personal":
        return None
    items = [i for i in await deck.interviews.list_review_items(user.id) if i.question_id == q.id and i.matched_bank]
    words = " ".join(items[-1].question_text.split()) if items else ""
    return words if words and words not in (q.prompt.en, q.prompt.zh) else None


async def _card_with_question(cards: CardsPort, questions: Questions, card_id: int) -> tuple[Card, Question] | None:
    card = await cards.get_card(card_id)
    q = await questions.get(card.question_id) if card else None
    return (card, q) if card is not None and q is not None else None


async def ask_again(cards: CardsPort, questions: Questions, session: Session) -> tuple[Card, Question, str] | None:
    """The deck question asked earlier and not answered yet (to ask again), or None: none is open, or its
    card or question is gone. A follow-up is not counted: the next question moves on from it."""
    if not isinstance(session, Answering):
        return None
    found = await _card_with_question(cards, questions, session.card_id)
    if found is None:
        return None
    card, q = found
    return card, q, "personal" if card.personal else "due"


async def next_question(cmd: c.NextQuestion, user: User, users: UsersPort, deck: Deck, clock: Clock) -> list[Reply]:
    now, cards = clock.now(), deck.cards
    reopened = await ask_again(cards, deck.questions, await users.get_session(user.id))
    if reopened is not None:
        card, q, tag = reopened
        return show_question(q, card, user, tag, await asked_as(deck, user, q, tag))
    picked = await pick_next(deck, user, now)
    if picked is None:
        return [await _nothing_due(cards, deck.bank, user)]
    card, q, tag = picked
    await users.set_session(user.id, Answering(card_id=card.id))
    return show_question(q, card, user, tag, await asked_as(deck, user, q, tag))


async def _nothing_due(cards: CardsPort, bank: Bank, user: User) -> Reply:
    """Why there is no question now, and the one thing that would give one: a higher daily limit (when
    there is room above it), new questions turned back on, or more topics once the bank is used up."""
    lang, limit = user.language, user.new_per_day
    nxt = await cards.next_due_card(user.id, FAR_FUTURE)
    when = fmt_local(nxt.due, user.timezone) if nxt else t(lang, "no_next")
    if not bank.new_candidates(user.topics, user.level, await cards.card_question_ids(user.id)):
        more = t(lang, "nothing_due.more_topics") if set(user.topics) != set(TOPICS) else ""
        return Reply(t(lang, "nothing_due.bank_done", next=when, more=more))
    if limit == 0:
        return Reply(t(lang, "nothing_due.new_off", next=when))
    if limit >= MAX_NEW_PER_DAY:
        return Reply(t(lang, "nothing_due.at_max", new=tn(lang, "count.new_question", limit), next=when))
    suggest = min(MAX_NEW_PER_DAY, limit + 5)
    new = tn(lang, "count.new_question", limit)
    return Reply(t(lang, "nothing_due", new=new, next=when, suggest=suggest))


def _check_text(text: str, limits: Limits, user: User, follow_up: bool = False) -> Reply | None:
    lang = user.language
    if not text.strip():
        return Reply(t(lang, "empty_answer"), kind="error")
    if len(text) > limits.max_answer_chars:
        return Reply(t(lang, "answer_too_long", length=len(text), limit=limits.max_answer_chars), kind="error")
    if is_non_answer(text):  # not graded, not stored, the card unchanged: another try, or an explicit Again
        give_up = (
            Button(t(lang, "btn.skip"), actions.Skip().encode())
            if follow_up
            else Button(t(lang, "btn.dont_know"), actions.Reference().encode())
        )
        return Reply(t(lang, "non_answer"), [[give_up]], kind="error", ask_text=True)
    return None


async def waiting_rating(attempts: AttemptsPort, questions: Questions, user: User, attempt_id: int) -> Reply | None:
    """When the user's last answer is an offline check still waiting for their rating: that said, with the rating
    buttons again (the suggestion first); else None."""
    attempt = await attempts.get_attempt(attempt_id)
    if attempt is None or attempt.user_id != user.id or attempt.is_follow_up or attempt.rating_by != "unrated":
        return None
    q = await questions.get(attempt.question_id)
    if q is None or attempt.grade is None:
        return None
    lang = user.language
    prompt = checklist.rate_reply(attempt, q, lang, bool(attempt.grade.follow_up))
    suggested = verdicts.suggested_rating(attempt.grade, checklist.weights(q), attempt.ticked)
    text = t(lang, "waits.rating", rating=t(lang, f"rating.{int(suggested)}"))
    return Reply(text, prompt.buttons, kind="grade", default_action=prompt.default_action)


async def submit_answer(
    cmd: c.SubmitAnswer, answers: Answers, user: User, session: Session | None = None
) -> list[Reply]:
    lang, attempts = user.language, answers.attempts
    session = session if session is not None else await answers.users.get_session(user.id)
    card_id = open_card_id(session)
    if card_id is None:
        return [Reply(t(lang, "no_open_question"))]
    problem = _check_text(cmd.text, answers.limits, user, isinstance(session, FollowingUp))
    if problem is not None:
        return [problem]
    found = await _card_with_question(answers.cards, answers.questions, card_id)
    if found is None:
        await answers.users.set_session(user.id, Idle())
        return [Reply(t(lang, "no_open_question"))]
    card, q = found
    now = answers.clock.now()
    follow_up = isinstance(session, FollowingUp)
    attempt = await attempts.open_attempt(
        Attempt(
            id=0,
            user_id=user.id,
            card_id=card.id,
            question_id=q.id,
            answer=trimmed(cmd.text),
            transcript=cmd.transcript,
            audio_ref=cmd.audio_ref,
            audio_seconds=cmd.audio_seconds,
            card_before=card.fsrs,
            is_follow_up=follow_up,
            follow_up_question=session.text if isinstance(session, FollowingUp) else None,
            source=cmd.source,
            created_at=now,
        ),
        session,
        Grading(card_id=card.id),  # claimed: a second process answering this session gets None
    )
    if attempt is None:
        return [Reply(t(lang, "already_grading"))]
    try:
        return await _grade_claimed(answers, user, attempt, card, q, session)
    except Exception:  # the answer is kept: graded again later, and the session is not left claimed
        await attempts.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, _idle(attempt))
        raise


def _idle(attempt: Attempt) -> Idle:
    return Idle(last_attempt=attempt.id)


async def _grade_claimed(
    answers: Answers, user: User, attempt: Attempt, card: Card, q: Question, session: Session
) -> list[Reply]:
    attempts, lang, now = answers.attempts, user.language, attempt.created_at
    follow_up = attempt.is_follow_up
    if isinstance(session, FollowingUp):
        parent = await attempts.get_attempt(session.parent)
        q = follow_up_question(q, parent.grade if parent else None, session.text)
    elif not q.rubric.key_points and not q.reference_answer.get(lang).strip():
        await attempts.finish_attempt(attempt.model_copy(update={"status": "self"}), None, _idle(attempt))
        return [Reply(t(lang, "self_rate"), [render.rating_buttons(attempt.id, lang)], kind="grade")]
    outcome = await answers.grader.grade_answer(q, attempt.answer, user, now, answers.budget, attempt.source)
    grade = outcome.grade
    if grade is None:
        await attempts.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None, _idle(attempt))
        return [
            Reply(t(lang, "grading_failed"), [[Button(t(lang, "btn.next"), actions.Next().encode())]], kind="error")
        ]
    estimate = verdicts.is_estimate(grade)  # an estimate never rates: the card waits for the user's rating
    rating = verdicts.UNRATED if estimate else rating_from_score(grade.score)
    new_card = None if follow_up else reviewed(card, rating, now, answers.limits, user)
    done = attempt.model_copy(
        update={
            "status": "regrade" if outcome.regrade else "graded",
            "grade": grade,
            "grader": grade.grader,
            "prompt_version": grade.prompt_version,
            "latency_ms": outcome.latency_ms,
            "tokens": grade.tokens,
            "rating": int(rating),
            "rating_by": "unrated" if estimate else "grade",
            "graded_at": now,
        }
    )
    await attempts.finish_attempt(done, new_card, _idle(attempt))
    due = fmt_local((new_card or card).due, user.timezone)
    return checklist.graded_replies(done, q, lang, due, outcome.notice)


def reviewed(card: Card, rating: Rating, when: datetime, limits: Limits, user: User) -> Card:
    state, due = srs.review(card.fsrs, rating, when, user.desired_retention, limits.fuzz)
    return card.model_copy(update={"fsrs": state, "due": due, "is_new": False})


async def reveal(cmd: c.RevealReference, user: User, answers: Answers) -> list[Reply]:
    """The reference answer: to the open question (recorded as given up: rated Again), else to the last answered."""
    users, cards, attempts, questions = answers.users, answers.cards, answers.attempts, answers.questions
    clock, limits, lang = answers.clock, answers.limits, user.language
    session = await users.get_session(user.id)
    if cmd.attempt_id is None and isinstance(session, Answering):
        reopened = await ask_again(cards, questions, session)
        if reopened is None:
            return [Reply(t(lang, "no_open_question"))]
        card, q, _ = reopened
        now = clock.now()
        attempt = await attempts.add_attempt(
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
        await attempts.finish_attempt(attempt, reviewed(card, Rating.AGAIN, now, limits, user))
        await users.set_session(user.id, _idle(attempt))
        return [
            _reference(q, user),
            Reply(t(lang, "revealed"), [[Button(t(lang, "btn.next"), actions.Next().encode())]]),
        ]
    attempt_id = cmd.attempt_id or (session.last_attempt if isinstance(session, Idle) else None)
    earlier = await attempts.get_attempt(attempt_id) if attempt_id else None
    if earlier is None or earlier.user_id != user.id:
        return [Reply(t(lang, "no_open_question"))]
    asked = await questions.get(earlier.question_id)
    return [_reference(asked, user)] if asked else [Reply(t(lang, "not_found"))]


def _reference(q: Question, user: User) -> Reply:
    text = q.reference_answer.get(user.language).strip()
    if not text:
        return Reply(t(user.language, "reference_none"))
    return Reply(t(user.language, "reference", text=text), kind="reference")


async def skip(cmd: c.SkipQuestion, user: User, users: UsersPort, cards: CardsPort, clock: Clock) -> list[Reply]:
    session = await users.get_session(user.id)
    if open_card_id(session) is None:
        return [Reply(t(user.language, "no_open_question"))]
    if isinstance(session, Answering):  # a skipped follow-up leaves its card as it is
        card = await cards.get_card(session.card_id)
        if card is not None:
            await cards.save_card(card.model_copy(update={"due": clock.now() + timedelta(days=1)}))
    await users.set_session(user.id, Idle())
    return [Reply(t(user.language, "skipped"), [[Button(t(user.language, "btn.next"), actions.Next().encode())]])]
