"""What a user does with a grade: override its rating, tick a key point the estimate missed, disagree, ask for a
second look, answer the follow-up."""

from __future__ import annotations

from bot.features.drill import checklist
from bot.features.drill.drill import reviewed
from bot.kernel import actions, render, verdicts
from bot.kernel import commands as c
from bot.kernel.i18n import t
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Questions
from bot.kernel.models import Attempt, Card, Rating, User
from bot.kernel.ports import Clock, GradingChain
from bot.kernel.replies import Button, Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.session import FollowingUp
from bot.kernel.store_ports import AttemptsPort, CardsPort, UsersPort
from bot.kernel.timeutil import fmt_local


async def _rateable(
    attempts: AttemptsPort, cards: CardsPort, user: User, attempt_id: int
) -> tuple[Attempt, Card] | Reply:
    """The user's latest main answer to a card, with the card; else the reply that says why not."""
    lang = user.language
    attempt = await attempts.get_attempt(attempt_id)
    if attempt is None or attempt.user_id != user.id or attempt.card_id is None or attempt.is_follow_up:
        return Reply(t(lang, "not_found"))
    if attempt.card_before is None:
        return Reply(t(lang, "not_found"))
    latest = await attempts.latest_attempt_for_card(attempt.card_id)
    card = await cards.get_card(attempt.card_id)
    if card is None or latest is None or latest.id != attempt.id:
        return Reply(t(lang, "rating_stale"))
    return attempt, card


async def override_rating(
    cmd: c.OverrideRating, user: User, attempts: AttemptsPort, cards: CardsPort, clock: Clock, limits: Limits
) -> list[Reply]:
    """The user's own rating (the estimate's suggestion accepted, or their own choice over any grade): it
    schedules the card from where it was before this answer, and it is kept as the user's."""
    lang = user.language
    if cmd.rating not in (1, 2, 3, 4):
        return [Reply(t(lang, "not_found"))]
    found = await _rateable(attempts, cards, user, cmd.attempt_id)
    if isinstance(found, Reply):
        return [found]
    attempt, card = found
    assert attempt.card_before is not None
    rating = Rating(cmd.rating)
    when = attempt.graded_at or clock.now()
    before = card.model_copy(update={"fsrs": attempt.card_before})
    new_card = reviewed(before, rating, when, limits, user)
    rated = {"rating": int(rating), "rating_by": "user", "graded_at": when}
    await attempts.finish_attempt(attempt.model_copy(update=rated), new_card)
    due = fmt_local(new_card.due, user.timezone)
    return [
        Reply(
            t(lang, "rating_set", rating=t(lang, f"rating.{int(rating)}"), due=due),
            [[Button(t(lang, "btn.next"), actions.Next().encode())]],
        )
    ]


async def start_follow_up(cmd: c.StartFollowUp, user: User, attempts: AttemptsPort, users: UsersPort) -> list[Reply]:
    attempt = await attempts.get_attempt(cmd.attempt_id)
    lang = user.language
    if attempt is None or attempt.user_id != user.id or attempt.grade is None or not attempt.grade.follow_up:
        return [Reply(t(lang, "follow_up_none"))]
    if attempt.card_id is None:  # not made today (every attempt has a card); its follow-up could not be answered
        return [Reply(t(lang, "follow_up_none"))]
    text = attempt.grade.follow_up
    await users.set_session(user.id, FollowingUp(card_id=attempt.card_id, text=text, parent=attempt.id))
    return [Reply(t(lang, "follow_up_prompt", text=text), kind="question", ask_text=True)]


