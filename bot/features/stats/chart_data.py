"""What /stats shows: the progress figures its text, its chart and the weekly summary read, computed by
bot/features/stats/progress.py. The chart's renderer (bot/charts/progress_chart.py) imports only this module of the
feature: data, no rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from statistics import fmean

from bot.kernel.models import Text

Subtopic = tuple[str, str]
"""(topic, subtopic)."""


@dataclass(frozen=True)
class Suggestion:
    question_id: str
    prompt: Text


@dataclass(frozen=True)
class Mastery:
    """How well one subtopic is held: mean FSRS recall probability over the next week and mean score."""

    topic: str
    subtopic: str
    recall: float | None  # 0-1: srs.average_recall, mean over the subtopic's reviewed cards (None: none reviewed)
    mean_score: float | None  # over all graded answers in the subtopic
    cards: int
    answers: int
    suggestion: Suggestion | None = None

    @property
    def strength(self) -> float:
        """One number to rank subtopics by: the mean of recall and score (both 0-1)."""
        parts = [x for x in (self.recall, None if self.mean_score is None else self.mean_score / 100) if x is not None]
        return fmean(parts) if parts else 0.0


@dataclass(frozen=True)
class WeekMean:
    week_start: date  # the Monday of a local week
    mean: float
    answers: int


@dataclass(frozen=True)
class CompanyAsked:
    company: str  # as first typed; companies.company_name shows a known one in the user's language
    interviews: int
    questions: int
    subtopics: list[tuple[Subtopic, int]]  # most asked first


@dataclass(frozen=True)
class ScoreMove:
    """Scores on a subtopic before and since a real interview first asked it."""

    topic: str
    subtopic: str
    asked: int
    before: float | None
    since: float | None
    answers_since: int


@dataclass(frozen=True)
class InterviewInsights:
    interviews: int = 0
    questions: int = 0
    topics: list[tuple[str, int]] = field(default_factory=list)
    subtopics: list[tuple[Subtopic, int]] = field(default_factory=list)
    companies: list[CompanyAsked] = field(default_factory=list)  # all of them, most asked first
    moves: list[ScoreMove] = field(default_factory=list)


@dataclass(frozen=True)
class ProgressData:
    """What /stats and the weekly summary show. Lists run oldest first; `forecast[0]` is today."""

    today: date
    total_reviews: int
    streak: int
    best_streak: int
    week_reviews: int
    week_mean: float | None
    last_week_mean: float | None
    daily: list[tuple[date, int]]
    trend: list[WeekMean]
    mastery: list[Mastery]  # weakest first
    weakest: list[Mastery]
    topic_means: list[tuple[str, float, int]]  # (topic, mean score, answers)
    forecast: list[tuple[date, int]]
    due_today: int
    cards: int
    personal_cards: int
    insights: InterviewInsights

    @property
    def empty(self) -> bool:
        return self.total_reviews == 0 and self.insights.questions == 0 and self.insights.interviews == 0
