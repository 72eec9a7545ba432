"""The regrade worker: attempts that got only the offline estimate (or no grade) while the LLM
was down are graded by the LLM once it answers again, and the user is sent the new grade.

Each attempt is claimed (regrade -> regrading, stamped) by an atomic update first, so two workers on one
database (two replicas) never grade the same attempt twice; a failure puts it back for a later round, and
a claim left by a worker that died (older than REGRADING_STALE_AFTER) is put back by the next round.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.features.drill.grading_chain import follow_up_question
from bot.features.mock import turn as mock_turn
from bot.kernel import llm_budget, render, srs
from bot.kernel.deps import Deps
from bot.kernel.i18n import t
from bot.kernel.models import Attempt, Card, Grade, Rating, User
from bot.kernel.ports import Delivery
from bot.kernel.replies import Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.session import Idle
from bot.kernel.timeutil import fmt_local

log = logging.getLogger(__name__)
REGRADING_STALE_AFTER = timedelta(minutes=10)  # well past one grading's deadline with its retries
Notify = Callable[[int, list[Reply]], Awaitable[Delivery]]


async def _question_for(deps: Deps, attempt: Attempt):  # type: ignore[no-untyped-def]
    q = await deps.question(attempt.question_id)
    if q is None or not attempt.is_follow_up:
        return q
    # A follow-up: grade it against the follow-up's own rubric from the parent's grade.
    asked = await mock_turn.asked_follow_up(deps, attempt)  # a mock's: the follow-up it asked, on its parent
    if asked is not None:
        parent_attempt = await deps.store.get_attempt(asked[1])
        return follow_up_question(q, parent_attempt.grade if parent_attempt else None, asked[0])
    parent = await _parent(deps, attempt)
    text = parent.grade.follow_up if parent and parent.grade and parent.grade.follow_up else q.prompt.en
    return follow_up_question(q, parent.grade if parent else None, text)


async def _parent(deps: Deps, follow_up: Attempt) -> Attempt | None:
    """The answer a follow-up was asked from: the card's last main answer before it (a newer answer to the
    card, given later, asked its own follow-up)."""
    if follow_up.card_id is None:
        return None
    earlier = [
        a
        for a in await deps.store.list_attempts(follow_up.user_id)
        if a.card_id == follow_up.card_id and not a.is_follow_up and a.id is not None and a.id < (follow_up.id or 0)
    ]
    return max(earlier, key=lambda a: a.id or 0, default=None)


async def _overtaken(deps: Deps, attempt: Attempt) -> bool:
    """A main answer the user has answered the card again after: its card keeps the newer answer's schedule."""
    if attempt.is_follow_up or attempt.card_id is None:
        return False
    latest = await deps.store.latest_attempt_for_card(attempt.card_id)
    return latest is not None and latest.id != attempt.id


async def _rescheduled(deps: Deps, attempt: Attempt, grade: Grade, user: User) -> Card | None:
    """Re-apply the review with the LLM's rating when the user did not override the estimate's."""
    if attempt.is_follow_up or attempt.card_id is None or attempt.card_before is None:
        return None
    latest = await deps.store.latest_attempt_for_card(attempt.card_id)
    card = await deps.store.get_card(attempt.card_id)
    if card is None or latest is None or latest.id != attempt.id:
        return None
    suggested = rating_from_score(attempt.grade.score) if attempt.grade else None
    if attempt.rating is not None and suggested is not None and attempt.rating != int(suggested):
        return None  # the user chose a rating themselves: keep it
    when = attempt.graded_at or attempt.created_at
    state, due = srs.review(
        attempt.card_before, rating_from_score(grade.score), when, user.desired_retention, deps.limits.fuzz
    )
    return card.model_copy(update={"fsrs": state, "due": due, "is_new": False})


