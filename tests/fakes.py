"""Hand-written fakes for the core's ports: an in-memory Store, a scripted Grader, a settable Clock."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.features.career.models import Application, JobDescription, NoteEntry
from bot.features.mock.models import MockSession
from bot.kernel import commands
from bot.kernel.identity import identity_key
from bot.kernel.models import (
    DIMENSIONS,
    Attempt,
    Card,
    Grade,
    Guild,
    InterviewLog,
    KeyPointResult,
    Lang,
    Level,
    Question,
    Reminder,
    ReviewItem,
    User,
)
from bot.kernel.ports import Transcription, TranscriptionError, WriteFailed
from bot.kernel.replies import Reply
from bot.kernel.routing import Hooks
from bot.kernel.scoring import total_score
from bot.kernel.session import Idle, InFlow, Session, open_card_id
from bot.kernel.store_ports import EventClaim


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, **kwargs: float) -> None:
        self.current += timedelta(**kwargs)


class FakeGrader:
    """Gives every dimension `score` (so the total is `score`), or raises when `fail` is set."""

    id = "fake"

    def __init__(
        self, score: int = 70, follow_up: str | None = "What threshold would you choose, and why?", grader: str = "fake"
    ) -> None:
        self.score = score
        self.grader = grader  # "offline": its grades are estimates, as the offline grader's
        self.follow_up = follow_up
        self.fail = False
        self.calls: list[tuple[str, str, str]] = []

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        self.calls.append((question.id, answer, lang))
        if self.fail:
            raise RuntimeError("grader down")
        dims = {d: self.score for d in DIMENSIONS}
        points = [
            KeyPointResult(id=k.id, verdict="hit" if i % 2 == 0 else "missed", evidence=answer[:20])
            for i, k in enumerate(question.rubric.key_points)
        ]
        return Grade(
            score=total_score(dims, question.type),
            dimensions=dims,
            key_points=points,
            feedback="Good structure; add numbers." if lang == "en" else "结构不错，补充数字。",
            follow_up=self.follow_up,
            grader=self.grader,
            estimate=self.grader == "offline",
        )


class HeldGrader(FakeGrader):
    """Grades only once `gate` opens (`started` says a grading began), so another process or replica acts while
    this one is grading."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.started = asyncio.Event(), asyncio.Event()

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        self.started.set()
        await self.gate.wait()
        return await super().grade(question, answer, lang, level)


