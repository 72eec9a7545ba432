"""The regrade round: attempts that got only the offline estimate (or no grade) while the LLM was down are
graded by the LLM once it answers again, and the user is sent the new grade. The scheduler sends the round as a
kernel command (`c.RegradeRound`) through the service, which hands it to `regrade_round`.

Each attempt is claimed (regrade -> regrading, stamped) by an atomic update first, so two workers on one
database (two replicas) never grade the same attempt twice; a failure puts it back for a later round, and
a claim left by a worker that died (older than REGRADING_STALE_AFTER) is put back by the next round.

What it uses is `Regrading`, a dependency group (bot/kernel/inject.py): the round names it, and the drill's
Grading state left by a process that stopped (`interrupted_grading`) is given it by the routes' typed-text hook.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from bot.features.drill import checklist
from bot.features.mock import turn as mock_turn
from bot.features.mock.ports import MocksPort
from bot.kernel import commands as c
from bot.kernel import srs, verdicts
from bot.kernel.follow_ups import follow_up_question
from bot.kernel.i18n import t
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Questions
from bot.kernel.models import Attempt, Card, Question, Rating, User
from bot.kernel.ports import Clock, Delivery, GradingChain, Notify
from bot.kernel.replies import Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.session import Idle
from bot.kernel.store_ports import AttemptsPort, CardsPort, UsersPort
from bot.kernel.timeutil import fmt_local

log = logging.getLogger(__name__)
REGRADING_STALE_AFTER = timedelta(minutes=10)  # well past one grading's deadline with its retries


@group
@dataclass(frozen=True)
class Regrading:
    """What regrades an answer: the users (read again after the LLM call, paused when they blocked the bot) and
    their sessions, answers and cards, the mocks (a running one's regrade stays quiet, a follow-up's rubric), the
    questions by id, the grading chain and its budget, the clock and the limits."""

    users: UsersPort
    attempts: AttemptsPort
    cards: CardsPort
    mocks: MocksPort
    questions: Questions
    grader: GradingChain
    budget: Budget
    clock: Clock
    limits: Limits


async def _question_for(regrading: Regrading, attempt: Attempt) -> Question | None:
    q = await regrading.questions.get(attempt.question_id)
    if q is None or not attempt.is_follow_up:
        return q
    # A follow-up: grade it against the follow-up's own rubric from the parent's grade.
    asked = await mock_turn.asked_follow_up(regrading.mocks, attempt)  # a mock's: the follow-up asked, on its parent
    if asked is not None:
        parent_attempt = await regrading.attempts.get_attempt(asked[1])
        return follow_up_question(q, parent_attempt.grade if parent_attempt else None, asked[0])
    parent = await _parent(regrading.attempts, attempt)
    text = parent.grade.follow_up if parent and parent.grade and parent.grade.follow_up else q.prompt.en
    return follow_up_question(q, parent.grade if parent else None, text)


async def _parent(attempts: AttemptsPort, follow_up: Attempt) -> Attempt | None:
    """The answer a follow-up was asked from: the card's last main answer before it (a newer answer to the
    card, given later, asked its own follow-up)."""
    if follow_up.card_id is None:
        return None
    earlier = [
        a
        for a in await attempts.list_attempts(follow_up.user_id)
        if a.card_id == follow_up.card_id and not a.is_follow_up and a.id is not None and a.id < (follow_up.id or 0)
    ]
    return max(earlier, key=lambda a: a.id or 0, default=None)


async def _overtaken(attempts: AttemptsPort, attempt: Attempt) -> bool:
    """A main answer the user has answered the card again after: its card keeps the newer answer's schedule."""
    if attempt.is_follow_up or attempt.card_id is None:
        return False
    latest = await attempts.latest_attempt_for_card(attempt.card_id)
    return latest is not None and latest.id != attempt.id


