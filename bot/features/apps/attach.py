"""Which application a logged interview or /review question belongs to, computed at read time (nothing is
stored twice): the same company through the alias table of bot/features/review/companies.py (so "字节" is ByteDance),
and, when the user applied to that company more than once, the application created most recently before
it (the earliest one when none was created before it). Pure functions of the user's records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.features.career.models import Application, Stage
from bot.features.review.companies import company_key
from bot.kernel.models import InterviewLog, ReviewItem

ASKED_WITHIN = timedelta(days=14)
"""A /review question logged this soon after an interview of its application was asked in that interview."""


@dataclass(frozen=True)
class Attached:
    """An application's interviews (by time) and asked questions (by the time they were logged)."""

    interviews: list[InterviewLog] = field(default_factory=list)
    items: list[ReviewItem] = field(default_factory=list)


def owner(apps: Sequence[Application], company: str, at: datetime) -> Application | None:
    """The application an entry at `company` at time `at` belongs to, or None (no application there)."""
    key = company_key(company)
    same = sorted((a for a in apps if company_key(a.company) == key), key=lambda a: (a.created_at, a.id))
    if not same:
        return None
    before = [a for a in same if a.created_at <= at]
    return before[-1] if before else same[0]


def attach_all(
    apps: Sequence[Application], interviews: Sequence[InterviewLog], items: Sequence[ReviewItem]
) -> dict[int, Attached]:
    """Each application's interviews (by their time) and review items (by when they were logged), by id;
    entries at a company with no application are left out."""
    found: dict[int, Attached] = {a.id: Attached() for a in apps}
    for log in sorted(interviews, key=lambda x: (x.at, x.id)):
        app = owner(apps, log.company, log.at)
        if app is not None:
            found[app.id].interviews.append(log)
    for item in sorted(items, key=lambda x: (x.created_at, x.id)):
        app = owner(apps, item.company, item.created_at)
        if app is not None:
            found[app.id].items.append(item)
    return found


def stage_at(app: Application, at: datetime) -> tuple[Stage, int]:
    """The application's (stage, round) at time `at`, from its history (its first stage before any change)."""
    changes = sorted(app.history, key=lambda c: c.at)
    if not changes:
        return app.stage, app.round
    current = changes[0]
    for change in changes:
        if change.at <= at:
            current = change
    return current.stage, current.round


def asked_at(item: ReviewItem, interviews: Sequence[InterviewLog]) -> datetime:
    """When the item's question was asked: the latest of the application's interviews on or before the
    moment it was logged (within ASKED_WITHIN), else the moment it was logged."""
    earlier = [i.at for i in interviews if item.created_at - ASKED_WITHIN <= i.at <= item.created_at]
    return max(earlier) if earlier else item.created_at
