"""What every handler needs: the ports, the bank and the limits. Built once by bootstrap."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.kernel.bank import Bank
from bot.kernel.models import Lang, Question
from bot.kernel.ports import (
    AppsChartRenderer,
    ChartRenderer,
    Clock,
    CpuWork,
    DebriefSplitter,
    GradingChain,
    JdReader,
    MockChartRenderer,
    RubricWriter,
    StarWriter,
    Tightener,
    Transcriber,
)
from bot.kernel.store_ports import Store
from bot.kernel.timeutil import has_clock_time, parse_fixed_formats, parse_hhmm


@dataclass(frozen=True)
class Limits:
    max_answer_chars: int = 6000
    max_question_chars: int = 2000
    max_field_chars: int = 200
    fuzz: bool = True
    default_language: Lang = "en"
    default_timezone: str = "UTC"
    default_new_per_day: int = 5
    llm_daily_limit: int = 50
    llm_daily_tokens: int = 0  # over all users per UTC day; 0: no budget
    transcribe_deadline: float = 120.0
    max_audio_seconds: int = 300
    max_audio_bytes: int = 20_000_000
    transcribe_daily_seconds: int = 1800  # seconds of voice transcribed per account over the last 24 hours...
    transcribe_daily_total: int = 36_000  # ...and over all users per UTC day; 0: no limit
    rate_per_minute: int = 30  # messages a user may send a minute on a chat platform; 0: no limit
    rate_burst: int = 12  # ...and at once
    max_reviews_per_day: int = 50  # /review entries one user may log a local day...
    max_reviews: int = 2000  # ...and in all
    max_interviews_per_day: int = 20  # /interview logs one user may add a local day...
    max_interviews: int = 500  # ...and in all
    max_document_bytes: int = 2_000_000  # a file sent as a job description or interview notes...
    max_document_chars: int = 20_000  # ...and the text taken from it (or pasted)
    update_stale_seconds: float = 180.0  # a webhook update claimed this long ago by a replica now gone is taken over
    grading_stuck_seconds: float = 150.0  # a grading pending this long was left by a process that stopped
    upload_limits: Mapping[str, int] = field(default_factory=dict)
    """The largest file each platform takes from a bot, in bytes, by platform name (none: no limit)."""


@dataclass(frozen=True)
class DataFacts:
    """Where a user's data goes, for /privacy: read from the settings by the composition root."""

    llm: str = ""
    """The LLM that grades: its host and model ("api.deepseek.com, model deepseek-chat"); "" without one."""
    transcriber: str = ""
    """Where voice answers are transcribed: a host, "local" (on this server), or "" (voice is off)."""
    database: str = "SQLite"
    """"SQLite" (a file on this server) or "PostgreSQL"."""
    event_days: int = 7
    """How long the ids of handled platform events are kept (so a redelivery is not handled twice)."""


@dataclass
class Deps:
    store: Store
    bank: Bank
    grader: GradingChain
    """The one grader (bot/grading/chain.py): the LLM when one is configured, the offline estimate beside it."""
    clock: Clock
    limits: Limits = field(default_factory=Limits)
    data_facts: DataFacts = field(default_factory=DataFacts)
    transcriber: Transcriber | None = None
    rubric_writer: RubricWriter | None = None
    natural_dates: Callable[[str, datetime, str], datetime | None] | None = None
    """A natural-language date reader (text, now, IANA timezone) -> UTC, tried after the core's own formats."""
    charts: ChartRenderer | None = None
    """Draws the /stats chart; without one, /stats is text only."""
    mock_charts: MockChartRenderer | None = None
    star_writer: StarWriter | None = None
    """With an LLM: the mock interview's STAR rewrite of a case answer; without one, the offline STAR check only."""
    """Draws the mock interview's debrief as a PNG; without one, the debrief is text only."""
    apps_charts: AppsChartRenderer | None = None
    """Draws the application board (/apps) as a PNG; without one, the board is text only."""
    tightener: Tightener | None = None
    """With an LLM: "Tighten to 2 minutes" in the answer notebook (/notes); without one, no such button."""
    jd_reader: JdReader | None = None
    """With an LLM: reads a job description's skills and writes JD-specific questions (/jd)."""
    debrief_splitter: DebriefSplitter | None = None
    """With an LLM: splits interview notes into the questions asked (/debrief); without one, the offline split."""
    read_document: Callable[[bytes, str], str] | None = None
    """The text of a sent file (.txt, .md, .pdf: bot/documents.py); raises DocumentError (bot/kernel/ports.py)
    when it has none. Without one, files are refused with a word to paste the text."""
    cpu: CpuWork | None = None
    """CPU-heavy work in the worker pool (bot/workers.py): /review's matching. Without one, it runs here."""
    follow_up_chooser: Callable[[Question, Sequence[str], Collection[int]], int | None] | None = None
    """The bank follow-up (an index into `question.follow_ups`, none of the excluded ones) that presses best on
    the first of the given weak key points that one targets (bot/grading/feedback.py); used by the mock
    interview offline. Without one, the grader's own follow-up is asked."""

    async def candidates(self, text: str, limit: int) -> list[tuple[Question, float]]:
        """The bank questions closest to a free-text question, best first (bot/kernel/bank.py), off the loop."""
        if self.cpu is not None:
            return await self.cpu.candidates(text, limit)
        return self.bank.candidates(text, limit)

    def parse_when(self, text: str, now: datetime, tz: str) -> datetime | None:
        """The one date reader: the core's own formats first, then `natural_dates` ("明天下午两点"); UTC or None."""
        at = parse_fixed_formats(text, now, tz)
        if at is None and self.natural_dates is not None:
            at = self.natural_dates(text, now, tz)
        return at

    def parse_clock(self, text: str, now: datetime) -> str | None:
        """A time of day as 'HH:MM' ("08:30", "8pm", "早上八点", "晚上9点半"), read by `parse_when` like an
        interview's date (in UTC: a clock time has no zone, and UTC has no DST gap); None when there is none."""
        hhmm = parse_hhmm(text)
        if hhmm is not None or not has_clock_time(text):
            return hhmm
        at = self.parse_when(text, now, "UTC")
        return at.strftime("%H:%M") if at is not None else None

    async def question(self, question_id: str) -> Question | None:
        return self.bank.get(question_id) or await self.store.get_personal_question(question_id)
