"""The composition root's record of what it built (the store, the bank, the grader, the clock, the limits ...):
bot/features/deps.py `Deps`, which names the features' ports too. Handlers never see it whole: each names what it
uses and is given that (`provided`, bot/kernel/inject.py), as the routes' hooks and the jobs are; the handlers and
hooks still taking `deps` are the debts listed in tests/unit/test_inject.py."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from bot.features.apps.ports import ApplicationsPort, AppsChartRenderer
from bot.features.jd.ports import JobsPort
from bot.features.mock.ports import MockChartRenderer, MocksPort
from bot.features.notebook.ports import NotebookPort
from bot.features.stats.ports import ChartRenderer
from bot.kernel.bank import Bank
from bot.kernel.limits import DataFacts as DataFacts  # re-exported: where most import them
from bot.kernel.limits import Limits as Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Dates, Matching, Questions
from bot.kernel.models import Question
from bot.kernel.ports import (
    Clock,
    CpuWork,
    DebriefSplitter,
    GradingChain,
    JdReader,
    RubricWriter,
    StarWriter,
    Tightener,
    Transcriber,
)
from bot.kernel.store_ports import STORE_PORTS, Store


class Provided(Mapping[str, object]):
    """`Deps.provided()`: the names a handler may give, each read from the record when asked."""

    def __init__(self, deps: Deps) -> None:
        self._deps = deps
        fields = [name for name in deps.__dataclass_fields__ if name != "store"]
        self._names = [*STORE_PORTS, *FEATURE_STORE_PORTS, *fields, "budget", "questions", "dates", "matching"]

    def __getitem__(self, name: str) -> object:
        deps = self._deps
        if name in STORE_PORTS or name in FEATURE_STORE_PORTS:
            return deps.store
        if name in self._names:
            return getattr(deps, name)
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class FeatureStore(Store, MocksPort, JobsPort, NotebookPort, ApplicationsPort, Protocol):
    """Every store port, the kernel's and the features': what the storage adapter (bot/storage/store.py SqlStore) and
    the fake (tests/fakes.py FakeStore) implement."""


FEATURE_STORE_PORTS: dict[str, type] = {
    "mocks": MocksPort,
    "jds": JobsPort,
    "notes": NotebookPort,
    "applications": ApplicationsPort,
}
"""The features' store ports by the name a handler gives them (the kernel's: bot/kernel/store_ports.py STORE_PORTS)."""


@dataclass
class Deps:
    store: FeatureStore
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

    def provided(self) -> Mapping[str, object]:
        """What a handler may name, by name: each store port (the store, as that port: `STORE_PORTS`,
        `FEATURE_STORE_PORTS`), each field but the store, the budget of LLM calls, the lookups (`questions`, `dates`,
        `matching`), and `deps`, this whole record (a debt: tests/unit/test_inject.py lists the handlers and hooks that take
        it). Read when asked, so a test that swaps a field of a built service is seen."""
        return Provided(self)

    @property
    def budget(self) -> Budget:
        """The LLM calls a user may still make (bot/kernel/llm_budget.py)."""
        return Budget(self.store, self.limits)

    @property
    def questions(self) -> Questions:
        return Questions(self.bank, self.store)

    @property
    def dates(self) -> Dates:
        return Dates(self.natural_dates)

    @property
    def matching(self) -> Matching:
        return Matching(self.bank, self.cpu)

    @property
    def deps(self) -> Deps:
        """This record (a handler naming `deps` is a debt)."""
        return self

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
