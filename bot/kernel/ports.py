"""Ports: the small Protocols that adapters implement and the core depends on (the store's: bot/kernel/store_ports.py;
a feature's own, which name its models: its `ports` module)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Protocol

from bot.kernel.models import Grade, Lang, Level, Question, User
from bot.kernel.replies import Reply


class Clock(Protocol):
    def now(self) -> datetime: ...


class Grader(Protocol):
    id: str

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade: ...


BOARD_SUFFIX = ":daily"
"""The end of the source of an answer to a study server's question of the day (study_server.board_source): its
leaderboard counts the answer, so the grading chain gives a grade far above the estimate a second look."""


@dataclass(frozen=True)
class Outcome:
    """What grading one answer came to (GradingChain.grade_answer)."""

    grade: Grade | None
    """None when no grader could grade it (the answer is kept and queued)."""
    latency_ms: int
    regrade: bool
    """Queued for an LLM regrade: the LLM failed, the estimate (or nothing) was given meanwhile."""
    notice: str | None = None
    """An i18n key explaining an estimate or a second check."""


class LlmBudget(Protocol):
    """The LLM calls a user may still make (bot/kernel/llm_budget.py), read and counted by the grading chain."""

    async def refusal(self, user: User, now: datetime) -> str | None:
        """None when the user may make one more LLM call now, else the i18n key saying why not."""
        ...

    async def spend(self, user_id: int | None, kind: str, tokens: int, now: datetime) -> None: ...


class GradingChain(Protocol):
    """The one grader the features see, built by the composition root (bot/grading/chain.py): the LLM when one is
    configured and the user's budget allows, the offline estimate when it fails or the budget is spent, and the
    cross-check of an LLM grade against the estimate. Every LLM call is counted in the `budget` given."""

    @property
    def id(self) -> str: ...

    @property
    def has_llm(self) -> bool:
        """An LLM grades (with the offline estimate beside it): a failed grading is queued for a regrade."""
        ...

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        """The first grader's grade (the LLM's when one is configured), uncounted: the Grader port."""
        ...

    async def grade_answer(
        self, question: Question, answer: str, user: User, now: datetime, budget: LlmBudget, source: str | None = None
    ) -> Outcome:
        """The grade of an answer (from `source`: an answer to a study server's question of the day counts on its
        leaderboard, see BOARD_SUFFIX)."""
        ...

    async def regraded(
        self,
        question: Question,
        answer: str,
        user: User,
        now: datetime,
        budget: LlmBudget,
        grade: Grade,
        source: str | None,
    ) -> Grade:
        """A regrade's LLM grade as it is kept: on a leaderboard, given the same second look as at once."""
        ...

    async def second_look(
        self, question: Question, answer: str, user: User, now: datetime, budget: LlmBudget
    ) -> Grade | str:
        """The LLM's grade once more (the user asked), or the i18n key saying why not."""
        ...


class Delivery(Enum):
    """What became of a push: adapters report it, the dispatcher decides what follows."""

    DELIVERED = "delivered"
    UNREACHABLE = "unreachable"  # blocked the bot, DMs closed, account gone: pause the user, do not retry
    FAILED = "failed"  # the platform or the network failed (5xx, timeout): retry later
    NO_ROUTE = "no_route"  # no platform of the user takes pushes (or not without an opt-in): skip


AboutToSend = Callable[[], Awaitable[None]]
"""Called by the adapter right before each request of a push leaves (past its rate limiter): the
dispatcher commits the push as "sending" then (at most once; bot/kernel/wire.py)."""


class Notifier(Protocol):
    """Pushes replies to a user outside a conversation (daily drills, reminders). Reports, never decides:
    no pausing or retrying inside; unexpected errors may still raise (the dispatcher treats them as FAILED)."""

    platform: str
    requires_opt_in: bool
    """True where pushes need the user's explicit opt-in (`User.dm_opt_in`), as Discord DMs do."""

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery: ...


Notify = Callable[[int, Sequence[Reply]], Awaitable[Delivery]]
"""Pushes replies to a user (by user id) outside a conversation: the notifier router (bot/delivery.py)."""


