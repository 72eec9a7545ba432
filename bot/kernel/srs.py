"""FSRS scheduling through the `fsrs` package, with day-level steps for essay questions.

Essay-style answers make minute-level learning steps pointless, so learning and relearning
steps are empty: every review schedules in days (design section 5).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from statistics import fmean
from typing import Any

import fsrs

from bot.kernel.models import Rating


@lru_cache(maxsize=32)
def scheduler(desired_retention: float, fuzz: bool) -> fsrs.Scheduler:
    return fsrs.Scheduler(
        desired_retention=desired_retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=fuzz,
    )


def new_state(now: datetime) -> dict[str, Any]:
    """A fresh FSRS card (card_id given so fsrs does not derive one from the wall clock)."""
    return dict(fsrs.Card(card_id=0, due=now).to_dict())


def review(
    state: dict[str, Any], rating: Rating, now: datetime, retention: float, fuzz: bool
) -> tuple[dict[str, Any], datetime]:
    """Apply one review; returns the new FSRS state and its due time (UTC)."""
    card = fsrs.Card.from_dict(state)  # type: ignore[arg-type]
    new_card, _log = scheduler(retention, fuzz).review_card(card, fsrs.Rating(int(rating)), now)
    return dict(new_card.to_dict()), new_card.due


def retrievability(state: dict[str, Any], now: datetime, retention: float) -> float:
    """Probability of recall now (0 for a card never reviewed)."""
    if state.get("last_review") is None:
        return 0.0
    card = fsrs.Card.from_dict(state)  # type: ignore[arg-type]
    return float(scheduler(retention, False).get_card_retrievability(card, now))


def average_recall(state: dict[str, Any], now: datetime, retention: float, days: int = 7) -> float:
    """Mean probability of recall over the next `days` days with no review, sampled once a day (0 for a
    card never reviewed). Unlike recall now (1.0 right after any review, even Again) it tells a card
    answered badly from one answered well; recall at the due date would not either, as FSRS sets the
    due date where recall falls to the desired retention."""
    if state.get("last_review") is None:
        return 0.0
    card = fsrs.Card.from_dict(state)  # type: ignore[arg-type]
    sched = scheduler(retention, False)
    return fmean(float(sched.get_card_retrievability(card, now + timedelta(days=d))) for d in range(1, days + 1))
