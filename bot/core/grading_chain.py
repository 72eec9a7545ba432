"""Which grader grades an answer: the LLM when configured and within the user's daily limit,
the offline estimate when the LLM fails (the attempt is then queued for an LLM regrade)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from bot.core.deps import Deps
from bot.core.models import Grade, KeyPoint, Question, Rubric, Text, TextList, User
from bot.core.timeutil import start_of_local_day

log = logging.getLogger(__name__)
LLM_PREFIX = "llm:"


@dataclass(frozen=True)
class Outcome:
    grade: Grade | None
    latency_ms: int
    regrade: bool
    notice: str | None = None  # an i18n key explaining an estimate


def _has_llm(deps: Deps) -> bool:
    return deps.estimator is not None and deps.grader is not deps.estimator


async def _timed(grader: object, q: Question, text: str, user: User) -> tuple[Grade, int]:
    started = time.perf_counter()
    grade: Grade = await grader.grade(q, text, user.language, user.level)  # type: ignore[attr-defined]
    return grade, round((time.perf_counter() - started) * 1000)


async def grade_answer(deps: Deps, q: Question, text: str, user: User, now: datetime) -> Outcome:
    if _has_llm(deps):
        since = start_of_local_day(now, user.timezone)
        used = await deps.store.count_gradings_since(user.id, LLM_PREFIX, since)
        if used >= deps.limits.llm_daily_limit:
            grade, ms = await _timed(deps.estimator, q, text, user)
            return Outcome(grade, ms, False, "llm_limit")
    try:
        grade, ms = await _timed(deps.grader, q, text, user)
        return Outcome(grade, ms, False)
    except Exception as exc:
        log.warning("grader %s failed: %s", getattr(deps.grader, "id", "?"), type(exc).__name__)
        if not _has_llm(deps):
            return Outcome(None, 0, True)
    try:
        grade, ms = await _timed(deps.estimator, q, text, user)
    except Exception:
        log.exception("offline estimate failed too")
        return Outcome(None, 0, True)
    return Outcome(grade, ms, True, "llm_unavailable")


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
