"""What several features look up through more than one dependency, each a small object a handler names: a question
by its id (`questions`), a date or a time of day in the user's words (`dates`), the bank questions closest to a
free-text one (`matching`). Built once by the kernel from what the composition root made (`Deps.provided`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.kernel.bank import Bank
from bot.kernel.models import Question
from bot.kernel.ports import CpuWork
from bot.kernel.timeutil import has_clock_time, parse_fixed_formats, parse_hhmm

NaturalDates = Callable[[str, datetime, str], datetime | None]
"""A natural-language date reader (text, now, IANA timezone) -> UTC, tried after the core's own formats."""


class PersonalQuestions(Protocol):
    async def get_personal_question(self, question_id: str) -> Question | None: ...


@dataclass(frozen=True)
class Questions:
    """A question by its id: the bank's, else the user's own (a personal question from a real interview)."""

    bank: Bank
    personal: PersonalQuestions

    async def get(self, question_id: str) -> Question | None:
        return self.bank.get(question_id) or await self.personal.get_personal_question(question_id)


@dataclass(frozen=True)
class Dates:
    """The one date reader: the core's own formats first, then the natural-language reader when there is one."""

    natural: NaturalDates | None = None

    def when(self, text: str, now: datetime, tz: str) -> datetime | None:
        """A date and time in `text` ("明天下午两点", "2025-03-01 14:00"), in UTC; None when there is none."""
        at = parse_fixed_formats(text, now, tz)
        if at is None and self.natural is not None:
            at = self.natural(text, now, tz)
        return at

    def clock(self, text: str, now: datetime) -> str | None:
        """A time of day as 'HH:MM' ("08:30", "8pm", "早上八点", "晚上9点半"), read by `when` like an
        interview's date (in UTC: a clock time has no zone, and UTC has no DST gap); None when there is none."""
        hhmm = parse_hhmm(text)
        if hhmm is not None or not has_clock_time(text):
            return hhmm
        at = self.when(text, now, "UTC")
        return at.strftime("%H:%M") if at is not None else None


@dataclass(frozen=True)
class Matching:
    """The bank questions closest to a free-text question, best first (bot/kernel/bank.py): in the worker pool
    when there is one, never on the event loop's time otherwise than here."""

    bank: Bank
    cpu: CpuWork | None = None

    async def candidates(self, text: str, limit: int) -> list[tuple[Question, float]]:
        if self.cpu is not None:
            return await self.cpu.candidates(text, limit)
        return self.bank.candidates(text, limit)
