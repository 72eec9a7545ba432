"""/debrief's last step: each question kept is logged as a /review item through /review's own path
(bot/features/review/interviews.file_review: the bank match, a personal question with a written rubric otherwise),
within /review's caps, and each recalled answer is graded by the grading chain.

A recalled answer is stored as an attempt (source "debrief") on the question's card, so it is kept and
counts in /stats, but it does not reschedule the card: a question from a real interview is due now, as
after /review. A question with no rubric (a personal question offline) is not graded: the user rates it
when it comes up. A failure stops the logging where it happened; what was logged before it is reported.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from bot.features.review.interviews import Filing, cap_reached, file_review
from bot.kernel import actions, verdicts
from bot.kernel.bank import Bank
from bot.kernel.i18n import listing, t, tn
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Matching
from bot.kernel.models import Attempt, Grade, Question, User
from bot.kernel.ports import Clock, DebriefSplitter, GradingChain, RubricWriter
from bot.kernel.replies import Button, Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.store_ports import AttemptsPort, CardsPort, InterviewsPort, UsersPort

log = logging.getLogger(__name__)
SOURCE = "debrief"
_SHOWN = 80


@group
@dataclass(frozen=True)
class Debriefing:
    """What /debrief uses: the user's state, their interviews (and /review's caps on them), cards and answers, the
    bank and the matching against it, the LLM's split of the notes, the rubric writer and the grader with the budget
    of LLM calls, the clock and the limits."""

    users: UsersPort
    interviews: InterviewsPort
    cards: CardsPort
    attempts: AttemptsPort
    bank: Bank
    matching: Matching
    debrief_splitter: DebriefSplitter | None
    rubric_writer: RubricWriter | None
    grader: GradingChain
    budget: Budget
    clock: Clock
    limits: Limits

    def filing(self) -> Filing:
        """What files a question as /review does (bot/features/review/interviews.py)."""
        return Filing(self.interviews, self.bank, self.matching, self.rubric_writer, self.budget, self.clock)


@dataclass
class Logged:
    """What became of the questions given to `log_items`, by their number in the list."""

    logged_numbers: list[int] = field(default_factory=list)
    matched: int = 0
    graded: list[tuple[int, Grade]] = field(default_factory=list)
    ungraded: list[int] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    """i18n keys explaining an estimate or a second check (bot/kernel/ports.Outcome.notice)."""
    cap: tuple[str, int] | None = None
    not_logged: list[int] = field(default_factory=list)
    """Past a cap: the questions not logged."""
    failed_at: int | None = None


async def log_items(debriefing: Debriefing, user: User, company: str, items: list[tuple[int, str, str, str]]) -> Logged:
    """Log (number, question, recalled answer, the bank question confirmed or "") in order, as many as the
    caps allow."""
    company = company.strip()[: debriefing.limits.max_field_chars] or "-"
    result = Logged()
    for index, (n, question, answer, bank_id) in enumerate(items):
        now = debriefing.clock.now()
        reached = await cap_reached(debriefing.interviews, debriefing.limits, user, "review", now)
        if reached is not None:
            result.cap, result.not_logged = reached, [item[0] for item in items[index:]]
            break
        try:
            chosen = debriefing.bank.get(bank_id) if bank_id else None
            filed = await file_review(debriefing.filing(), user, company, question, answer, chosen)
        except Exception:
            log.exception("debrief: logging question %d of user %s failed", n, user.id)
            result.failed_at = n
            break
        result.logged_numbers.append(n)
        result.matched += filed.matched
        if answer.strip():
            await _grade_recalled(debriefing, user, n, filed.question, answer.strip(), now, result)
    return result


async def _grade_recalled(
    debriefing: Debriefing, user: User, n: int, q: Question, answer: str, now: datetime, result: Logged
) -> None:
    """Grade a recalled answer (stored first, then graded, as every answer); a grading that fails leaves
    the attempt queued for a regrade and the question logged."""
    if not q.rubric.key_points and not q.reference_answer.get(user.language).strip():
        result.ungraded.append(n)
        return
    try:
        card = await debriefing.cards.card_for_question(user.id, q.id)
        attempt = await debriefing.attempts.add_attempt(
            Attempt(
                id=0,
                user_id=user.id,
                card_id=card.id if card else None,
                question_id=q.id,
                answer=answer,
                source=SOURCE,
                created_at=now,
            )
        )
        outcome = await debriefing.grader.grade_answer(q, answer, user, now, debriefing.budget)
        grade = outcome.grade
        if grade is None:
            await debriefing.attempts.finish_attempt(attempt.model_copy(update={"status": "regrade"}), None)
            result.ungraded.append(n)
            return
        done = attempt.model_copy(
            update={
                "status": "regrade" if outcome.regrade else "graded", "grade": grade, "grader": grade.grader,
                "prompt_version": grade.prompt_version, "latency_ms": outcome.latency_ms, "tokens": grade.tokens,
                "rating": None if verdicts.is_estimate(grade) else int(rating_from_score(grade.score)),
                "rating_by": None if verdicts.is_estimate(grade) else "grade", "graded_at": now,
            }
        )  # fmt: skip
        await debriefing.attempts.finish_attempt(done, None)  # no new card: the question stays due now
    except Exception:
        log.exception("debrief: grading the answer to question %d of user %s failed", n, user.id)
        result.ungraded.append(n)
        return
    result.graded.append((n, grade))
    if outcome.notice and outcome.notice not in result.notices:
        result.notices.append(outcome.notice)


def _short(value: str) -> str:
    value = " ".join(value.split())
    return value if len(value) <= _SHOWN else value[: _SHOWN - 1].rstrip() + "…"


def summary(user: User, company: str, result: Logged, questions: dict[int, str]) -> list[Reply]:
    """N logged (M matched to the bank), K answers graded with their scores, and what was not logged."""
    lang = user.language
    count = len(result.logged_numbers)
    if count:
        parts = [
            t(
                lang,
                "debrief.logged",
                questions=tn(lang, "count.question", count),
                company=company,
                matched=result.matched,
                personal=count - result.matched,
            )
        ]
    else:
        parts = [t(lang, "debrief.nothing_logged")]
    if result.graded:
        parts.append(t(lang, "debrief.graded", answers=tn(lang, "count.answer", len(result.graded))))
        for n, grade in result.graded:
            line = t(lang, "debrief.grade_line", n=n, score=grade.score, question=_short(questions[n]))
            parts.append(line + (" " + t(lang, "debrief.estimate") if grade.estimate else ""))
    if result.ungraded:
        parts.append(t(lang, "debrief.ungraded", numbers=listing(lang, map(str, result.ungraded))))
    parts.extend(t(lang, key) for key in result.notices)
    if result.cap is not None:
        which, limit = result.cap
        parts.append(t(lang, f"debrief.capped_{which}", logged=tn(lang, "count.interview_question", limit)))
        parts.extend(f"{n}. {_short(questions[n])}" for n in result.not_logged)
    buttons = [[Button("/drill", actions.Next().encode())]]
    if result.failed_at is not None:
        parts.append(t(lang, "debrief.failed", n=result.failed_at, logged=tn(lang, "count.question", count)))
        buttons = [
            [
                Button(t(lang, "debrief.btn.log"), actions.Career(tool="debrief", arg="log").encode()),
                Button(t(lang, "btn.cancel"), actions.Career(tool="debrief", arg="cancel").encode()),
            ]
        ]
    return [Reply("\n".join(parts), buttons, kind="error" if result.failed_at is not None else "info")]
