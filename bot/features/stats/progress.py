"""Progress figures for /stats and the weekly summary, as pure functions of a user's history.

Everything here takes plain lists (attempts, cards, interview logs) and a clock reading, so the
figures are tested without a store and drawn by any ChartRenderer. Days are the user's local days. The figures'
types are bot/features/stats/chart_data.py's.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from statistics import fmean

from bot.features.review.companies import company_key
from bot.features.stats.chart_data import (
    CompanyAsked,
    InterviewInsights,
    Mastery,
    ProgressData,
    ScoreMove,
    Subtopic,
    Suggestion,
    WeekMean,
)
from bot.kernel import srs
from bot.kernel.models import Attempt, Card, InterviewLog, Question, ReviewItem, User
from bot.kernel.timeutil import local_date
from bot.kernel.verdicts import counted_score

DAILY_DAYS = 30
FORECAST_DAYS = 14
TREND_WEEKS = 26
WEAKEST = 3
TOP_ASKED = 5
RECALL_DAYS = 7
REVIEWED_STATUSES = ("graded", "self", "revealed", "regrade", "regrading")


def reviewed(attempts: Iterable[Attempt]) -> list[Attempt]:
    """Attempts that count as reviews: graded, self-rated or revealed; follow-ups excluded."""
    return [a for a in attempts if not a.is_follow_up and a.status in REVIEWED_STATUSES]


def streaks(days: set[date], today: date) -> tuple[int, int]:
    """(current streak, best streak) in days. The current streak may end today or yesterday."""
    best = run = 0
    prev: date | None = None
    for d in sorted(days):
        run = run + 1 if prev is not None and d - prev == timedelta(days=1) else 1
        best = max(best, run)
        prev = d
    current = 0
    d = today if today in days else today - timedelta(days=1)
    while d in days:
        current += 1
        d -= timedelta(days=1)
    return current, best


def _mean(values: Sequence[float]) -> float | None:
    return fmean(values) if values else None


def daily_counts(days: Counter[date], today: date, n: int = DAILY_DAYS) -> list[tuple[date, int]]:
    start = today - timedelta(days=n - 1)
    return [(start + timedelta(days=i), days.get(start + timedelta(days=i), 0)) for i in range(n)]


def weekly_means(scored: list[tuple[date, int]], today: date, weeks: int = TREND_WEEKS) -> list[WeekMean]:
    """Mean score per local week (Monday start) over the last `weeks` weeks; weeks without answers left out."""
    first = today - timedelta(days=today.weekday()) - timedelta(weeks=weeks - 1)
    by_week: dict[date, list[int]] = defaultdict(list)
    for d, score in scored:
        monday = d - timedelta(days=d.weekday())
        if monday >= first:
            by_week[monday].append(score)
    return [WeekMean(w, fmean(s), len(s)) for w, s in sorted(by_week.items())]


def due_forecast(cards: Iterable[Card], today: date, tz: str, n: int = FORECAST_DAYS) -> list[tuple[date, int]]:
    """Cards due on each of the next `n` local days; overdue and new cards count as due today."""
    counts = [0] * n
    for card in cards:
        if card.suspended:
            continue
        offset = max(0, (local_date(card.due, tz) - today).days)
        if offset < n:
            counts[offset] += 1
    return [(today + timedelta(days=i), counts[i]) for i in range(n)]


def mastery_by_subtopic(
    cards: Iterable[Card],
    scored: Iterable[tuple[Subtopic, int]],
    questions: Mapping[str, Question | None],
    now: datetime,
    retention: float = 0.9,
) -> list[Mastery]:
    """Per subtopic: mean recall over the next RECALL_DAYS days over reviewed cards, mean score, and the card
    to practise (the reviewed card least likely recalled, else any card). Weakest subtopic first."""
    recalls: dict[Subtopic, list[float]] = defaultdict(list)
    candidates: dict[Subtopic, list[tuple[int, float, str]]] = defaultdict(list)
    for card in cards:
        q = questions.get(card.question_id)
        if q is None or card.suspended:
            continue
        key = (q.topic, q.subtopic)
        reviewed_before = card.fsrs.get("last_review") is not None
        r = srs.average_recall(card.fsrs, now, retention, RECALL_DAYS) if reviewed_before else 0.0
        if reviewed_before:
            recalls[key].append(r)
        candidates[key].append((0 if reviewed_before else 1, r, q.id))
    scores: dict[Subtopic, list[int]] = defaultdict(list)
    for key, score in scored:
        scores[key].append(score)
    rows = []
    for key in set(recalls) | set(scores):
        suggestion = None
        if candidates[key]:
            qid = min(candidates[key])[2]
            q = questions.get(qid)
            suggestion = Suggestion(qid, q.prompt) if q else None
        rows.append(
            Mastery(
                topic=key[0],
                subtopic=key[1],
                recall=_mean(recalls[key]),
                mean_score=_mean(scores[key]),
                cards=len(recalls[key]),
                answers=len(scores[key]),
                suggestion=suggestion,
            )
        )
    return sorted(rows, key=lambda m: (m.strength, m.topic, m.subtopic))


def interview_insights(
    interviews: list[InterviewLog], items: list[ReviewItem], scored: list[tuple[datetime, Subtopic, int]]
) -> InterviewInsights:
    """What real interviews asked (by topic, subtopic and company) and how scores moved since."""
    if not interviews and not items:
        return InterviewInsights()
    names: dict[str, str] = {}
    company_items: dict[str, list[ReviewItem]] = defaultdict(list)
    company_interviews: Counter[str] = Counter()
    for log in interviews:
        key = company_key(log.company)
        names.setdefault(key, log.company.strip())
        company_interviews[key] += 1
    for item in items:
        key = company_key(item.company)
        names.setdefault(key, item.company.strip())
        company_items[key].append(item)
    companies = [
        CompanyAsked(
            company=names[key],
            interviews=company_interviews[key],
            questions=len(company_items[key]),
            subtopics=Counter((i.topic, i.subtopic) for i in company_items[key]).most_common(3),
        )
        for key in names
    ]
    companies.sort(key=lambda c: (-c.questions, -c.interviews, c.company.casefold()))
    asked = Counter((i.topic, i.subtopic) for i in items)
    first_asked: dict[Subtopic, datetime] = {}
    for item in sorted(items, key=lambda i: i.created_at):
        first_asked.setdefault((item.topic, item.subtopic), item.created_at)
    moves = []
    for sub, count in asked.most_common(TOP_ASKED):
        before = [s for at, k, s in scored if k == sub and at < first_asked[sub]]
        since = [s for at, k, s in scored if k == sub and at >= first_asked[sub]]
        moves.append(ScoreMove(sub[0], sub[1], count, _mean(before), _mean(since), len(since)))
    return InterviewInsights(
        interviews=len(interviews),
        questions=len(items),
        topics=Counter(i.topic for i in items).most_common(),
        subtopics=asked.most_common(TOP_ASKED),
        companies=companies,
        moves=moves,
    )


def compute_progress(
    user: User,
    now: datetime,
    attempts: list[Attempt],
    cards: list[Card],
    questions: Mapping[str, Question | None],
    interviews: list[InterviewLog] | None = None,
    items: list[ReviewItem] | None = None,
) -> ProgressData:
    """All the figures of /stats from a user's history, in the user's timezone."""
    tz = user.timezone
    today = local_date(now, tz)
    reviews = reviewed(attempts)
    local_days = [local_date(a.created_at, tz) for a in reviews]
    per_day = Counter(local_days)
    current, best = streaks(set(per_day), today)
    week_start, last_week_start = today - timedelta(days=6), today - timedelta(days=13)
    scored_days: list[tuple[date, int]] = []
    scored_keys: list[tuple[datetime, Subtopic, int]] = []
    by_topic: dict[str, list[int]] = defaultdict(list)
    for a, d in zip(reviews, local_days, strict=True):
        score = counted_score(a)  # an LLM grade's score, or the user's own rating of an offline estimate
        if score is None:
            continue
        q = questions.get(a.question_id)
        scored_days.append((d, score))
        by_topic[q.topic if q else "other"].append(score)
        if q is not None:
            scored_keys.append((a.created_at, (q.topic, q.subtopic), score))
    forecast = due_forecast(cards, today, tz)
    # The deck as it is practised: a suspended card (a /review question linked to a bank one instead, a question
    # gone from the bank) is not in it; "from your interviews" are the cards of questions logged with /review or
    # /debrief, not every personal card (a question written for a job description is one too).
    active = [c for c in cards if not c.suspended]
    logged = {i.question_id for i in items or []}
    mastery = mastery_by_subtopic(cards, ((k, s) for _, k, s in scored_keys), questions, now, user.desired_retention)
    return ProgressData(
        today=today,
        total_reviews=len(reviews),
        streak=current,
        best_streak=best,
        week_reviews=sum(1 for d in local_days if d >= week_start),
        week_mean=_mean([s for d, s in scored_days if d >= week_start]),
        last_week_mean=_mean([s for d, s in scored_days if last_week_start <= d < week_start]),
        daily=daily_counts(per_day, today),
        trend=weekly_means(scored_days, today),
        mastery=mastery,
        weakest=mastery[:WEAKEST],
        topic_means=[(t, fmean(s), len(s)) for t, s in sorted(by_topic.items())],
        forecast=forecast,
        due_today=forecast[0][1],
        cards=len(active),
        personal_cards=sum(1 for c in active if c.question_id in logged),
        insights=interview_insights(interviews or [], items or [], scored_keys),
    )
