"""What the composition root built (the store, the bank, the grader, the clock, the limits ...), held in one
record; handlers never see it whole: each names what it uses and is given that (`provided`, bot/kernel/inject.py).
Handlers still taking `deps` are the debts listed in tests/test_inject.py."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.kernel.bank import Bank
from bot.kernel.limits import DataFacts as DataFacts  # re-exported: where most import it
from bot.kernel.limits import Limits as Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Dates, Matching, Questions
from bot.kernel.models import Question
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
from bot.kernel.store_ports import STORE_PORTS, Store


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

    def provided(self) -> dict[str, object]:
        """What a handler may name, by name: each store port (the store, as that port: `STORE_PORTS`), each field
        but the store, the budget of LLM calls, the lookups (`questions`, `dates`, `matching`), and `deps`, this
        whole record (a debt: tests/test_inject.py lists the handlers that still take it)."""
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "store"}
        return {
            **dict.fromkeys(STORE_PORTS, self.store),
            **fields,
            "budget": Budget(self.store, self.limits),
            "questions": Questions(self.bank, self.store),
            "dates": Dates(self.natural_dates),
            "matching": Matching(self.bank, self.cpu),
            "deps": self,
        }

    async def candidates(self, text: str, limit: int) -> list[tuple[Question, float]]:
        """The bank questions closest to a free-text question, best first (bot/kernel/bank.py), off the loop."""
        return await Matching(self.bank, self.cpu).candidates(text, limit)

    def parse_when(self, text: str, now: datetime, tz: str) -> datetime | None:
        """The one date reader: the core's own formats first, then `natural_dates` ("明天下午两点"); UTC or None."""
        return Dates(self.natural_dates).when(text, now, tz)

    def parse_clock(self, text: str, now: datetime) -> str | None:
        """A time of day as 'HH:MM', read as `parse_when` reads a date (bot/kernel/lookups.py Dates.clock)."""
        return Dates(self.natural_dates).clock(text, now)

    async def question(self, question_id: str) -> Question | None:
        return await Questions(self.bank, self.store).get(question_id)