async def tick_point(
    cmd: c.TickPoint, user: User, attempts: AttemptsPort, cards: CardsPort, questions: Questions
) -> list[Reply]:
    """ "I did say that": the user ticks a key point the offline check did not find. The tick is stored with the
    answer, the suggestion follows it, and the user still rates."""
    lang = user.language
    found = await _rateable(attempts, cards, user, cmd.attempt_id)
    if isinstance(found, Reply):
        return [found]
    attempt, _ = found
    grade = attempt.grade
    q = await questions.get(attempt.question_id)
    if grade is None or q is None or not verdicts.is_estimate(grade) or not 0 <= cmd.index < len(grade.key_points):
        return [Reply(t(lang, "not_found"))]
    if attempt.rating_by == "user":
        return [Reply(t(lang, "check.tick_stale"))]
    point = grade.key_points[cmd.index].id
    ticked = attempt.ticked if point in attempt.ticked else [*attempt.ticked, point]
    attempt = attempt.model_copy(update={"ticked": ticked})
    await attempts.finish_attempt(attempt, None)
    suggestion = verdicts.suggested_rating(grade, checklist.weights(q), ticked)
    name = next((render.point_label(k, lang) for k in q.rubric.key_points if k.id == point), point)
    prompt = checklist.rate_reply(attempt, q, lang, bool(grade.follow_up))
    head = t(lang, "check.ticked_now", point=name, rating=t(lang, f"rating.{int(suggestion)}"))
    return [Reply(head, prompt.buttons, kind="grade", default_action=prompt.default_action)]


async def disagree(cmd: c.Disagree, user: User, attempts: AttemptsPort, cards: CardsPort) -> list[Reply]:
    """The user's own rating instead of the grader's, or a second look by the LLM."""
    lang = user.language
    found = await _rateable(attempts, cards, user, cmd.attempt_id)
    if isinstance(found, Reply):
        return [found]
    attempt, _ = found
    grade = attempt.grade
    if grade is None:
        return [Reply(t(lang, "not_found"))]
    graders = rating_from_score(grade.score)
    text = t(lang, "disagree.prompt", rating=t(lang, f"rating.{int(graders)}"))
    rows = [render.rating_buttons(attempt.id, lang)]
    if not verdicts.is_estimate(grade) and not grade.checked_twice:
        text += " " + t(lang, "disagree.second")
        rows.append([Button(t(lang, "btn.second_look"), actions.SecondLook(attempt=attempt.id).encode())])
    return [Reply(text, rows)]


async def second_look(
    cmd: c.SecondLook,
    user: User,
    attempts: AttemptsPort,
    cards: CardsPort,
    questions: Questions,
    grader: GradingChain,
    budget: Budget,
    clock: Clock,
    limits: Limits,
) -> list[Reply]:
    """One more LLM grading of the same answer, asked by the user: both grades are kept (the first one's score
    as `first_score`), the card follows the new one unless the user rated it themselves."""
    lang = user.language
    found = await _rateable(attempts, cards, user, cmd.attempt_id)
    if isinstance(found, Reply):
        return [found]
    attempt, card = found
    first = attempt.grade
    q = await questions.get(attempt.question_id)
    if first is None or q is None:
        return [Reply(t(lang, "not_found"))]
    if first.checked_twice:
        return [Reply(t(lang, "second.done_before"))]
    now = clock.now()
    outcome = await grader.second_look(q, attempt.answer, user, now, budget)
    if isinstance(outcome, str):  # why not: no LLM, over the user's or everyone's budget, or it failed
        key = {"llm_limit": "second.limit", "llm_budget": "second.budget"}.get(outcome, outcome)
        return [Reply(t(lang, key), kind="error")]
    grade = outcome.model_copy(
        update={"checked_twice": True, "first_score": first.score, "offline_score": first.offline_score}
    )
    rating = rating_from_score(grade.score)
    update: dict[str, object] = {"grade": grade, "grader": grade.grader, "tokens": attempt.tokens + grade.tokens}
    new_card = None
    if attempt.rating_by != "user":
        assert attempt.card_before is not None
        before = card.model_copy(update={"fsrs": attempt.card_before})
        new_card = reviewed(before, rating, attempt.graded_at or now, limits, user)
        update.update(rating=int(rating), rating_by="grade")
    done = attempt.model_copy(update=update)
    await attempts.finish_attempt(done, new_card)
    due = fmt_local((new_card or card).due, user.timezone)
    head = t(lang, "second.header", before=first.score, after=grade.score)
    reply = checklist.llm_reply(done, q, lang, due)
    text = head + "\n" + reply.text
    if attempt.rating_by == "user" and attempt.rating:
        text += "\n" + t(lang, "second.kept_yours", rating=t(lang, f"rating.{attempt.rating}"))
    return [Reply(text, reply.buttons, kind="grade", default_action=reply.default_action)]