async def _rescheduled(regrading: Regrading, attempt: Attempt, rating: Rating, user: User) -> Card | None:
    """Re-apply the review with the new grade's rating, unless the user rated the answer themselves."""
    if attempt.is_follow_up or attempt.card_id is None or attempt.card_before is None:
        return None
    latest = await regrading.attempts.latest_attempt_for_card(attempt.card_id)
    card = await regrading.cards.get_card(attempt.card_id)
    if card is None or latest is None or latest.id != attempt.id:
        return None
    if attempt.rating_by == "user":
        return None  # the user rated it themselves: their rating keeps scheduling the card
    legacy = attempt.rating_by is None and attempt.grade is not None and attempt.rating is not None
    if legacy and attempt.rating != int(rating_from_score(attempt.grade.score)):  # type: ignore[union-attr]
        return None  # written before rating_by: a rating unlike the grade's was the user's override
    when = attempt.graded_at or attempt.created_at
    state, due = srs.review(attempt.card_before, rating, when, user.desired_retention, regrading.limits.fuzz)
    return card.model_copy(update={"fsrs": state, "due": due, "is_new": False})


async def _still_there(regrading: Regrading, user: User, attempt: Attempt) -> User | None:
    """The user read again after a long wait (the LLM call), None when they or the answer are gone (/forget):
    a grade or a push made from what was read before the wait must then be dropped. Ids never repeat (the
    store's tables never hand one out again), and a user row created since, under any id, is another user."""
    current = await regrading.users.get_user(user.id)
    gone = current is None or current.created_at != user.created_at
    if gone or await regrading.attempts.get_attempt(attempt.id) is None:
        log.info("regrade of attempt %d dropped: its user is gone", attempt.id)
        return None
    return current


async def regrade_pending(regrading: Regrading, notify: Notify | None = None, limit: int = 20) -> int:
    """Grade up to `limit` queued attempts with the LLM; returns how many were regraded."""
    attempts, users, clock, done = regrading.attempts, regrading.users, regrading.clock, 0
    requeued = await attempts.requeue_stale_attempts("regrading", "regrade", clock.now() - REGRADING_STALE_AFTER)
    if requeued:
        log.warning("%d regrades were left claimed by a worker that stopped: queued again", requeued)
    for attempt in await attempts.attempts_with_status("regrade", limit):
        if not await attempts.claim_attempt(attempt.id, "regrade", "regrading", clock.now()):
            continue  # another worker has it
        user = await users.get_user(attempt.user_id)
        try:
            reply = await regrade_claimed(regrading, attempt, user)
        except Exception as exc:
            log.info("regrade of attempt %d postponed: %s", attempt.id, type(exc).__name__)
            await attempts.claim_attempt(attempt.id, "regrading", "regrade")
            break  # the service is still down: try again next round
        if reply is None or user is None:
            continue
        done += 1
        mock = await mock_turn.mock_of(regrading.mocks, attempt)
        if notify is None or (mock is not None and mock.state == "running"):  # a running mock stays quiet
            continue
        target = await _still_there(regrading, user, attempt)  # read again: the LLM call took seconds
        if target is None:
            continue
        sent = await notify(target.id, [reply])
        if sent is Delivery.UNREACHABLE and not target.paused:  # blocked the bot: no pushes until they are back
            await users.save_user(target.model_copy(update={"paused": True}))
    return done


async def regrade_round(job: c.RegradeRound, notify: Notify | None, regrading: Regrading) -> int:
    """The regrade round the scheduler sends (registered in bot/features/drill/commands.py)."""
    return await regrade_pending(regrading, notify, job.limit)


