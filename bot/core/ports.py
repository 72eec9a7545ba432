"""Ports: the small Protocols that adapters implement and the core depends on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Protocol

from bot.core.models import (
    Attempt,
    Card,
    Grade,
    Guild,
    InterviewLog,
    Lang,
    Level,
    Question,
    Reminder,
    ReviewItem,
    User,
)
from bot.core.progress import ProgressData
from bot.core.replies import Reply
from bot.core.session import Session


class Clock(Protocol):
    def now(self) -> datetime: ...


class Grader(Protocol):
    id: str

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade: ...


class Delivery(Enum):
    """What became of a push: adapters report it, the dispatcher decides what follows."""

    DELIVERED = "delivered"
    UNREACHABLE = "unreachable"  # blocked the bot, DMs closed, account gone: pause the user, do not retry
    FAILED = "failed"  # the platform or the network failed (5xx, timeout): retry later
    NO_ROUTE = "no_route"  # no platform of the user takes pushes (or not without an opt-in): skip


AboutToSend = Callable[[], Awaitable[None]]
"""Called by the adapter right before each request of a push leaves (past its rate limiter): the
dispatcher commits the push as "sending" then (at most once; bot/core/wire.py)."""


class Notifier(Protocol):
    """Pushes replies to a user outside a conversation (daily drills, reminders). Reports, never decides:
    no pausing or retrying inside; unexpected errors may still raise (the dispatcher treats them as FAILED)."""

    platform: str
    requires_opt_in: bool
    """True where pushes need the user's explicit opt-in (`User.dm_opt_in`), as Discord DMs do."""

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery: ...


class ChannelPoster(Protocol):
    """Posts in a study server's channel (Discord): UNREACHABLE when the channel is gone or closed to the bot."""

    async def post_channel(
        self, channel_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery: ...


class ChartRenderer(Protocol):
    """Draws the /stats progress chart as a PNG (labels in `lang`). Synchronous: called in a worker thread."""

    def render(self, data: ProgressData, lang: Lang) -> bytes: ...


class WriteFailed(Exception):
    """A store write failed and was rolled back: nothing of it was saved, and the user should send it again."""


class GraderUnavailable(Exception):
    """The grader could not produce a valid grade now (timeout, 429/5xx after retries, invalid output)."""


class QuestionMatcher(Protocol):
    """Finds the bank questions closest to a free-text question (a real interview's), best first, 0-1.

    `sure`: a score from which the best candidate is taken as the same question; `unsure`: from which
    candidates are offered for the user to confirm."""

    sure: float
    unsure: float

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


class Store(Protocol):
    # users and identities
    async def get_or_create_user(self, platform: str, external_id: str, defaults: User) -> User: ...
    async def get_user(self, user_id: int) -> User | None: ...
    async def save_user(self, user: User) -> None: ...
    async def identities(self, user_id: int) -> list[tuple[str, str]]: ...
    async def delete_user(self, user_id: int) -> None: ...
    # conversation state
    async def get_session(self, user_id: int) -> Session:
        """The user's state; Idle when none is stored, or when the stored one cannot be read."""
        ...

    async def set_session(self, user_id: int, state: Session) -> None: ...
    # cards
    async def get_card(self, card_id: int) -> Card | None: ...
    async def card_for_question(self, user_id: int, question_id: str) -> Card | None: ...
    async def next_due_card(self, user_id: int, now: datetime) -> Card | None: ...
    async def card_question_ids(self, user_id: int) -> set[str]: ...
    async def count_cards_created_since(self, user_id: int, since: datetime) -> int: ...
    async def count_due(self, user_id: int, before: datetime) -> int: ...
    async def list_cards(self, user_id: int) -> list[Card]: ...
    async def create_card(
        self, user_id: int, question_id: str, fsrs: dict[str, Any], due: datetime, personal: bool, now: datetime
    ) -> Card: ...
    async def save_card(self, card: Card) -> None: ...
    # attempts
    async def add_attempt(self, attempt: Attempt) -> Attempt: ...
    async def open_attempt(self, attempt: Attempt, session_was: Session, session: Session) -> Attempt | None:
        """Store `attempt` and move the user's session from `session_was` to `session`, in one transaction;
        None (and nothing written) when the session is no longer `session_was`: another process took it."""
        ...

    async def get_attempt(self, attempt_id: int) -> Attempt | None: ...
    async def finish_attempt(self, attempt: Attempt, card: Card | None, session: Session | None = None) -> None: ...
    async def list_attempts(self, user_id: int) -> list[Attempt]: ...
    async def latest_attempt_for_card(self, card_id: int) -> Attempt | None: ...
    async def attempts_with_status(self, status: str, limit: int = 100) -> list[Attempt]: ...
    async def claim_attempt(self, attempt_id: int, from_status: str, to_status: str) -> bool: ...
    # the LLM budget: one row per LLM call
    async def record_llm_call(self, user_id: int | None, kind: str, tokens: int, at: datetime) -> None: ...
    async def count_llm_calls_since(self, user_id: int, since: datetime) -> int: ...
    async def llm_tokens_since(self, since: datetime) -> int: ...
    # personal questions, interviews, reviews, reminders
    async def add_personal_question(self, user_id: int, question: Question) -> Question: ...
    async def get_personal_question(self, question_id: str) -> Question | None: ...
    async def list_personal_questions(self, user_id: int) -> list[Question]: ...
    async def add_interview(self, log: InterviewLog) -> InterviewLog: ...
    async def list_interviews(self, user_id: int) -> list[InterviewLog]: ...
    async def add_review_item(self, item: ReviewItem) -> ReviewItem: ...
    async def list_review_items(self, user_id: int) -> list[ReviewItem]: ...
    async def log_review(
        self, item: ReviewItem, personal: Question | None, fsrs: dict[str, Any], now: datetime
    ) -> tuple[ReviewItem, Question | None]:
        """In one transaction: the personal question (when given; it gets its id), the card for the item's
        question made due now, and the review item pointing at it. All or nothing: `WriteFailed` when not."""
        ...

    async def relink_review_item(self, item: ReviewItem) -> bool:
        """Point a user's review item at another question (question_id, matched_bank, topic, subtopic);
        False if it is not theirs or gone."""
        ...

    async def count_review_items(self, user_id: int, since: datetime | None = None) -> int:
        """The user's review entries logged since `since` (None: in all)."""
        ...

    async def count_interviews(self, user_id: int, since: datetime | None = None) -> int:
        """The user's interviews logged (not held) since `since` (None: in all)."""
        ...

    async def add_reminder(self, reminder: Reminder) -> Reminder: ...
    async def list_reminders(self, user_id: int) -> list[Reminder]: ...
    # idempotency
    async def claim_event(self, key: str, now: datetime) -> bool: ...
    # study servers
    async def save_guild(self, guild: Guild) -> None: ...
    async def get_guild(self, guild_id: str) -> Guild | None: ...
    async def list_guilds(self, enabled_only: bool = True) -> list[Guild]: ...
    async def leaderboard(self, source: str, since: datetime, limit: int = 10) -> list[tuple[int, int, int]]:
        """(user_id, points, questions) over graded, non-follow-up attempts from `source` since `since`:
        each member's best score per question counted once, personal questions never; most points first."""
        ...