class ChannelPoster(Protocol):
    """Posts in a study server's channel (Discord): UNREACHABLE when the channel is gone or closed to the bot."""

    async def post_channel(
        self, channel_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery: ...


class StarWriter(Protocol):
    """Rewrites a case answer in the STAR structure from the candidate's own facts (an LLM)."""

    async def rewrite(self, question: str, answer: str, lang: Lang) -> tuple[dict[str, str] | None, int]:
        """({"situation", "task", "action", "result"}, tokens used), or (None, 0) when it cannot now."""
        ...


class Tightener(Protocol):
    """Tightens an answer to about two minutes of speech from the candidate's own facts (an LLM; /notes)."""

    async def tighten(self, question: str, answer: str, lang: Lang) -> tuple[str | None, int]:
        """(the tightened answer, tokens used), or (None, 0) when it cannot now."""
        ...


@dataclass(frozen=True)
class JdReading:
    """What an LLM read from a job description (/jd)."""

    skills: list[str]
    """The skills it asks for, in its own words, most important first."""
    subtopics: list[str]
    """Of the bank's subtopics offered, those the skills need."""
    questions: list[str]
    """Up to 5 interview questions specific to this job, in the language asked for."""
    tokens: int = 0


class JdReader(Protocol):
    """Reads a job description with an LLM (structured output); the offline path matches the bank instead."""

    async def read(self, text: str, lang: Lang, subtopics: Sequence[str]) -> JdReading | None:
        """The reading, or None when it cannot now (the LLM failed or answered out of schema)."""
        ...


@dataclass(frozen=True)
class DebriefSplit:
    """What an LLM found in interview notes or a transcript (/debrief)."""

    questions: list[tuple[str, str]]
    """(a question asked, the user's recalled answer to it in their own words or ""), in the order asked."""
    tokens: int = 0


class DebriefSplitter(Protocol):
    """Splits interview notes or a transcript into the questions asked with an LLM (structured output); the
    offline path splits by numbering, question marks and speaker turns (bot/features/debrief/split.py)."""

    async def split(self, text: str) -> DebriefSplit | None:
        """The split, or None when it cannot now (the LLM failed or answered out of schema)."""
        ...


class WriteFailed(Exception):
    """A store write failed and was rolled back: nothing of it was saved, and the user should send it again."""


class DocumentError(Exception):
    """A sent file has no text to read: `reason` is "type" (not .txt, .md or .pdf), "unreadable" or "empty"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CpuWork(Protocol):
    """CPU-heavy work the event loop must not wait on (the offline grade, /review's matching), run by the worker
    pool the composition root owns (bot/workers.py) under a deadline."""

    async def grade_offline(self, question: Question, answer: str, lang: Lang, level: Level) -> Grade: ...

    async def candidates(self, text: str, limit: int) -> list[tuple[Question, float]]: ...

    async def read_document(self, data: bytes, filename: str, max_chars: int) -> str:
        """A sent file's text (bot/documents.py) in a worker process under a deadline; DocumentError when it has
        none, or when reading it ran past the deadline (its worker was stopped)."""
        ...


class GraderUnavailable(Exception):
    """The grader could not produce a valid grade now (timeout, 429/5xx after retries, invalid output)."""


class QuestionMatcher(Protocol):
    """Finds the bank questions closest to a free-text question (a real interview's), best first, 0-1.

    `sure`: a score from which the best candidate is taken as the same question, when it is at least `margin`
    ahead of the runner-up; `unsure`: from which candidates are offered for the user to confirm."""

    sure: float
    unsure: float
    margin: float

    def candidates(self, text: str, limit: int = 3) -> list[tuple[Question, float]]: ...


class RubricWriter(Protocol):
    """Writes a rubric for a real interview question that matches nothing in the bank."""

    async def write(self, question_text: str, lang: Lang, level: Level) -> tuple[Question | None, int]:
        """(the question with its rubric, or None when the LLM cannot give one now; tokens used)"""
        ...


class TranscriptionError(Exception):
    """The audio could not be read or transcribed (corrupt, empty, not audio, service down)."""


class TranscriberUnavailable(TranscriptionError):
    """The transcriber itself failed (service down, timeout, model error): the audio may be fine."""


class AudioTooLong(TranscriptionError):
    """The audio decodes to more than the limit (found while decoding, when measuring had said otherwise)."""


class AudioTimingMismatch(TranscriptionError):
    """The container's timestamps disagree with the length of the codec's frames: the file misstates its length."""


@dataclass(frozen=True)
class Transcription:
    text: str
    duration: float | None = None
    """Seconds of audio, when the backend measured them."""


class Transcriber(Protocol):
    id: str

    async def measure(self, audio: bytes, filename: str) -> float:
        """Seconds of audio, read cheaply before any work; raises TranscriptionError when it is not audio."""
        ...

    async def transcribe(self, audio: bytes, filename: str, lang: Lang) -> Transcription: ...
