"""The grading chain: the one grader the features see (bot/kernel/ports.GradingChain), built by the composition
root. Which grader grades an answer: the LLM when configured and within the budget (bot/kernel/llm_budget), the
offline estimate when the LLM fails (the attempt is then queued for an LLM regrade) or the budget is spent.

Every LLM grade is stored beside the offline estimate of the same answer. When the LLM gives far more
than the estimate on an answer that tried to instruct the grader, or in which the estimate found no
key point at all, the answer is graded a second time and the lower grade is kept, marked "checked
twice" (and flagged for a human look when the second grade is as far off). A grade that counts on a
study server's leaderboard (an answer to its question of the day) gets that second look whenever it is
far above the estimate, for any reason: an inflated grade there is seen by everyone."""

from __future__ import annotations

import logging
import time
from datetime import datetime

from bot.kernel import progress, verdicts
from bot.kernel.models import Grade, Lang, Level, Question, User
from bot.kernel.ports import BOARD_SUFFIX, Grader, LlmBudget, Outcome

log = logging.getLogger(__name__)
DISAGREEMENT = 40  # points the LLM may give above the offline estimate before a second look


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


async def _timed(grader: Grader, question: Question, answer: str, user: User) -> tuple[Grade, int]:
    progress.started("waiting")  # the grade is worked out elsewhere (an LLM, the worker pool) while this waits
    started = time.perf_counter()
    grade = await grader.grade(question, answer, user.language, user.level)
    return grade, round((time.perf_counter() - started) * 1000)


class GradingChain:
    """`primary` grades; `estimator`, when there is one (and it is another grader), is the offline estimate beside
    an LLM: then `primary` is the LLM, counted in the budget, and the estimate stands in when it cannot grade."""

    def __init__(self, primary: Grader, estimator: Grader | None = None) -> None:
        self.primary = primary
        self.estimator = estimator

    @property
    def id(self) -> str:
        return self.primary.id

    @property
    def has_llm(self) -> bool:
        return self.estimator is not None and self.primary is not self.estimator

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        return await self.primary.grade(question, answer, lang, level)

    async def _llm_grade(
        self, question: Question, answer: str, user: User, now: datetime, budget: LlmBudget
    ) -> tuple[Grade, int]:
        """One LLM grading, counted in the budget whether it succeeds or not; the user's platform shows it at once."""
        progress.started("grading")
        try:
            grade, ms = await _timed(self.primary, question, answer, user)
        except Exception:
            await budget.spend(user.id, "grading", 0, now)
            raise
        await budget.spend(user.id, "grading", grade.tokens, now)
        return grade, ms

    async def grade_answer(
        self, question: Question, answer: str, user: User, now: datetime, budget: LlmBudget, source: str | None = None
    ) -> Outcome:
        """The grade of an answer (from `source`: it may count on a study server's leaderboard)."""
        estimator = self.estimator
        if estimator is None or not self.has_llm:
            try:
                grade, ms = await _timed(self.primary, question, answer, user)
            except Exception as exc:
                log.warning("grader %s failed: %s", getattr(self.primary, "id", "?"), type(exc).__name__)
                return Outcome(None, 0, True)
            return Outcome(grade, ms, False)
        refused = await budget.refusal(user, now)
        if refused:
            grade, ms = await _timed(estimator, question, answer, user)
            return Outcome(grade, ms, False, refused)
        try:
            grade, ms = await self._llm_grade(question, answer, user, now, budget)
        except Exception as exc:
            log.warning("grader %s failed: %s", getattr(self.primary, "id", "?"), type(exc).__name__)
            try:
                estimate, ms = await _timed(estimator, question, answer, user)
            except Exception:
                log.exception("offline estimate failed too")
                return Outcome(None, 0, True)
            return Outcome(estimate, ms, True, "llm_unavailable")
        return await self._cross_checked(question, answer, user, now, budget, grade, ms, counts_on_board(source))

    async def regraded(
        self,
        question: Question,
        answer: str,
        user: User,
        now: datetime,
        budget: LlmBudget,
        grade: Grade,
        source: str | None,
    ) -> Grade:
        """A regrade's grade as it is kept: an LLM grade on a leaderboard gets the same second look as at once."""
        if verdicts.is_estimate(grade) or not counts_on_board(source):
            return grade
        checked = await self._cross_checked(question, answer, user, now, budget, grade, board=True)
        return checked.grade or grade

    async def _cross_checked(
        self,
        question: Question,
        answer: str,
        user: User,
        now: datetime,
        budget: LlmBudget,
        grade: Grade,
        ms: int = 0,
        board: bool = False,
    ) -> Outcome:
        """An LLM grade beside the offline estimate, graded a second time when `suspicious` (the lower one kept)."""
        try:
            assert self.estimator is not None  # an LLM grade has its estimate beside it
            estimate, _ = await _timed(self.estimator, question, answer, user)
        except Exception:
            log.exception("offline estimate beside the LLM grade failed")
            return Outcome(grade, ms, False)
        grade = grade.model_copy(update={"offline_score": estimate.score})
        if not suspicious(grade, estimate, board):
            return Outcome(grade, ms, False)
        log.warning("LLM grade %d vs offline %d on %s: graded a second time", grade.score, estimate.score, question.id)
        second: Grade | None = None
        if await budget.refusal(user, now) is None:
            try:
                second, more = await self._llm_grade(question, answer, user, now, budget)
                ms += more
            except Exception as exc:
                log.warning("second LLM grading failed: %s", type(exc).__name__)
        kept = min((g for g in (grade, second) if g is not None), key=lambda g: g.score)
        flagged = second is None or suspicious(kept, estimate, board)
        kept = kept.model_copy(update={"offline_score": estimate.score, "checked_twice": True, "flagged": flagged})
        return Outcome(kept, ms, False, "checked_twice")

    async def second_look(
        self, question: Question, answer: str, user: User, now: datetime, budget: LlmBudget
    ) -> Grade | str:
        """The LLM grades an answer once more, at the user's request: the new grade, or the i18n key saying why not
        (no LLM, the budget spent, the LLM not answering). Counted in the budget like any grading."""
        if not self.has_llm:
            return "second.none"
        refused = await budget.refusal(user, now)
        if refused:
            return refused
        try:
            grade, _ = await self._llm_grade(question, answer, user, now, budget)
        except Exception as exc:
            log.warning("second look failed: %s", type(exc).__name__)
            return "second.failed"
        return grade
