"""The storage ports: one small Protocol per area of the store, `Store` for all of them, and the scheduler's
`PushPort`. SqlStore and PushStore (bot/storage) implement them; tests/fakes.py FakeStore is the fake,
held to the same contract by tests/contract/store/."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Protocol

from bot.kernel.models import Attempt, Card, Guild, InterviewLog, Question, Reminder, ReviewItem, User
from bot.kernel.session import Session


class EventClaim(Enum):
    """What `begin_event` found for an event that may be redelivered (a Telegram update)."""

    NEW = "new"
    """Claimed: handle it (the first time, or taken over from a worker that claimed it and died)."""
    DONE = "done"
    """Handled already: drop it."""
    BUSY = "busy"
    """Claimed by another worker a moment ago and not finished: ask for it again later."""


class UsersPort(Protocol):
    """Users, their platform identities, their conversation state, and incoming events processed once."""

    async def get_or_create_user(self, platform: str, external_id: str, defaults: User) -> User:
        """The user with this identity, or a new one from `defaults` (its id set) when there is none."""
        ...

    async def get_user(self, user_id: int) -> User | None: ...
    async def save_user(self, user: User) -> None:
        """Update a stored user; a user that is gone (deleted) stays gone."""
        ...

    async def identities(self, user_id: int) -> list[tuple[str, str]]:
        """(platform, external id) pairs of the user."""
        ...

    async def delete_user(self, user_id: int) -> None:
        """The user and everything stored for them: identities, session, mock interviews, cards, attempts,
        personal questions, interviews, review items, reminders (pushes too, where a store keeps them). Their LLM
        calls and transcriptions are kept with no user and no kind, still counted for the account (LLMBudgetPort)."""
        ...

    async def get_session(self, user_id: int) -> Session:
        """The user's state; Idle when none is stored, or when the stored one cannot be read."""
        ...

    async def get_user_and_session(self, user_id: int) -> tuple[User, Session] | None:
        """The user and their state (as `get_user` and `get_session` give them) in one read; None when the user is
        gone."""
        ...

    async def set_session(self, user_id: int, state: Session) -> None: ...
    async def claim_event(self, key: str, now: datetime) -> bool:
        """True the first time `key` (a platform update or interaction id) is claimed, False after."""
        ...

    async def begin_event(self, key: str, now: datetime, stale_before: datetime) -> EventClaim:
        """Claim an event its platform redelivers until it is acknowledged: NEW the first time, and again when
        its claim was made before `stale_before` and never finished (its worker died); DONE once
        `finish_event` marked it; BUSY while another worker's claim is fresh. Atomic across processes."""
        ...

    async def finish_event(self, key: str) -> None:
        """The event claimed by `begin_event` was handled: DONE from now on."""
        ...


class CardsPort(Protocol):
    """Cards: a user x a question, with its FSRS state."""

    async def get_card(self, card_id: int) -> Card | None: ...
    async def card_for_question(self, user_id: int, question_id: str) -> Card | None: ...
    async def next_due_card(self, user_id: int, now: datetime) -> Card | None:
        """The user's not suspended card due at `now` that is most overdue; personal first among equals."""
        ...

    async def card_question_ids(self, user_id: int) -> set[str]: ...
    async def count_cards_created_since(self, user_id: int, since: datetime) -> int:
        """The user's new bank cards (not personal ones) created since `since`."""
        ...

    async def count_due(self, user_id: int, before: datetime) -> int:
        """The user's not suspended cards due at `before`."""
        ...

    async def list_cards(self, user_id: int) -> list[Card]:
        """Oldest first."""
        ...

    async def create_card(
        self, user_id: int, question_id: str, fsrs: dict[str, Any], due: datetime, personal: bool, now: datetime
    ) -> Card:
        """A new card; the existing one (unchanged) when the user already has a card for the question."""
        ...

    async def save_card(self, card: Card) -> None:
        """Update a stored card (never its owner); a card that is gone stays gone."""
        ...


