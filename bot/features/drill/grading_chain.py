"""Which grader grades an answer: the LLM when configured and within the budget (bot/kernel/llm_budget),
the offline estimate when the LLM fails (the attempt is then queued for an LLM regrade).

Every LLM grade is stored beside the offline estimate of the same answer. When the LLM gives far more
than the estimate on an answer that tried to instruct the grader, or in which the estimate found no
key point at all, the answer is graded a second time and the lower grade is kept, marked "checked
twice" (and flagged for a human look when the second grade is as far off). A grade that counts on a
study server's leaderboard (an answer to its question of the day) gets that second look whenever it is
far above the estimate, for any reason: an inflated grade there is seen by everyone."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from bot.kernel import llm_budget, progress
from bot.kernel.deps import Deps
from bot.kernel.models import Grade, KeyPoint, Question, Rubric, Text, TextList, User

log = logging.getLogger(__name__)
DISAGREEMENT = 40  # points the LLM may give above the offline estimate before a second look


@dataclass(frozen=True)
class Outcome:
    grade: Grade | None
    latency_ms: int
    regrade: bool
    notice: str | None = None  # an i18n key explaining an estimate or a second check


def _has_llm(deps: Deps) -> bool:
    return deps.estimator is not None and deps.grader is not deps.estimator


async def _timed(grader: object, q: Question, text: str, user: User) -> tuple[Grade, int]:
    progress.started("waiting")  # the grade is worked out elsewhere (an LLM, the worker pool) while this waits
    started = time.perf_counter()
    grade: Grade = await grader.grade(q, text, user.language, user.level)  # type: ignore[attr-defined]
    return grade, round((time.perf_counter() - started) * 1000)


BOARD_SUFFIX = ":daily"  # the source of an answer to a study server's question of the day: its board counts it


def counts_on_board(source: str | None) -> bool:
    """Whether an answer from this source counts on a study server's leaderboard (study_server.board_source)."""
    return source is not None and source.endswith(BOARD_SUFFIX)


def far_above(llm: Grade, estimate: Grade) -> bool:
    return llm.score >= estimate.score + DISAGREEMENT


def suspicious(llm: Grade, estimate: Grade, board: bool = False) -> bool:
    """An LLM grade far above the offline estimate on an answer that gives reason to doubt it; on a leaderboard
    (`board`), far above is reason enough."""
    nothing_found = not any(k.verdict != "missed" for k in estimate.key_points)
    return far_above(llm, estimate) and (board or estimate.injection or llm.injection or nothing_found)


async def _llm_grade(deps: Deps, q: Question, text: str, user: User, now: datetime) -> tuple[Grade, int]:
    """One LLM grading, counted in the budget whether it succeeds or not; the user's platform shows it at once."""
    progress.started("grading")
    try:
        grade, ms = await _timed(deps.grader, q, text, user)
    except Exception:
        await llm_budget.spend(deps, user.id, "grading", 0, now)
        raise
    await llm_budget.spend(deps, user.id, "grading", grade.tokens, now)
    return grade, ms


async def grade_answer(deps: Deps, q: Question, text: str, user: User, now: datetime, board: bool = False) -> Outcome:
    """The grade of an answer (`board`: it counts on a study server's leaderboard)."""
    if not _has_llm(deps):
        try:
            grade, ms = await _timed(deps.grader, q, text, user)
        except Exception as exc:
            log.warning("grader %s failed: %s", getattr(deps.grader, "id", "?"), type(exc).__name__)
            return Outcome(None, 0, True)
        return Outcome(grade, ms, False)
    refused = await llm_budget.refusal(deps, user, now)
    if refused:
        grade, ms = await _timed(deps.estimator, q, text, user)
        return Outcome(grade, ms, False, refused)
    try:
        grade, ms = await _llm_grade(deps, q, text, user, now)
    except Exception as exc:
        log.warning("grader %s failed: %s", getattr(deps.grader, "id", "?"), type(exc).__name__)
        try:
            estimate, ms = await _timed(deps.estimator, q, text, user)
        except Exception:
            log.exception("offline estimate failed too")
            return Outcome(None, 0, True)
        return Outcome(estimate, ms, True, "llm_unavailable")
    return await cross_checked(deps, q, text, user, now, grade, ms, board)


async def cross_checked(
    deps: Deps, q: Question, text: str, user: User, now: datetime, grade: Grade, ms: int = 0, board: bool = False
) -> Outcome:
    """An LLM grade beside the offline estimate, graded a second time when `suspicious` (the lower one kept)."""
    try:
        estimate, _ = await _timed(deps.estimator, q, text, user)
    except Exception:
        log.exception("offline estimate beside the LLM grade failed")
        return Outcome(grade, ms, False)
    grade = grade.model_copy(update={"offline_score": estimate.score})
    if not suspicious(grade, estimate, board):
        return Outcome(grade, ms, False)
    log.warning("LLM grade %d vs offline %d on %s: graded a second time", grade.score, estimate.score, q.id)
    second: Grade | None = None
    if await llm_budget.refusal(deps, user, now) is None:
        try:
            second, more = await _llm_grade(deps, q, text, user, now)
            ms += more
        except Exception as exc:
            log.warning("second LLM grading failed: %s", type(exc).__name__)
    kept = min((g for g in (grade, second) if g is not None), key=lambda g: g.score)
    flagged = second is None or suspicious(kept, estimate, board)
    kept = kept.model_copy(update={"offline_score": estimate.score, "checked_twice": True, "flagged": flagged})
    return Outcome(kept, ms, False, "checked_twice")


def follow_up_question(parent: Question, grade: Grade | None, text: str) -> Question:
    """The question a follow-up answer is graded against: the bank's own follow-up with its own rubric
    when the follow-up asked is one of those; else the follow-up with the short rubric that the grading
    call produced (or the parent's rubric when there is none)."""
    own = next((f for f in parent.follow_ups if text in (f.zh, f.en) and f.key_points), None)
    if own is not None and own.reference_answer is not None:
        return parent.model_copy(
            update={
                "id": parent.id,
                "prompt": Text(zh=own.zh, en=own.en),
                "rubric": Rubric(key_points=own.key_points),
                "reference_answer": own.reference_answer,
                "follow_ups": [],
            }
        )
    if grade is None or not grade.follow_up_points:
        return parent.model_copy(update={"prompt": Text.same(text)})
    points = [
        KeyPoint(id=f"fu{i + 1}", weight=1, text=Text.same(p), keywords=TextList())
        for i, p in enumerate(grade.follow_up_points[:6])
    ]
    return parent.model_copy(
        update={
            "id": parent.id,
            "prompt": Text.same(text),
            "rubric": Rubric(key_points=points),
            "reference_answer": Text.same(grade.follow_up_reference),
            "follow_ups": [],
        }
    )


async def second_look(deps: Deps, q: Question, text: str, user: User, now: datetime) -> Grade | str:
    """The LLM grades an answer once more, at the user's request: the new grade, or the i18n key saying why not
    (no LLM, the budget spent, the LLM not answering). Counted in the budget like any grading."""
    if not _has_llm(deps):
        return "second.none"
    refused = await llm_budget.refusal(deps, user, now)
    if refused:
        return refused
    try:
        grade, _ = await _llm_grade(deps, q, text, user, now)
    except Exception as exc:
        log.warning("second look failed: %s", type(exc).__name__)
        return "second.failed"
    return grade