class FakeStore:
    """The Store port in memory, with the same semantics as SqlStore (copies in, copies out); the contract
    suite in tests/contract/store/ runs the same tests against both."""

    def __init__(self) -> None:
        self.users: dict[int, User] = {}
        self.ids: dict[tuple[str, str], int] = {}
        self.sessions: dict[int, Session] = {}
        self.cards: dict[int, Card] = {}
        self.attempts: dict[int, Attempt] = {}
        self.personal: dict[str, tuple[int, Question]] = {}
        self.interviews: dict[int, InterviewLog] = {}
        self.review_items: dict[int, ReviewItem] = {}
        self.reminders: dict[int, Reminder] = {}
        self.events: set[str] = set()
        self.claims: dict[str, datetime] = {}  # begun, not finished (begin_event)
        self.attempt_claims: dict[int, datetime] = {}  # claim_attempt's stamps
        self.guilds: dict[str, Guild] = {}
        self.mocks: dict[int, MockSession] = {}
        self.jds: dict[int, JobDescription] = {}
        self.notes: dict[int, NoteEntry] = {}
        self.applications: dict[int, Application] = {}
        self.llm_calls: list[tuple[int | None, str, int, datetime]] = []
        self.llm_keys: list[str | None] = []  # each call's identity key, beside `llm_calls`
        self.transcriptions: list[tuple[int | None, str | None, float, datetime]] = []  # user, key, seconds, at
        self.fail_review_insert = False
        self.fail_company_rename = False
        self._seq = itertools.count(1)

    async def get_or_create_user(self, platform: str, external_id: str, defaults: User) -> User:
        key = (platform, external_id)
        if key not in self.ids:
            uid = next(self._seq)
            self.ids[key] = uid
            self.users[uid] = defaults.model_copy(update={"id": uid})
        return self.users[self.ids[key]].model_copy()

    async def get_user(self, user_id: int) -> User | None:
        u = self.users.get(user_id)
        return u.model_copy() if u else None

    async def save_user(self, user: User) -> None:
        if user.id in self.users:  # an update: a deleted user stays deleted
            self.users[user.id] = user.model_copy()

    async def identities(self, user_id: int) -> list[tuple[str, str]]:
        return sorted(k for k, v in self.ids.items() if v == user_id)

    async def delete_user(self, user_id: int) -> None:
        self.users.pop(user_id, None)
        self.sessions.pop(user_id, None)
        self.ids = {k: v for k, v in self.ids.items() if v != user_id}
        for table in (self.cards, self.attempts, self.interviews, self.review_items, self.reminders, self.mocks,
                      self.jds, self.notes, self.applications):  # fmt: skip
            for key in [k for k, v in table.items() if v.user_id == user_id]:
                del table[key]
        self.personal = {k: v for k, v in self.personal.items() if v[0] != user_id}
        self.llm_calls = [(None, "", n, at) if u == user_id else (u, k, n, at) for u, k, n, at in self.llm_calls]
        self.transcriptions = [(None if u == user_id else u, key, s, at) for u, key, s, at in self.transcriptions]

    async def get_session(self, user_id: int) -> Session:
        found = self.sessions.get(user_id)
        return found.model_copy(deep=True) if found is not None else Idle()

    async def get_user_and_session(self, user_id: int) -> tuple[User, Session] | None:
        user = await self.get_user(user_id)
        return (user, await self.get_session(user_id)) if user is not None else None

    async def set_session(self, user_id: int, state: Session) -> None:
        self.sessions[user_id] = state.model_copy(deep=True)

    def open_card(self, user_id: int) -> int:
        """For tests: the card whose question the user has open now (an assertion error when none is)."""
        card_id = open_card_id(self.sessions.get(user_id, Idle()))
        assert card_id is not None, f"no open question: {self.sessions.get(user_id)!r}"
        return card_id

    async def get_card(self, card_id: int) -> Card | None:
        c = self.cards.get(card_id)
        return c.model_copy(deep=True) if c else None

    async def card_for_question(self, user_id: int, question_id: str) -> Card | None:
        for c in self.cards.values():
            if c.user_id == user_id and c.question_id == question_id:
                return c.model_copy(deep=True)
        return None

    async def next_due_card(self, user_id: int, now: datetime) -> Card | None:
        due = [c for c in self.cards.values() if c.user_id == user_id and not c.suspended and c.due <= now]
        due.sort(key=lambda c: (c.due, not c.personal, c.id))
        return due[0].model_copy(deep=True) if due else None

    async def card_question_ids(self, user_id: int) -> set[str]:
        return {c.question_id for c in self.cards.values() if c.user_id == user_id}

    async def count_cards_created_since(self, user_id: int, since: datetime) -> int:
        return sum(1 for c in self.cards.values() if c.user_id == user_id and c.created_at >= since and not c.personal)

    async def count_due(self, user_id: int, before: datetime) -> int:
        return sum(1 for c in self.cards.values() if c.user_id == user_id and not c.suspended and c.due <= before)

    async def list_cards(self, user_id: int) -> list[Card]:
        return [
            c.model_copy(deep=True) for c in sorted(self.cards.values(), key=lambda c: c.id) if c.user_id == user_id
        ]

    async def create_card(
        self, user_id: int, question_id: str, fsrs: dict[str, Any], due: datetime, personal: bool, now: datetime
    ) -> Card:
        existing = await self.card_for_question(user_id, question_id)
        if existing:
            return existing
        card = Card(
            id=next(self._seq),
            user_id=user_id,
            question_id=question_id,
            fsrs=dict(fsrs),
            due=due,
            personal=personal,
            created_at=now,
        )
        self.cards[card.id] = card
        return card.model_copy(deep=True)

    async def save_card(self, card: Card) -> None:
        old = self.cards.get(card.id)
        if old is not None:  # an update of everything but the owner
            self.cards[card.id] = card.model_copy(update={"user_id": old.user_id}, deep=True)

    async def add_attempt(self, attempt: Attempt) -> Attempt:
        saved = attempt.model_copy(update={"id": next(self._seq)}, deep=True)
        self.attempts[saved.id] = saved
        return saved.model_copy(deep=True)

    async def open_attempt(self, attempt: Attempt, session_was: Session, session: Session) -> Attempt | None:
        if self.sessions.get(attempt.user_id) != session_was:  # as SqlStore: no stored session is never claimed
            return None
        self.sessions[attempt.user_id] = session.model_copy(deep=True)
        return await self.add_attempt(attempt)

    async def get_attempt(self, attempt_id: int) -> Attempt | None:
        a = self.attempts.get(attempt_id)
        return a.model_copy(deep=True) if a else None

    async def finish_attempt(self, attempt: Attempt, card: Card | None, session: Session | None = None) -> None:
        if session is not None:
            self.sessions[attempt.user_id] = session.model_copy(deep=True)
        old = self.attempts.get(attempt.id)
        if old is not None:  # the outcome: never the owner or the creation time
            kept = {"user_id": old.user_id, "created_at": old.created_at}
            self.attempts[attempt.id] = attempt.model_copy(update=kept, deep=True)
        if card is not None:
            await self.save_card(card)

    async def list_attempts(self, user_id: int) -> list[Attempt]:
        rows = [a for a in self.attempts.values() if a.user_id == user_id]
        return [a.model_copy(deep=True) for a in sorted(rows, key=lambda a: (a.created_at, a.id))]

    async def latest_attempt_for_card(self, card_id: int) -> Attempt | None:
        rows = [a for a in self.attempts.values() if a.card_id == card_id and not a.is_follow_up]
        return max(rows, key=lambda a: a.id).model_copy(deep=True) if rows else None

    async def attempts_with_status(self, status: str, limit: int = 100) -> list[Attempt]:
        rows = sorted((a for a in self.attempts.values() if a.status == status), key=lambda a: a.id)
        return [a.model_copy(deep=True) for a in rows[:limit]]

    async def claim_attempt(
        self, attempt_id: int, from_status: str, to_status: str, now: datetime | None = None
    ) -> bool:
        a = self.attempts.get(attempt_id)
        if a is None or a.status != from_status:
            return False
        self.attempts[attempt_id] = a.model_copy(update={"status": to_status})
        if now is not None:
            self.attempt_claims[attempt_id] = now
        return True

    async def requeue_stale_attempts(self, status: str, back_to: str, before: datetime) -> int:
        stale = [
            a.id
            for a in self.attempts.values()
            if a.status == status and self.attempt_claims.get(a.id, before - timedelta(seconds=1)) < before
        ]
        for attempt_id in stale:
            self.attempts[attempt_id] = self.attempts[attempt_id].model_copy(update={"status": back_to})
        return len(stale)

    def _keys(self, user_id: int | None) -> list[str]:
        """The user's identity keys; a user with no identity (one a test made up) counts by its id."""
        keys = sorted(identity_key(p, e) for (p, e), uid in self.ids.items() if uid == user_id)
        return keys or ([f"user:{user_id}"] if user_id is not None else [])

    async def record_llm_call(self, user_id: int | None, kind: str, tokens: int, at: datetime) -> None:
        keys = self._keys(user_id)
        self.llm_calls.append((user_id, kind, max(0, tokens), at))
        self.llm_keys.append(keys[0] if keys else None)

    async def count_llm_calls_since(self, user_id: int, since: datetime) -> int:
        keys = self._keys(user_id)
        return sum(1 for c, key in zip(self.llm_calls, self.llm_keys, strict=True) if key in keys and c[3] >= since)

    async def llm_tokens_since(self, since: datetime) -> int:
        return sum(tokens for _uid, _kind, tokens, at in self.llm_calls if at >= since)

    async def record_transcription(self, user_id: int, seconds: float, at: datetime) -> None:
        keys = self._keys(user_id)
        self.transcriptions.append((user_id, keys[0] if keys else None, max(0.0, seconds), at))

    async def transcribed_seconds_since(self, user_id: int, since: datetime) -> float:
        keys = self._keys(user_id)
        return sum(s for _u, key, s, at in self.transcriptions if key in keys and at >= since)

    async def all_transcribed_seconds_since(self, since: datetime) -> float:
        return sum(s for _u, _key, s, at in self.transcriptions if at >= since)

    async def forget_usage_before(self, cutoff: datetime) -> int:
        calls = [
            (c, k) for c, k in zip(self.llm_calls, self.llm_keys, strict=True) if c[0] is not None or c[3] >= cutoff
        ]
        heard = [t for t in self.transcriptions if t[0] is not None or t[3] >= cutoff]
        gone = len(self.llm_calls) - len(calls) + len(self.transcriptions) - len(heard)
        self.llm_calls, self.llm_keys, self.transcriptions = [c for c, _ in calls], [k for _, k in calls], heard
        return gone

    async def add_personal_question(self, user_id: int, question: Question) -> Question:
        saved = question.model_copy(update={"id": f"personal:{next(self._seq)}"})
        self.personal[saved.id] = (user_id, saved)
        return saved

    async def get_personal_question(self, question_id: str) -> Question | None:
        found = self.personal.get(question_id)
        return found[1].model_copy(deep=True) if found else None

    async def list_personal_questions(self, user_id: int) -> list[Question]:
        return [q.model_copy(deep=True) for uid, q in self.personal.values() if uid == user_id]

    async def add_interview(self, log: InterviewLog) -> InterviewLog:
        saved = log.model_copy(update={"id": next(self._seq)})
        self.interviews[saved.id] = saved
        return saved

    async def list_interviews(self, user_id: int) -> list[InterviewLog]:
        return sorted((x for x in self.interviews.values() if x.user_id == user_id), key=lambda x: (x.at, x.id))

    async def add_review_item(self, item: ReviewItem) -> ReviewItem:
        saved = item.model_copy(update={"id": next(self._seq)})
        self.review_items[saved.id] = saved
        return saved

    async def list_review_items(self, user_id: int) -> list[ReviewItem]:
        rows = (x for x in self.review_items.values() if x.user_id == user_id)
        return sorted(rows, key=lambda x: (x.created_at, x.id))

    async def log_review(
        self, item: ReviewItem, personal: Question | None, fsrs: dict[str, Any], now: datetime
    ) -> tuple[ReviewItem, Question | None]:
        """As one transaction: with `fail_review_insert` set, the last of the three writes fails and the
        first two are rolled back."""
        before = (dict(self.personal), dict(self.cards), dict(self.review_items))
        try:
            saved = await self.add_personal_question(item.user_id, personal) if personal is not None else None
            question_id = saved.id if saved is not None else item.question_id
            card = await self.card_for_question(item.user_id, question_id)
            if card is None:
                await self.create_card(item.user_id, question_id, fsrs, now, True, now)
            else:
                await self.save_card(card.model_copy(update={"due": now, "suspended": False, "personal": True}))
            if self.fail_review_insert:
                raise WriteFailed("review_items: disk full")
            row = await self.add_review_item(item.model_copy(update={"question_id": question_id}))
        except Exception:
            self.personal, self.cards, self.review_items = before
            raise
        return row, saved

    async def count_review_items(self, user_id: int, since: datetime | None = None) -> int:
        rows = self.review_items.values()
        return sum(1 for x in rows if x.user_id == user_id and (since is None or x.created_at >= since))

    async def count_interviews(self, user_id: int, since: datetime | None = None) -> int:
        rows = self.interviews.values()
        return sum(1 for x in rows if x.user_id == user_id and (since is None or x.created_at >= since))

    async def rename_company(self, user_id: int, names: set[str], new: str) -> tuple[int, int]:
        """As one transaction: with `fail_company_rename` set, the review items' half fails and the
        interviews' half is rolled back."""
        before = dict(self.interviews)
        interviews = [x for x in self.interviews.values() if x.user_id == user_id and x.company in names]
        for x in interviews:
            self.interviews[x.id] = x.model_copy(update={"company": new})
        if self.fail_company_rename:
            self.interviews = before
            raise WriteFailed("review_items: disk full")
        items = [x for x in self.review_items.values() if x.user_id == user_id and x.company in names]
        for item in items:
            self.review_items[item.id] = item.model_copy(update={"company": new})
        return len(interviews), len(items)

    async def relink_review_item(self, item: ReviewItem) -> bool:
        old = self.review_items.get(item.id)
        if old is None or old.user_id != item.user_id:
            return False
        fields = {"question_id", "matched_bank", "topic", "subtopic"}
        self.review_items[item.id] = old.model_copy(update=item.model_dump(include=fields))
        return True

    async def add_reminder(self, reminder: Reminder) -> Reminder:
        saved = reminder.model_copy(update={"id": next(self._seq)})
        self.reminders[saved.id] = saved
        return saved

    async def list_reminders(self, user_id: int) -> list[Reminder]:
        return sorted((x for x in self.reminders.values() if x.user_id == user_id), key=lambda x: (x.due_at, x.id))

    async def cancel_reminders(self, user_id: int, reminder_ids: Sequence[int]) -> int:
        cancelled = 0
        for rid in set(reminder_ids):
            found = self.reminders.get(rid)
            if found is not None and found.user_id == user_id and found.state == "pending":
                self.reminders[rid] = found.model_copy(update={"state": "cancelled"})
                cancelled += 1
        return cancelled

    async def claim_event(self, key: str, now: datetime) -> bool:
        key = key[:128]  # as long as the SQL store's key column
        if key in self.events:
            return False
        self.events.add(key)
        return True

    async def begin_event(self, key: str, now: datetime, stale_before: datetime) -> EventClaim:
        key = key[:128]
        if key in self.events and key not in self.claims:
            return EventClaim.DONE
        if key in self.claims and self.claims[key] >= stale_before:
            return EventClaim.BUSY
        self.events.add(key)
        self.claims[key] = now
        return EventClaim.NEW

    async def finish_event(self, key: str) -> None:
        self.claims.pop(key[:128], None)

    async def save_guild(self, guild: Guild) -> None:
        self.guilds[guild.id] = guild.model_copy()

    async def get_guild(self, guild_id: str) -> Guild | None:
        g = self.guilds.get(guild_id)
        return g.model_copy() if g else None

    async def list_guilds(self, enabled_only: bool = True) -> list[Guild]:
        return [g.model_copy() for _, g in sorted(self.guilds.items()) if g.enabled or not enabled_only]

    async def leaderboard(self, source: str, since: datetime, limit: int = 10) -> list[tuple[int, int, int]]:
        best: dict[tuple[int, str], int] = {}
        for a in self.attempts.values():
            counted = a.source == source and a.created_at >= since and not a.is_follow_up
            if counted and a.grade is not None and a.question_id not in self.personal:
                key = (a.user_id, a.question_id)
                g = a.grade
                score = g.offline_score if g.flagged and g.offline_score is not None else g.score
                score = min(score, g.score)
                best[key] = max(best.get(key, score), score)
        totals: dict[int, list[int]] = {}
        for (uid, _qid), score in best.items():
            entry = totals.setdefault(uid, [0, 0])
            entry[0] += score
            entry[1] += 1
        rows = sorted(totals.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
        return [(uid, points, answers) for uid, (points, answers) in rows[:limit]]

    async def create_mock(self, mock: MockSession) -> MockSession | None:
        if mock.user_id not in self.users or await self.running_mock(mock.user_id) is not None:
            return None
        stored = mock.model_copy(update={"id": next(self._seq)}, deep=True)
        self.mocks[stored.id] = stored
        return stored.model_copy(deep=True)

    async def get_mock(self, mock_id: int) -> MockSession | None:
        found = self.mocks.get(mock_id)
        return found.model_copy(deep=True) if found else None

    async def running_mock(self, user_id: int) -> MockSession | None:
        found = [m for m in self.mocks.values() if m.user_id == user_id and m.state == "running"]
        return found[0].model_copy(deep=True) if found else None

    async def save_mock(self, mock: MockSession) -> None:
        old = self.mocks.get(mock.id)
        if old is not None:
            self.mocks[mock.id] = mock.model_copy(
                update={"user_id": old.user_id, "created_at": old.created_at}, deep=True
            )

    async def list_mocks(self, user_id: int) -> list[MockSession]:
        mine = sorted((m for m in self.mocks.values() if m.user_id == user_id), key=lambda m: (m.created_at, m.id))
        return [m.model_copy(deep=True) for m in mine]

    async def add_jd(self, jd: JobDescription) -> JobDescription:
        stored = jd.model_copy(update={"id": next(self._seq), "active_until": None}, deep=True)
        self.jds[stored.id] = stored
        return stored.model_copy(deep=True)

    async def get_jd(self, jd_id: int) -> JobDescription | None:
        found = self.jds.get(jd_id)
        return found.model_copy(deep=True) if found else None

    async def list_jds(self, user_id: int) -> list[JobDescription]:
        mine = sorted((j for j in self.jds.values() if j.user_id == user_id), key=lambda j: (j.created_at, j.id))
        return [j.model_copy(deep=True) for j in mine]

    async def save_jd(self, jd: JobDescription) -> None:
        old = self.jds.get(jd.id)
        if old is not None:
            keep = {"user_id": old.user_id, "created_at": old.created_at, "active_until": old.active_until}
            self.jds[jd.id] = jd.model_copy(update=keep, deep=True)

    async def activate_jd(self, user_id: int, jd_id: int | None, until: datetime | None) -> bool:
        if jd_id is not None and (jd_id not in self.jds or self.jds[jd_id].user_id != user_id):
            return False
        for jd in self.jds.values():
            if jd.user_id == user_id:
                jd.active_until = until if jd.id == jd_id else None
        return True

    async def active_jd(self, user_id: int, now: datetime) -> JobDescription | None:
        live = [j for j in self.jds.values() if j.user_id == user_id and j.active_until and j.active_until > now]
        return max(live, key=lambda j: j.active_until or now).model_copy(deep=True) if live else None

    async def delete_jd(self, user_id: int, jd_id: int) -> bool:
        return self._delete_own(self.jds, user_id, jd_id)

    def _delete_own(self, table: dict[int, Any], user_id: int, row_id: int) -> bool:
        if row_id in table and table[row_id].user_id == user_id:
            del table[row_id]
            return True
        return False

    async def add_note(self, entry: NoteEntry) -> NoteEntry:
        same = [
            n.version for n in self.notes.values() if (n.user_id, n.question_id) == (entry.user_id, entry.question_id)
        ]
        stored = entry.model_copy(update={"id": next(self._seq), "version": max(same, default=0) + 1, "best": False})
        self.notes[stored.id] = stored.model_copy(deep=True)
        return stored

    async def get_note(self, note_id: int) -> NoteEntry | None:
        found = self.notes.get(note_id)
        return found.model_copy(deep=True) if found else None

    async def list_notes(self, user_id: int, question_id: str | None = None) -> list[NoteEntry]:
        mine = [n for n in self.notes.values() if n.user_id == user_id and question_id in (None, n.question_id)]
        return [n.model_copy(deep=True) for n in sorted(mine, key=lambda n: (n.question_id, n.version))]

    async def save_note(self, entry: NoteEntry) -> None:
        old = self.notes.get(entry.id)
        if old is not None:
            keep = {k: getattr(old, k) for k in ("user_id", "question_id", "version", "best", "created_at")}
            self.notes[entry.id] = entry.model_copy(update=keep, deep=True)

    async def mark_best(self, user_id: int, note_id: int) -> bool:
        chosen = self.notes.get(note_id)
        if chosen is None or chosen.user_id != user_id:
            return False
        for n in self.notes.values():
            if (n.user_id, n.question_id) == (user_id, chosen.question_id):
                n.best = n.id == note_id
        return True

    async def delete_note(self, user_id: int, note_id: int) -> bool:
        return self._delete_own(self.notes, user_id, note_id)

    async def count_notes(self, user_id: int) -> int:
        return sum(1 for n in self.notes.values() if n.user_id == user_id)

    async def add_application(self, app: Application) -> Application:
        stored = app.model_copy(update={"id": next(self._seq)}, deep=True)
        self.applications[stored.id] = stored
        return stored.model_copy(deep=True)

    async def get_application(self, app_id: int) -> Application | None:
        found = self.applications.get(app_id)
        return found.model_copy(deep=True) if found else None

    async def list_applications(self, user_id: int) -> list[Application]:
        mine = sorted(
            (a for a in self.applications.values() if a.user_id == user_id), key=lambda a: (a.created_at, a.id)
        )
        return [a.model_copy(deep=True) for a in mine]

    async def save_application(self, app: Application) -> None:
        old = self.applications.get(app.id)
        if old is not None:
            self.applications[app.id] = app.model_copy(
                update={"user_id": old.user_id, "created_at": old.created_at}, deep=True
            )

    async def delete_application(self, user_id: int, app_id: int) -> bool:
        return self._delete_own(self.applications, user_id, app_id)

    async def count_applications(self, user_id: int) -> int:
        return sum(1 for a in self.applications.values() if a.user_id == user_id)


class FakeTranscriber:
    """Hears `text` (or `texts[lang]`) in `seconds` of audio; `unreadable` or `fail` script the errors."""

    id = "fake"

    def __init__(self, text: str = "First I check the data, then the gradient norm per layer.", seconds: float = 12.0):
        self.text = text
        self.texts: dict[str, str] = {}
        self.seconds = seconds
        self.unreadable = False
        self.fail: TranscriptionError | None = None
        self.calls: list[tuple[str, str]] = []

    async def measure(self, audio: bytes, filename: str) -> float:
        self.calls.append(("measure", filename))
        if self.unreadable:
            raise TranscriptionError("not audio")
        return self.seconds

    async def transcribe(self, audio: bytes, filename: str, lang: Lang) -> Transcription:
        self.calls.append(("transcribe", lang))
        if self.fail is not None:
            raise self.fail
        return Transcription(self.texts.get(lang, self.text), duration=self.seconds)


class FakeChartRenderer:
    """Records what it was asked to draw and returns fixed bytes, or raises when `fail` is set."""

    PNG = b"\x89PNG\r\n\x1a\nfake"

    def __init__(self) -> None:
        self.calls: list[tuple[Any, Lang]] = []
        self.fail = False

    def render(self, data: Any, lang: Lang) -> bytes:
        self.calls.append((data, lang))
        if self.fail:
            raise RuntimeError("renderer broke")
        return self.PNG


class FakeRubricWriter:
    """Writes a four-point rubric for any question, as the LLM does for /review; `None` when `fail` is set."""

    def __init__(self) -> None:
        self.fail = False
        self.calls: list[str] = []

    async def write(self, question_text: str, lang: Lang, level: Level) -> tuple[Question | None, int]:
        from tests.conftest import make_question

        self.calls.append(question_text)
        if self.fail:
            return None, 0
        q = make_question("written", prompt_en=question_text, prompt_zh=question_text)
        return q.model_copy(update={"personal": True, "generated_rubric": True}), 10


async def no_greeting(user: User, session: Session) -> list[Reply]:
    return []


async def no_flow(cmd: commands.FlowAction, user: User, session: Session) -> list[Reply]:
    return []


async def replies_as_they_are(before: InFlow, replies: list[Reply], user: User, restart: bool) -> list[Reply]:
    return replies


async def no_rating(user: User, attempt_id: int) -> Reply | None:
    return None


async def no_text(cmd: commands.FreeText, user: User, session: Session) -> list[Reply] | None:
    return None


NO_HOOKS = Hooks(
    greet=no_greeting,
    flow_action=no_flow,
    after_command=replies_as_they_are,
    waiting_rating=no_rating,
    free_text=no_text,
)
"""Hooks that do nothing (the replies as they are), each naming only its per-call values."""
