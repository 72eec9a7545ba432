"""The job-description focus (/jd, design section 12): while a job description is active, the user's new
questions lean to the subtopics it asks for. A weighting, not a filter: of every FOCUS_OF new questions,
FOCUS_TAKES come from the focus subtopics while there are any left, the others from the rest of the bank, so
the rest still appears. Due reviews are not touched: /drill, the daily push and /mock serve them as before,
and only the order of the new questions changes. The level, topics and new-per-day rules stay with the
callers (the candidates come already filtered by topic and ordered by level).

Deterministic: which turn is a focus turn depends only on a count the caller passes (for /drill and the daily
push, the new questions already introduced today), so the same deck and clock always give the same question.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.career.models import JobDescription
from bot.kernel.models import LEVELS, Level, Question

FOCUS_TAKES, FOCUS_OF = 3, 4
"""Of every 4 new questions, 3 from the focus subtopics (while it has any), 1 from the others."""
LEVEL_REACH = 1
"""A focus question is pulled forward only from the user's level or the one next to it; farther ones keep
their usual place."""


def subtopics(jd: JobDescription | None) -> tuple[str, ...]:
    """The focus subtopics of the active job description (strongest first), or none."""
    return tuple(jd.subtopics) if jd is not None else ()


def is_focus_turn(turn: int) -> bool:
    """Turns 0, 1, 2 take a focus question, turn 3 another one, and so on."""
    return turn % FOCUS_OF < FOCUS_TAKES


def weighted(candidates: Sequence[Question], focus: Sequence[str], level: Level, turn: int = 0) -> list[Question]:
    """The new-question candidates (in the bank's order: nearest level, then easier, first) reordered for the
    focus: counting turns from `turn`, a focus turn takes the next focus question and any other turn the next
    other question; when one side runs out, the other fills. Focus questions go nearest level first, then
    strongest subtopic first (the order of `focus`). Without a focus the candidates are returned as they are."""
    if not focus:
        return list(candidates)
    strength = {s: i for i, s in enumerate(focus)}
    rank = LEVELS.index(level)
    leaning: list[Question] = []
    others: list[Question] = []
    for q in candidates:
        near = abs(LEVELS.index(q.level) - rank) <= LEVEL_REACH
        (leaning if near and q.subtopic in strength else others).append(q)
    leaning.sort(key=lambda q: (abs(LEVELS.index(q.level) - rank), strength[q.subtopic]))  # stable
    ordered: list[Question] = []
    lean_at = other_at = 0
    while lean_at < len(leaning) or other_at < len(others):
        if lean_at < len(leaning) and (other_at >= len(others) or is_focus_turn(turn + len(ordered))):
            ordered.append(leaning[lean_at])
            lean_at += 1
        else:
            ordered.append(others[other_at])
            other_at += 1
    return ordered