class AttemptsPort(Protocol):
    """Attempts: answers, stored before grading, graded (or queued for a regrade) after."""

    async def add_attempt(self, attempt: Attempt) -> Attempt: ...
    async def open_attempt(self, attempt: Attempt, session_was: Session, session: Session) -> Attempt | None:
        """Store `attempt` and move the user's session from `session_was` to `session`, in one transaction;
        None (and nothing written) when the session is no longer `session_was`: another process took it."""
        ...

    async def get_attempt(self, attempt_id: int) -> Attempt | None: ...
    async def finish_attempt(self, attempt: Attempt, card: Card | None, session: Session | None = None) -> None:
        """The attempt's outcome (never its owner or creation time), the rescheduled card and the new
        session, in one transaction."""
        ...

    async def list_attempts(self, user_id: int) -> list[Attempt]:
        """Oldest first (by creation time, then id)."""
        ...

    async def latest_attempt_for_card(self, card_id: int) -> Attempt | None:
        """The last attempt at the card that is not an answer to a follow-up."""
        ...

    async def attempts_with_status(self, status: str, limit: int = 100) -> list[Attempt]:
        """Everyone's attempts in `status`, oldest id first, at most `limit`."""
        ...

    async def claim_attempt(
        self, attempt_id: int, from_status: str, to_status: str, now: datetime | None = None
    ) -> bool:
        """Move an attempt from `from_status` to `to_status` atomically; False if it was not in `from_status`.
        `now` stamps the claim (a worker taking it), for `requeue_stale_attempts`."""
        ...

    async def requeue_stale_attempts(self, status: str, back_to: str, before: datetime) -> int:
        """Attempts left in `status` by a worker that died (claimed before `before`, or never stamped) go back
        to `back_to`, for another worker to take; how many."""
        ...


class LLMBudgetPort(Protocol):
    """The usage ledgers: one row per LLM call (a grading, a second check, a rubric for /review) and one per
    transcription. A user's usage is their platform identities' (bot/kernel/identity.py): what a user of the same
    account deleted by /forget used still counts."""

    async def record_llm_call(self, user_id: int | None, kind: str, tokens: int, at: datetime) -> None:
        """Negative token counts (a provider's nonsense) are recorded as 0."""
        ...

    async def count_llm_calls_since(self, user_id: int, since: datetime) -> int:
        """Calls made from the user's identities since `since`, by them or by a forgotten user of the same account."""
        ...

    async def llm_tokens_since(self, since: datetime) -> int:
        """Tokens of everyone's calls since `since`, forgotten users' included."""
        ...

    async def record_transcription(self, user_id: int, seconds: float, at: datetime) -> None: ...
    async def transcribed_seconds_since(self, user_id: int, since: datetime) -> float:
        """Seconds transcribed for the user's identities since `since` (as `count_llm_calls_since`)."""
        ...

    async def all_transcribed_seconds_since(self, since: datetime) -> float: ...
    async def forget_usage_before(self, cutoff: datetime) -> int:
        """Delete forgotten users' usage rows made before `cutoff`; how many."""
        ...


class InterviewsPort(Protocol):
    """What users log about real interviews: personal questions, interviews, review items, reminders."""

    async def add_personal_question(self, user_id: int, question: Question) -> Question:
        """The question stored as the user's, returned with the id it got."""
        ...

    async def get_personal_question(self, question_id: str) -> Question | None:
        """None for an id that names no stored personal question (a bank id, a malformed one, a deleted one)."""
        ...

    async def list_personal_questions(self, user_id: int) -> list[Question]:
        """Oldest first."""
        ...

    async def add_interview(self, log: InterviewLog) -> InterviewLog: ...
    async def list_interviews(self, user_id: int) -> list[InterviewLog]:
        """By the interview's time, then the order they were logged."""
        ...

    async def count_interviews(self, user_id: int, since: datetime | None = None) -> int:
        """The user's interviews logged (not held) since `since` (None: in all)."""
        ...

    async def add_review_item(self, item: ReviewItem) -> ReviewItem: ...
    async def list_review_items(self, user_id: int) -> list[ReviewItem]:
        """Oldest first (by creation time, then id)."""
        ...

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

    async def rename_company(self, user_id: int, names: set[str], new: str) -> tuple[int, int]:
        """The user's interviews and review items whose company is exactly one of `names` get the company
        `new` (/company merges two names), in one transaction: (interviews, review items) changed.
        All or nothing: `WriteFailed` when not. Other users' entries are never touched."""
        ...


class RemindersPort(Protocol):
    """A user's reminders (after an interview, before one, a review due): sent by the scheduler (PushPort)."""

    async def add_reminder(self, reminder: Reminder) -> Reminder: ...
    async def list_reminders(self, user_id: int) -> list[Reminder]:
        """Soonest due first."""
        ...

    async def cancel_reminders(self, user_id: int, reminder_ids: Sequence[int]) -> int:
        """The user's reminders among `reminder_ids` that are still pending become "cancelled" and are never
        sent; how many. Another user's, and one the scheduler has claimed or sent, are left as they are."""
        ...


