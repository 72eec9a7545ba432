"""Insights across the user's applications, as pure functions of their logs: which topics and subtopics real
interviews asked (overall, by company and by the application's stage at the time), how well the user holds
each (bot/features/stats/progress.py mastery), and the three bank questions to prepare for the next round somewhere.

Nothing here is stored: it is computed from the applications, their attached interviews and /review items
(bot/features/apps/attach.py), the cards and the graded answers, each time it is shown."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from bot.features.apps.attach import Attached, asked_at, stage_at
from bot.features.apps.board import last_change
from bot.features.career.models import CLOSED_STAGES, Application, Stage
from bot.features.review.companies import company_key
from bot.features.stats.chart_data import Mastery, Subtopic
from bot.features.stats.progress import RECALL_DAYS
from bot.kernel import srs
from bot.kernel.models import Card, Question

TOP = 5
PREPARE = 3

StageKey = tuple[Stage, int]
"""(stage, round): technical rounds apart, every other stage with round 0."""


@dataclass(frozen=True)
class Asked:
    """A subtopic real interviews asked, how often, and the user's mastery of it (None: never practised)."""

    topic: str
    subtopic: str
    count: int
    mastery: Mastery | None = None

    @property
    def strength(self) -> float:
        return self.mastery.strength if self.mastery is not None else 0.0


@dataclass(frozen=True)
class Prepare:
    """For the open application whose next round is soonest (or which moved last): what to practise."""

    app: Application
    upcoming: datetime | None
    """Its next logged interview, when one is ahead."""
    subtopics: list[Asked]
    questions: list[str]
    """Bank question ids, at most PREPARE: the subtopics asked most and held least first (times asked x
    (1 - strength)), in each a due card first, then the weakest (a question never practised before one held)."""
    from_company: bool = True
    """False when that company asked nothing logged yet and the subtopics are those asked everywhere."""


@dataclass(frozen=True)
class AppsInsights:
    interviews: int = 0
    questions: int = 0
    topics: list[tuple[str, int]] = field(default_factory=list)
    subtopics: list[Asked] = field(default_factory=list)
    by_company: list[tuple[str, list[Asked]]] = field(default_factory=list)
    """(company as first typed, its most asked subtopics), the company with most questions first."""
    by_stage: list[tuple[StageKey, list[Asked]]] = field(default_factory=list)
    """(stage at the time it was asked, its most asked subtopics), in stage order."""
    prepare: Prepare | None = None

    @property
    def empty(self) -> bool:
        return self.questions == 0


def _stage_order(key: StageKey) -> tuple[int, int]:
    order = ("applied", "screen", "technical", "hr", "offer", "rejected", "withdrawn")
    return order.index(key[0]), key[1]


def _asked(counts: Counter[Subtopic], mastery: Mapping[Subtopic, Mastery], n: int = TOP) -> list[Asked]:
    """Most asked first; among equals, the least held first."""
    rows = [Asked(t, s, c, mastery.get((t, s))) for (t, s), c in counts.items()]
    rows.sort(key=lambda a: (-a.count, a.strength, a.topic, a.subtopic))
    return rows[:n]


def _need(asked: Asked) -> tuple[float, int]:
    """How much a subtopic needs preparing: times asked x how weakly it is held (0-1), most first."""
    return -asked.count * (1 - asked.strength), -asked.count


def next_round(apps: Sequence[Application], attached: Mapping[int, Attached], now: datetime) -> Application | None:
    """The open application with the nearest interview ahead, else the open one that moved last."""
    open_apps = [a for a in apps if a.stage not in CLOSED_STAGES]
    ahead = [(min(i.at for i in attached[a.id].interviews if i.at > now), a.id, a) for a in open_apps
             if a.id in attached and any(i.at > now for i in attached[a.id].interviews)]  # fmt: skip
    if ahead:
        return min(ahead, key=lambda x: (x[0], x[1]))[2]
    return max(open_apps, key=lambda a: (last_change(a), a.id), default=None)


def rank_questions(
    subtopics: Sequence[Asked], bank: Sequence[Question], cards: Mapping[str, Card], now: datetime, n: int = PREPARE
) -> list[str]:
    """Up to `n` bank questions, one subtopic at a time in `subtopics` order (round after round): in each, its
    due cards first, then the weakest (a question never practised counts as recall 0, so before one held)."""
    queues: list[list[str]] = []
    for asked in subtopics:
        scored = []
        for q in bank:
            if q.personal or (q.topic, q.subtopic) != (asked.topic, asked.subtopic):
                continue
            card = cards.get(q.id)
            if card is not None and card.suspended:
                continue
            due = 0 if card is not None and card.due <= now else 1
            if card is None or card.fsrs.get("last_review") is None:
                scored.append((due, 0.0, q.id))  # never practised: the weakest of all
            else:
                scored.append((due, srs.average_recall(card.fsrs, now, 0.9, RECALL_DAYS), q.id))
        queues.append([qid for _, _, qid in sorted(scored)])
    picked: list[str] = []
    while len(picked) < n and any(queues):
        for queue in queues:
            if queue and len(picked) < n:
                picked.append(queue.pop(0))
    return picked


def compute_insights(
    apps: Sequence[Application],
    attached: Mapping[int, Attached],
    mastery: Sequence[Mastery],
    bank: Sequence[Question],
    cards: Sequence[Card],
    now: datetime,
) -> AppsInsights:
    """What the logged interviews of the user's applications asked, and what to prepare next."""
    held = {(m.topic, m.subtopic): m for m in mastery}
    overall: Counter[Subtopic] = Counter()
    topics: Counter[str] = Counter()
    per_company: dict[str, Counter[Subtopic]] = defaultdict(Counter)
    names: dict[str, str] = {}
    per_stage: dict[StageKey, Counter[Subtopic]] = defaultdict(Counter)
    interviews = 0
    for app in apps:
        found = attached.get(app.id)
        if found is None:
            continue
        interviews += len(found.interviews)
        key = company_key(app.company)
        names.setdefault(key, app.company.strip())
        for item in found.items:
            sub = (item.topic, item.subtopic)
            overall[sub] += 1
            topics[item.topic] += 1
            per_company[key][sub] += 1
            per_stage[stage_at(app, asked_at(item, found.interviews))][sub] += 1
    by_company = sorted(per_company.items(), key=lambda kv: (-sum(kv[1].values()), names[kv[0]].casefold()))
    insights = AppsInsights(
        interviews=interviews,
        questions=sum(overall.values()),
        topics=topics.most_common(),
        subtopics=_asked(overall, held),
        by_company=[(names[k], _asked(c, held, 3)) for k, c in by_company],
        by_stage=[(k, _asked(per_stage[k], held, 3)) for k in sorted(per_stage, key=_stage_order)],
    )
    target = next_round(apps, attached, now)
    if target is None or not overall:
        return insights
    there = per_company.get(company_key(target.company), Counter())
    subtopics = sorted(_asked(there or overall, held, len(there or overall)), key=_need)
    future = [i.at for i in attached.get(target.id, Attached()).interviews if i.at > now]
    questions = rank_questions(subtopics, bank, {c.question_id: c for c in cards}, now)
    prepare = Prepare(target, min(future, default=None), subtopics[:PREPARE], questions, from_company=bool(there))
    return replace(insights, prepare=prepare)