async def regrade_pending(deps: Deps, notify: Notify | None = None, limit: int = 20) -> int:
    """Grade up to `limit` queued attempts with the LLM; returns how many were regraded."""
    store, done = deps.store, 0
    requeued = await store.requeue_stale_attempts("regrading", "regrade", deps.clock.now() - REGRADING_STALE_AFTER)
    if requeued:
        log.warning("%d regrades were left claimed by a worker that stopped: queued again", requeued)
    for attempt in await store.attempts_with_status("regrade", limit):
        if not await store.claim_attempt(attempt.id, "regrade", "regrading", deps.clock.now()):
            continue  # another worker has it
        user = await store.get_user(attempt.user_id)
        try:
            reply = await regrade_claimed(deps, attempt, user)
        except Exception as exc:
            log.info("regrade of attempt %d postponed: %s", attempt.id, type(exc).__name__)
            await store.claim_attempt(attempt.id, "regrading", "regrade")
            break  # the service is still down: try again next round
        if reply is None or user is None:
            continue
        done += 1
        mock = await mock_turn.mock_of(deps, attempt)
        if notify is not None and (mock is None or mock.state != "running"):  # a running mock stays quiet
            sent = await notify(user.id, [reply])
            if sent is Delivery.UNREACHABLE and not user.paused:  # blocked the bot: no pushes until they are back
                await store.save_user(user.model_copy(update={"paused": True}))
    return done


async def regrade_claimed(deps: Deps, attempt: Attempt, user: User | None) -> Reply | None:
    """Grade an attempt claimed as "regrading", store the grade (and the card's new schedule), and return the
    reply that tells the user; None when its user or question is gone (then it leaves the queue). A grader
    failure is raised, the attempt still claimed (the caller puts it back)."""
    store = deps.store
    q = await _question_for(deps, attempt)
    if user is None or q is None:
        await store.claim_attempt(attempt.id, "regrading", "graded")
        return None
    grade = await deps.grader.grade(q, attempt.answer, user.language, user.level)
    await llm_budget.spend(deps, user.id, "regrade", grade.tokens, deps.clock.now())
    card = await _rescheduled(deps, attempt, grade, user)
    rating = rating_from_score(grade.score)
    updated = attempt.model_copy(
        update={
            "status": "graded", "grade": grade, "grader": grade.grader, "prompt_version": grade.prompt_version,
            "tokens": attempt.tokens + grade.tokens, "rating": int(rating) if card or attempt.rating is None
            else attempt.rating, "graded_at": attempt.graded_at or deps.clock.now(),
        }
    )  # fmt: skip
    await store.finish_attempt(updated, card)
    lang = user.language
    due = fmt_local(card.due, user.timezone) if card else "-"
    head = t(lang, "regraded", prompt=q.prompt.get(lang)[:80])
    overtaken = await _overtaken(deps, attempt)
    shown = int(rating) if overtaken else updated.rating or int(rating)  # the rating this grade earns
    body = render.grade_text(grade, q, lang, Rating(shown), due)
    if overtaken:  # the card kept the schedule of the newer answer: say so, rather than a rating that clashes
        body += "\n" + t(lang, "regraded.overtaken")
    buttons = [] if attempt.is_follow_up else render.grade_buttons(attempt.id, lang, bool(grade.follow_up))
    return Reply(head + "\n" + body, buttons, kind="grade")


async def interrupted_grading(deps: Deps, user: User, card_id: int) -> list[Reply] | None:
    """The drill's Grading session, when the process grading it stopped (a restart, a replica that died): its
    attempt still "pending" past STUCK_AFTER. The attempt is claimed (one replica wins) and graded now, and
    the session freed; None while the grading may still be under way (or another took it over)."""
    store, now = deps.store, deps.clock.now()
    latest = await store.latest_attempt_for_card(card_id)
    if latest is None or latest.user_id != user.id or latest.status != "pending":
        return None
    if now - latest.created_at < mock_turn.STUCK_AFTER or not await store.claim_attempt(
        latest.id, "pending", "regrading", now
    ):
        return None
    log.warning("attempt %d was left pending by a stopped process: graded now", latest.id)
    await store.set_session(user.id, Idle(last_attempt=latest.id))
    try:
        reply = await regrade_claimed(deps, latest, user)
    except Exception:
        log.exception("attempt %d: the interrupted grading failed again; queued for a regrade", latest.id)
        await store.claim_attempt(latest.id, "regrading", "regrade")
        return [Reply(t(user.language, "grading_failed"), kind="error")]
    return [reply] if reply is not None else None
