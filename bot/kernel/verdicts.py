"""What a grade may claim, and who rates (issue #32, design section 4).

The offline estimate finds which key points an answer covers; it cannot tell a right claim from its opposite in
the same words. So it never rates: it suggests a rating from what it found, the user rates (one tap accepts the
suggestion), and until they do the card is scheduled as Again (`UNRATED`): the machine never passes a card on
an estimate. A detected mistake (a listed one, a contradicted key point, an attempt to steer the grader) makes
the suggestion Again.

An LLM grade rates the card from its score, and the user may disagree. Where graders are least reliable (the LLM
and the estimate far apart, or most key points only partial) the reply asks the user to confirm the rating.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from bot.kernel.models import Attempt, Grade, Rating
from bot.kernel.scoring import rating_from_score

UNRATED = Rating.AGAIN  # the card's schedule after an estimate until the user rates
BORDERLINE_GAP = 25  # points between the LLM's score and the estimate's that make a grade borderline
RATING_SCORE = {Rating.AGAIN: 20, Rating.HARD: 52, Rating.GOOD: 75, Rating.EASY: 92}
"""A rating as a score (the middle of its band), where /stats needs a number for a rating the user gave."""


def is_estimate(grade: Grade) -> bool:
    """The offline estimate, not a verdict (no LLM, or the LLM was unavailable)."""
    return grade.grader == "offline"


def checklist_share(grade: Grade, weights: Mapping[str, float], ticked: Collection[str] = ()) -> int:
    """0-100: the weighted share of key points found (hit 1, partial 1/2), each ticked one counted as found."""
    total = sum(weights.get(k.id, 1.0) for k in grade.key_points)
    if total <= 0:
        return 0
    found = 0.0
    for k in grade.key_points:
        credit = 1.0 if k.id in ticked or k.verdict == "hit" else 0.5 if k.verdict == "partial" else 0.0
        found += weights.get(k.id, 1.0) * credit
    return round(100 * found / total)


def suggested_rating(grade: Grade, weights: Mapping[str, float], ticked: Collection[str] = ()) -> Rating:
    """The estimate's suggestion: Again when it saw a mistake, else by coverage (the user's ticks count)."""
    if grade.mistakes or grade.injection:
        return Rating.AGAIN
    coverage = grade.dimensions.get("coverage", grade.score)
    if ticked:
        coverage = max(coverage, checklist_share(grade, weights, ticked))
    return rating_from_score(coverage)


def borderline(grade: Grade) -> bool:
    """An LLM grade the user is asked to confirm: far from the estimate, or mostly partial verdicts."""
    if is_estimate(grade):
        return False
    partial = sum(1 for k in grade.key_points if k.verdict == "partial")
    if grade.key_points and 2 * partial > len(grade.key_points):
        return True
    return grade.offline_score is not None and abs(grade.score - grade.offline_score) > BORDERLINE_GAP


def counted_score(attempt: Attempt) -> int | None:
    """The number /stats counts for an answer: an LLM grade's score; for an estimate, the rating the user gave
    (None until they rate: an estimate is not a verdict)."""
    grade = attempt.grade
    if grade is None:
        return None
    if not is_estimate(grade):
        return grade.score
    if attempt.rating_by == "user" and attempt.rating in (1, 2, 3, 4):
        return RATING_SCORE[Rating(attempt.rating)]
    return None