async def regrade_claimed(regrading: Regrading, attempt: Attempt, user: User | None) -> Reply | None:
    """Grade an attempt claimed as "regrading", store the grade (and the card's new schedule), and return the
    reply that tells the user; None when its user or question is gone (then it leaves the queue). A grader
    failure is raised, the attempt still claimed (the caller puts it back)."""
    attempts, grader, clock = regrading.attempts, regrading.grader, regrading.clock
    q = await _question_for(regrading, attempt)
    if user is None or q is None:
        await attempts.claim_attempt(attempt.id, "regrading", "graded")
        return None
    grade = await grader.grade(q, attempt.answer, user.language, user.level)
    await regrading.budget.spend(user.id, "regrade", grade.tokens, clock.now())
    if await _still_there(regrading, user, attempt) is None:  # /forget during the call: nothing of theirs is left
        return None
    estimate = verdicts.is_estimate(grade)  # no LLM configured: the offline grader graded a failed grading
    # on a leaderboard: the same second look as at once (bot/grading/chain.py)
    grade = await grader.regraded(q, attempt.answer, user, clock.now(), regrading.budget, grade, attempt.source)
    rating = verdicts.UNRATED if estimate else rating_from_score(grade.score)  # an estimate never rates
    card = await _rescheduled(regrading, attempt, rating, user)
    update: dict[str, object] = {
        "status": "graded", "grade": grade, "grader": grade.grader, "prompt_version": grade.prompt_version,
        "tokens": attempt.tokens + grade.tokens, "graded_at": attempt.graded_at or clock.now(),
    }  # fmt: skip
    if card is not None or attempt.rating is None:
        update.update(rating=int(rating), rating_by="unrated" if estimate else "grade")
    updated = attempt.model_copy(update=update)
    await attempts.finish_attempt(updated, card)
    lang = user.language
    keeps = attempt.card_id is not None and not attempt.is_follow_up  # a follow-up never moves its card
    current = card or (await regrading.cards.get_card(attempt.card_id) if keeps else None)  # type: ignore[arg-type]
    due = fmt_local(current.due, user.timezone) if current else "-"
    head = t(lang, "regraded", prompt=q.prompt.get(lang)[:80])
    replies = checklist.graded_replies(updated, q, lang, due)
    body = replies[0]
    text = head + "\n" + body.text
    if await _overtaken(attempts, attempt):  # the card kept the newer answer's schedule: say so, not a clashing rating
        text += "\n" + t(lang, "regraded.overtaken")
    elif attempt.rating_by == "user" and attempt.rating:
        text += "\n" + t(lang, "regraded.kept_yours", rating=t(lang, f"rating.{attempt.rating}"))
    elif attempt.rating_by == "unrated" and not estimate:
        text += "\n" + t(lang, "regraded.was_unrated")
    if estimate:  # the checklist and its rating prompt: the prompt's buttons come with the first message
        return Reply(text + "\n\n" + replies[1].text, replies[1].buttons, kind="grade",
                     default_action=replies[1].default_action)  # fmt: skip
    if attempt.is_follow_up:
        return Reply(text, [], kind="grade")
    return Reply(text, body.buttons, kind="grade", default_action=body.default_action)


async def interrupted_grading(regrading: Regrading, user: User, card_id: int) -> list[Reply] | None:
    """The drill's Grading session, when the process grading it stopped (a restart, a replica that died): its
    attempt still "pending" past `mock_turn.stuck_after`. The attempt is claimed (one replica wins) and graded now, and
    the session freed; None while the grading may still be under way (or another took it over)."""
    attempts, now = regrading.attempts, regrading.clock.now()
    latest = await attempts.latest_attempt_for_card(card_id)
    if latest is None or latest.user_id != user.id or latest.status != "pending":
        return None
    if now - latest.created_at < mock_turn.stuck_after(regrading.limits) or not await attempts.claim_attempt(
        latest.id, "pending", "regrading", now
    ):
        return None
    log.warning("attempt %d was left pending by a stopped process: graded now", latest.id)
    await regrading.users.set_session(user.id, Idle(last_attempt=latest.id))
    try:
        reply = await regrade_claimed(regrading, latest, user)
    except Exception:
        log.exception("attempt %d: the interrupted grading failed again; queued for a regrade", latest.id)
        await attempts.claim_attempt(latest.id, "regrading", "regrade")
        return [Reply(t(user.language, "grading_failed"), kind="error")]
    return [reply] if reply is not None else None
