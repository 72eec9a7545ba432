"""Domain model: questions and rubrics (read-only bank), users, cards, attempts, grades, logs.

Everything here is plain pydantic so it validates on the way in from YAML, the database
and the LLM, and serialises the same way everywhere. Times are timezone-aware UTC.
"""

from __future__ import annotations

from datetime import datetime
from enum import IntEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
Level = Literal["campus", "engineer", "researcher"]
LEVELS: tuple[Level, ...] = ("campus", "engineer", "researcher")
LEVEL_WORDS: dict[str, Level] = {
    "campus": "campus", "campus hire": "campus", "校招": "campus", "校园招聘": "campus",
    "engineer": "engineer", "工程师": "engineer",
    "researcher": "researcher", "研究员": "researcher",
}  # fmt: skip
"""A level as a user types it (lower case): its name, the name /settings shows in either language, or a common word."""
QuestionType = Literal["open", "fault", "compare", "concept", "case", "code"]
QUESTION_TYPES: tuple[QuestionType, ...] = ("open", "fault", "compare", "concept", "case", "code")
TOPICS: tuple[str, ...] = ("stability", "pipeline")
DIMENSIONS: tuple[str, ...] = ("coverage", "structure", "specificity", "evidence", "correctness")
Verdict = Literal["hit", "partial", "missed"]
MAX_NEW_PER_DAY = 50  # the most new questions a day a user may ask for


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(Strict):
    """A text in both languages."""

    zh: str
    en: str

    def get(self, lang: Lang) -> str:
        return self.zh if lang == "zh" else self.en

    @classmethod
    def same(cls, text: str) -> Text:
        return cls(zh=text, en=text)


class TextList(Strict):
    """A list of short texts per language (keywords, specifics, mistakes)."""

    zh: list[str] = Field(default_factory=list)
    en: list[str] = Field(default_factory=list)

    def get(self, lang: Lang) -> list[str]:
        return self.zh if lang == "zh" else self.en

    def both(self) -> list[str]:
        return [*self.zh, *self.en]


class KeyPoint(Strict):
    id: str
    weight: float = Field(gt=0)
    text: Text
    keywords: TextList = Field(default_factory=TextList)


class FollowUp(Text):
    """A follow-up question (zh/en), with its own short rubric when the bank gives one: the points a good
    answer to *it* makes, and a short reference answer. Its answer is graded against these.

    `premise`: a follow-up that presupposes a fact of the reference answer's story ("Why 10 layers?") names
    that fact's terms here, in both languages; it is asked only when the answer itself states one of them
    (bot/kernel/premise.py), so a follow-up never puts words in the user's mouth. Empty: it stands alone."""

    key_points: list[KeyPoint] = Field(default_factory=list)
    reference_answer: Text | None = None
    premise: TextList = Field(default_factory=TextList)


class Rubric(Strict):
    key_points: list[KeyPoint] = Field(default_factory=list)
    specifics: TextList = Field(default_factory=TextList)
    mistakes: TextList = Field(default_factory=TextList)
    dimension_weights: dict[str, float] | None = None


class Verification(Strict):
    """What a review checked in a bank file against primary sources, and when (issue: the bank, verified)."""

    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    checked: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1)
    changed: str = ""


class CodeTask(Strict):
    """What a `code` question asks for: to write a short function (`write`) or to fix the one its prompt shows
    (`fix`); `entry` is the function or class the reference implementation defines, which the bank's tests call
    (tests/content/test_code_questions.py). The code itself is in the texts, as a fenced block (bot/kernel/fences.py):
    the reference answer's is the working implementation, a `fix` prompt's is the code to repair. It is never run
    by the bot."""

    task: Literal["write", "fix"]
    entry: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    language: Literal["python"] = "python"


class Question(Strict):
    """A bank question (from content/) or a personal one (from /review)."""

    id: str
    topic: str
    subtopic: str
    type: QuestionType
    level: Level
    difficulty: int = Field(ge=1, le=5)
    prompt: Text
    rubric: Rubric
    reference_answer: Text
    follow_ups: list[FollowUp] = Field(default_factory=list)

    @field_validator("follow_ups", mode="before")
    @classmethod
    def _plain_texts(cls, value: object) -> object:
        """A plain Text is a follow-up without a rubric of its own."""
        if isinstance(value, list):
            return [v.model_dump() if isinstance(v, Text) and not isinstance(v, FollowUp) else v for v in value]
        return value

    sources: list[str] = Field(default_factory=list)
    personal: bool = False
    generated_rubric: bool = False
    verified: Verification | None = None
    code: CodeTask | None = None  # a `code` question's task (its type is "code" exactly when this is set)


