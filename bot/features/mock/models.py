"""A mock interview (design section 12, MockSession): its plan, the answers and follow-ups given so far,
its state and, once over, the summary the next mock is compared with. Stored whole as one row, so a
restart continues where it stopped."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from bot.kernel.models import Level

MockState = Literal["running", "finished", "stopped"]
FocusKind = Literal["stability", "pipeline", "mixed", "weakest", "company"]
MIN_LENGTH, MAX_LENGTH, DEFAULT_LENGTH = 3, 6, 5
MAX_FOLLOW_UPS = 2


class MockFollowUp(BaseModel):
    """A follow-up asked on a question: its text, the attempt whose grade it presses on (`parent`), the bank
    follow-up it is (`bank_index`, None for a grader-written one), and its answer once given."""

    text: str
    parent: int
    bank_index: int | None = None
    asked_at: datetime
    attempt_id: int | None = None
    score: int | None = None
    answer_seconds: float | None = None
    skipped: bool = False


class MockItem(BaseModel):
    """One planned question: asked once `asked_at` is set, answered once `attempt_id` is."""

    question_id: str
    card_id: int | None = None
    budget_seconds: int
    asked_at: datetime | None = None
    attempt_id: int | None = None
    score: int | None = None
    answer_seconds: float | None = None
    voice: bool = False
    weak_points: list[str] = Field(default_factory=list)  # key point ids, weakest first
    follow_ups_wanted: int = 0
    follow_ups: list[MockFollowUp] = Field(default_factory=list)
    star: dict[str, str] | None = None  # a case answer rewritten in STAR by the LLM (situation, task, ...)
    skipped: bool = False  # passed with /skip: counts as 0 in the overall score

    def waiting_for(self) -> Literal["answer", "follow_up", "done"]:
        if self.attempt_id is None and not self.skipped:
            return "answer"
        if self.follow_ups and self.follow_ups[-1].attempt_id is None and not self.follow_ups[-1].skipped:
            return "follow_up"
        return "done"


class MockSummary(BaseModel):
    """What stays of a finished mock for /mock history and the next report's comparison."""

    score: int
    verdict: str
    answered: int
    dimensions: dict[str, int] = Field(default_factory=dict)


class MockSession(BaseModel):
    id: int
    user_id: int
    state: MockState = "running"
    focus: FocusKind
    company: str = ""  # the company when `focus` is "company"
    level: Level
    items: list[MockItem]
    created_at: datetime
    finished_at: datetime | None = None
    summary: MockSummary | None = None

    def current(self) -> MockItem | None:
        """The item being asked or answered: the first one not done."""
        return next((i for i in self.items if i.waiting_for() != "done" or i.asked_at is None), None)

    def answered(self) -> list[MockItem]:
        return [i for i in self.items if i.attempt_id is not None]