class GuildsPort(Protocol):
    """Study servers (Discord guilds with a daily question channel) and their leaderboards."""

    async def save_guild(self, guild: Guild) -> None:
        """Insert or update the guild with this id."""
        ...

    async def get_guild(self, guild_id: str) -> Guild | None: ...
    async def list_guilds(self, enabled_only: bool = True) -> list[Guild]:
        """In id order."""
        ...

    async def leaderboard(self, source: str, since: datetime, limit: int = 10) -> list[tuple[int, int, int]]:
        """(user_id, points, questions) over graded, non-follow-up attempts from `source` since `since`:
        each member's best score per question counted once, personal questions never; most points first,
        then more questions, then the lower user id."""
        ...


class Store(
    UsersPort,
    CardsPort,
    AttemptsPort,
    LLMBudgetPort,
    InterviewsPort,
    RemindersPort,
    GuildsPort,
    Protocol,
):
    """Every store port of the kernel in one object (what `Deps.store` holds); a handler names the ports it uses
    (`STORE_PORTS`), and the store (one object implementing them all, the features' ports too) is given as each."""


STORE_PORTS: dict[str, type] = {
    "users": UsersPort,
    "cards": CardsPort,
    "attempts": AttemptsPort,
    "usage": LLMBudgetPort,
    "interviews": InterviewsPort,
    "reminders": RemindersPort,
    "guilds": GuildsPort,
}
"""The kernel's store ports by the name a handler gives them; the features' own (which name their models) are in
their `ports` modules, named by bot/features/deps.py FEATURE_STORE_PORTS."""


@dataclass(frozen=True)
class StaleClaim:
    """A push claimed longer ago than the stale timeout and never marked sending: to retry or give up."""

    id: int
    kind: str
    user_id: int | None
    attempts: int
    payload: dict[str, Any]


class PushPort(Protocol):
    """The scheduler's durable state: push claims (a unique key each: exactly once) and reminders' states.

    Push states: claimed -> sending -> sent | failed | skipped | paused, or back to claimed to retry;
    one left in "sending" by a crash becomes "unconfirmed". Each call is its own short transaction."""

    async def users_page(self, after_id: int, limit: int) -> list[User]:
        """Onboarded, not paused users with id > after_id, in id order (keyset pagination)."""
        ...

    async def last_answers(self, user_ids: Sequence[int]) -> dict[int, datetime]:
        """Each user's last answer that is not to a follow-up (users without one are absent)."""
        ...

    async def existing_keys(self, keys: Sequence[str]) -> set[str]: ...
    async def claim(
        self, key: str, kind: str, now: datetime, user_id: int | None = None, guild_id: str | None = None
    ) -> int | None:
        """The new push's id in state "claimed"; None when the key was claimed before."""
        ...

    async def claim_many(self, items: Sequence[tuple[str, str, int]], now: datetime) -> dict[str, int]:
        """Claim (key, kind, user_id) pushes at once; the keys this call won, with their push ids."""
        ...

    async def mark_sending(self, push_id: int, payload: dict[str, Any], now: datetime) -> None:
        """About to leave: never sent again after a crash; keeps the payload and restarts the claim clock."""
        ...

    async def release(self, push_id: int) -> None:
        """From "sending" back to "claimed" (not delivered: retried once stale); other states stay."""
        ...

    async def abandon_unconfirmed(self, cutoff: datetime) -> int:
        """Pushes and reminders in "sending" since before `cutoff` become "unconfirmed"; how many."""
        ...

    async def mark(self, push_id: int, state: str, now: datetime) -> None: ...
    async def stale_claims(self, cutoff: datetime, limit: int = 500) -> list[StaleClaim]:
        """Pushes in "claimed" since before `cutoff`, oldest id first."""
        ...

    async def reclaim(self, push_id: int, cutoff: datetime, now: datetime) -> bool:
        """Take over a stale claim (one more attempt, the clock restarted); False when another took it."""
        ...

    async def due_reminders(self, now: datetime, cutoff: datetime, limit: int = 500) -> list[Reminder]:
        """Reminders due at `now` that are pending, or claimed since before `cutoff`; soonest first."""
        ...

    async def claim_reminder(self, reminder_id: int, now: datetime, cutoff: datetime) -> bool:
        """Pending (or stale claimed) -> claimed, one more attempt; False when it was not claimable."""
        ...

    async def get_reminder(self, reminder_id: int) -> Reminder | None: ...
    async def mark_reminder(self, reminder_id: int, state: str, now: datetime | None = None) -> None:
        """Set the reminder's state (and restart its claim clock when `now` is given)."""
        ...
