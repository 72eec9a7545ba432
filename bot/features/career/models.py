"""The career tools' records: a job description the practice is tailored to (/jd), a version of the user's
own answer kept in the notebook (/notes), and an application on the board (/apps). Interviews and /review
items attach to an application by company (the alias table of bot/features/review/companies.py), so nothing is stored
twice and insights are computed from the logs."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, model_validator

Stage = Literal["applied", "screen", "technical", "hr", "offer", "rejected", "withdrawn"]
STAGES: tuple[Stage, ...] = ("applied", "screen", "technical", "hr", "offer", "rejected", "withdrawn")
CLOSED_STAGES: frozenset[Stage] = frozenset({"offer", "rejected", "withdrawn"})
NoteOrigin = Literal["graded", "hand", "star", "tighten"]
MAX_FOCUS = 6
"""A job description focuses the practice on at most this many subtopics (bot/features/jd/match.py split_focus)."""


class JobDescription(BaseModel):
    """A pasted job description: what was read from it, and until when it focuses the user's practice
    (`active_until` in UTC; at most one of a user's job descriptions is active)."""

    id: int = 0
    user_id: int
    title: str = ""
    text: str
    skills: list[str] = Field(default_factory=list)
    """The skills named in the text, as read (offline: the bank terms found; with an LLM: its list)."""
    subtopics: list[str] = Field(default_factory=list)
    """The focus: the bank subtopics it asks for most (3 to 6), most strongly matched first."""
    mentioned: list[str] = Field(default_factory=list)
    """The other bank subtopics it names, in the same order: listed, not focused on."""
    uncovered: list[str] = Field(default_factory=list)
    """Skills the bank has no subtopic for."""
    generated: list[str] = Field(default_factory=list)
    """Ids of the personal questions generated for this job description (with an LLM)."""
    extractor: str = "offline"
    active_until: datetime | None = None
    created_at: datetime

    @model_validator(mode="after")
    def _capped_focus(self) -> JobDescription:
        """One read before the focus was capped kept every subtopic as its focus: the first 6 stay it."""
        if len(self.subtopics) > MAX_FOCUS:
            self.mentioned = self.subtopics[MAX_FOCUS:] + [s for s in self.mentioned if s not in self.subtopics]
            self.subtopics = self.subtopics[:MAX_FOCUS]
        return self


class NoteEntry(BaseModel):
    """One version of the user's answer to one question (bank or personal), with what it scored."""

    id: int = 0
    user_id: int
    question_id: str
    version: int = 0
    """1, 2, ... per (user, question); given by the store."""
    text: str
    score: int | None = None
    grader: str | None = None
    hit: list[str] = Field(default_factory=list)
    partial: list[str] = Field(default_factory=list)
    missed: list[str] = Field(default_factory=list)
    """Key point ids covered, partly covered and missed by this version's grade."""
    company: str = ""
    best: bool = False
    origin: NoteOrigin = "graded"
    attempt_id: int | None = None
    created_at: datetime


class StageChange(BaseModel):
    stage: Stage
    round: int = 0
    at: datetime


class AppNote(BaseModel):
    """One dated note on an application (/apps N note ...)."""

    text: str
    at: datetime


class Application(BaseModel):
    """A job application on the board: its stage (technical rounds numbered 1..n) and the stages it went through."""

    id: int = 0
    user_id: int
    company: str
    role: str = ""
    stage: Stage = "applied"
    round: int = 0
    notes: str = ""
    history: list[StageChange] = Field(default_factory=list)
    number: int = 0
    """The user's own number for it on the board (1, 2, ...; kept when another is deleted); 0: not given."""
    note_log: list[AppNote] = Field(default_factory=list)
    """Dated notes, oldest first (`notes` is a free text kept as given)."""
    created_at: datetime
    updated_at: datetime
