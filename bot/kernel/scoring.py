"""How a grade's total is computed from its dimensions, and how a score becomes an FSRS rating."""

from __future__ import annotations

from collections.abc import Mapping

from bot.kernel.models import DIMENSIONS, QuestionType, Rating

# Default dimension weights per question type (prompts/ explains them to the LLM grader).
DEFAULT_WEIGHTS: dict[str, dict[str, float]] = {
    "open": {"coverage": 0.40, "structure": 0.15, "specificity": 0.20, "evidence": 0.05, "correctness": 0.20},
    "fault": {"coverage": 0.35, "structure": 0.20, "specificity": 0.20, "evidence": 0.05, "correctness": 0.20},
    "compare": {"coverage": 0.40, "structure": 0.15, "specificity": 0.15, "evidence": 0.05, "correctness": 0.25},
    "concept": {"coverage": 0.45, "structure": 0.10, "specificity": 0.15, "evidence": 0.0, "correctness": 0.30},
    "case": {"coverage": 0.30, "structure": 0.15, "specificity": 0.15, "evidence": 0.25, "correctness": 0.15},
    # code: what the implementation must do (coverage) and no classic bug (correctness); no story to tell
    "code": {"coverage": 0.40, "structure": 0.10, "specificity": 0.15, "evidence": 0.0, "correctness": 0.35},
}


def weights_for(qtype: QuestionType, override: Mapping[str, float] | None = None) -> dict[str, float]:
    w = dict(DEFAULT_WEIGHTS[qtype])
    if override:
        w.update({k: v for k, v in override.items() if k in DIMENSIONS})
    return w


def total_score(
    dimensions: Mapping[str, float], qtype: QuestionType, override: Mapping[str, float] | None = None
) -> int:
    """Weighted mean of the dimension scores (each 0-100), rounded to an int in 0-100."""
    w = weights_for(qtype, override)
    den = sum(w.values()) or 1.0
    val = sum(w[d] * max(0.0, min(100.0, float(dimensions.get(d, 0)))) for d in DIMENSIONS) / den
    return max(0, min(100, round(val)))


def rating_from_score(score: int) -> Rating:
    """Design section 5: < 40 Again, 40-64 Hard, 65-84 Good, >= 85 Easy."""
    if score < 40:
        return Rating.AGAIN
    if score < 65:
        return Rating.HARD
    if score < 85:
        return Rating.GOOD
    return Rating.EASY