class KeyPointResult(Strict):
    id: str
    verdict: Verdict
    evidence: str = ""


class Grade(Strict):
    """The outcome of grading one answer. `score` is computed from the dimensions in code."""

    score: int = Field(ge=0, le=100)
    dimensions: dict[str, int]
    key_points: list[KeyPointResult] = Field(default_factory=list)
    mistakes: list[str] = Field(default_factory=list)
    feedback: str = ""
    follow_up: str | None = None
    grader: str = "offline"
    estimate: bool = True
    prompt_version: str | None = None
    tokens: int = 0
    follow_up_points: list[str] = Field(default_factory=list)
    follow_up_reference: str = ""
    injection: bool = False  # the answer tried to instruct the grader
    offline_score: int | None = None  # beside an LLM grade: the offline estimate of the same answer
    checked_twice: bool = False  # the LLM grade was far above the estimate, so it was graded again
    flagged: bool = False  # still far above after the second look: kept for a human review
    first_score: int | None = None  # after a second look the user asked for: the first grade's score

    def missed(self) -> list[str]:
        return [k.id for k in self.key_points if k.verdict == "missed"]


class Rating(IntEnum):
    """FSRS ratings, numerically identical to fsrs.Rating."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


class User(BaseModel):
    id: int
    language: Lang = "en"
    timezone: str = "UTC"
    daily_time: str = "09:00"
    level: Level = "engineer"
    topics: list[str] = Field(default_factory=lambda: list(TOPICS))
    new_per_day: int = Field(default=5, ge=0, le=MAX_NEW_PER_DAY)
    desired_retention: float = Field(default=0.9, gt=0.5, lt=1.0)
    paused: bool = False
    onboarded: bool = False
    created_at: datetime
    quiet_start: str | None = None
    quiet_end: str | None = None
    weekly_day: int | None = Field(default=6, ge=0, le=6)  # 0 = Monday; None = no weekly summary
    dm_opt_in: bool = True


class Card(BaseModel):
    """A user's card for one question; `fsrs` holds the fsrs.Card dict."""

    id: int
    user_id: int
    question_id: str
    fsrs: dict[str, object]
    due: datetime
    suspended: bool = False
    is_new: bool = True
    personal: bool = False
    created_at: datetime


AttemptStatus = Literal["pending", "graded", "regrade", "regrading", "self", "revealed"]
RatingBy = Literal["grade", "unrated", "user"]
"""Where an attempt's FSRS rating came from: an LLM grade's score ("grade"); nobody yet, after an offline estimate
that the user has not rated, so the card is scheduled as Again ("unrated", bot/kernel/verdicts.py); the user."""


class Attempt(BaseModel):
    id: int
    user_id: int
    card_id: int | None
    question_id: str
    answer: str
    transcript: str | None = None
    audio_ref: str | None = None
    audio_seconds: float | None = None
    status: AttemptStatus = "pending"
    grade: Grade | None = None
    grader: str | None = None
    prompt_version: str | None = None
    latency_ms: int | None = None
    tokens: int = 0
    rating: int | None = None
    rating_by: RatingBy | None = None
    ticked: list[str] = Field(default_factory=list)  # key points the user said they made ("I did say that")
    card_before: dict[str, object] | None = None
    is_follow_up: bool = False
    follow_up_question: str | None = None  # the follow-up question this answered, as it was asked
    source: str | None = None  # where it was answered, e.g. "discord:guild:123" (for server leaderboards)
    created_at: datetime
    graded_at: datetime | None = None

    @field_validator("ticked", mode="before")
    @classmethod
    def _no_ticks(cls, value: object) -> object:
        return [] if value is None else value  # a row written before the checklist existed


class InterviewLog(BaseModel):
    id: int
    user_id: int
    company: str
    role: str = ""
    at: datetime
    stage: str = ""
    notes: str = ""
    created_at: datetime


class ReviewItem(BaseModel):
    id: int
    user_id: int
    company: str
    question_text: str
    answer_text: str = ""
    question_id: str
    matched_bank: bool
    topic: str
    subtopic: str
    created_at: datetime


ReminderState = Literal["pending", "claimed", "sending", "sent", "failed", "paused", "unconfirmed", "cancelled"]


class Reminder(BaseModel):
    id: int
    user_id: int
    kind: str
    due_at: datetime
    payload: dict[str, object] = Field(default_factory=dict)
    state: ReminderState = "pending"
    attempts: int = 0
    claimed_at: datetime | None = None


class Guild(BaseModel):
    """A study server (a Discord guild): where, when and in which language its daily question is posted."""

    id: str
    channel_id: str
    daily_time: str = "09:00"
    timezone: str = "UTC"
    language: Lang = "en"
    enabled: bool = True
    created_at: datetime
