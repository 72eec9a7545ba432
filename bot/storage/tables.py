"""SQLAlchemy Core tables. Times are stored as naive UTC and come back timezone-aware."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    impl = sa.DateTime(timezone=False)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use UTC-aware times")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = sa.MetaData()
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
# Ids leave the process (buttons, pushes, a regrade that reads its user again after the LLM call) and must never
# name another row later: SQLite hands out max(id) + 1 again once the highest rows are deleted (a /forget) unless
# the table is AUTOINCREMENT; PostgreSQL's sequences never go back. Every table with a surrogate id has it.
NEVER_REUSED = {"sqlite_autoincrement": True}

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("language", sa.String(8), nullable=False),
    sa.Column("timezone", sa.String(64), nullable=False),
    sa.Column("daily_time", sa.String(5), nullable=False),
    sa.Column("level", sa.String(16), nullable=False),
    sa.Column("topics", sa.JSON, nullable=False),
    sa.Column("new_per_day", sa.Integer, nullable=False),
    sa.Column("desired_retention", sa.Float, nullable=False),
    sa.Column("paused", sa.Boolean, nullable=False, default=False),
    sa.Column("onboarded", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("quiet_start", sa.String(5), nullable=True),
    sa.Column("quiet_end", sa.String(5), nullable=True),
    sa.Column("weekly_day", sa.Integer, nullable=True),
    sa.Column("dm_opt_in", sa.Boolean, nullable=False, server_default=sa.true()),
    **NEVER_REUSED,
)

identities = sa.Table(
    "identities",
    metadata,
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("external_id", sa.String(64), primary_key=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("state", sa.JSON, nullable=False),
)

cards = sa.Table(
    "cards",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("question_id", sa.String(80), nullable=False),
    sa.Column("fsrs", sa.JSON, nullable=False),
    sa.Column("due", UTCDateTime, nullable=False),
    sa.Column("suspended", sa.Boolean, nullable=False, default=False),
    sa.Column("is_new", sa.Boolean, nullable=False, default=True),
    sa.Column("personal", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("user_id", "question_id", name="uq_cards_user_question"),
    sa.Index("ix_cards_user_due", "user_id", "suspended", "due"),
    sa.Index("ix_cards_user_created", "user_id", "created_at"),
    **NEVER_REUSED,
)

attempts = sa.Table(
    "attempts",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("card_id", ID, nullable=True),
    sa.Column("question_id", sa.String(80), nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("transcript", sa.Text, nullable=True),
    sa.Column("audio_ref", sa.String(255), nullable=True),
    sa.Column("audio_seconds", sa.Float, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("grade", sa.JSON, nullable=True),
    sa.Column("grader", sa.String(80), nullable=True),
    sa.Column("prompt_version", sa.String(32), nullable=True),
    sa.Column("latency_ms", sa.Integer, nullable=True),
    sa.Column("tokens", sa.Integer, nullable=False, default=0),
    sa.Column("rating", sa.Integer, nullable=True),
    sa.Column("rating_by", sa.String(12), nullable=True),  # grade | unrated | user (None: written before 0008)
    sa.Column("ticked", sa.JSON, nullable=True),  # the key points the user ticked on the checklist
    sa.Column("card_before", sa.JSON, nullable=True),
    sa.Column("is_follow_up", sa.Boolean, nullable=False, default=False),
    sa.Column(
        "follow_up_question", sa.Text, nullable=True
    ),  # the follow-up asked (None: a main answer, or before 0009)
    sa.Column("source", sa.String(64), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("graded_at", UTCDateTime, nullable=True),
    sa.Column("claimed_at", UTCDateTime, nullable=True),  # when a regrade worker took it (stale: requeued)
    sa.Index("ix_attempts_user_created", "user_id", "created_at"),
    sa.Index("ix_attempts_card", "card_id", "id"),
    sa.Index("ix_attempts_status", "status"),
    sa.Index("ix_attempts_source_created", "source", "created_at"),
    **NEVER_REUSED,
)

personal_questions = sa.Table(
    "personal_questions",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    **NEVER_REUSED,
)

interviews = sa.Table(
    "interviews",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("company", sa.String(200), nullable=False),
    sa.Column("role", sa.String(200), nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Column("stage", sa.String(100), nullable=False),
    sa.Column("notes", sa.Text, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    **NEVER_REUSED,
)

review_items = sa.Table(
    "review_items",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("company", sa.String(200), nullable=False),
    sa.Column("question_text", sa.Text, nullable=False),
    sa.Column("answer_text", sa.Text, nullable=False),
    sa.Column("question_id", sa.String(80), nullable=False),
    sa.Column("matched_bank", sa.Boolean, nullable=False),
    sa.Column("topic", sa.String(40), nullable=False),
    sa.Column("subtopic", sa.String(80), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    **NEVER_REUSED,
)

reminders = sa.Table(
    "reminders",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("due_at", UTCDateTime, nullable=False),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    sa.Column("claimed_at", UTCDateTime, nullable=True),
    sa.Index("ix_reminders_state_due", "state", "due_at"),
    **NEVER_REUSED,
)

pushes = sa.Table(
    "pushes",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(128), nullable=False, unique=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True),
    sa.Column("guild_id", sa.String(32), nullable=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("claimed_at", UTCDateTime, nullable=True),
    sa.Column("sent_at", UTCDateTime, nullable=True),
    sa.Index("ix_pushes_state_claimed", "state", "claimed_at"),
    **NEVER_REUSED,
)

guilds = sa.Table(
    "guilds",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("channel_id", sa.String(32), nullable=False),
    sa.Column("daily_time", sa.String(5), nullable=False),
    sa.Column("timezone", sa.String(64), nullable=False),
    sa.Column("language", sa.String(8), nullable=False),
    sa.Column("enabled", sa.Boolean, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

# The usage ledgers (LLM calls, transcribed seconds) count per platform identity: `identity` is its one-way key
# (bot/kernel/identity.py). /forget keeps the rows with user_id NULL and kind '' (no user, no content), so they
# still count toward the account's rolling day and the global budget; housekeeping drops them after two days.
llm_calls = sa.Table(
    "llm_calls",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("tokens", sa.Integer, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("identity", sa.String(32), nullable=True),
    sa.Index("ix_llm_calls_user_created", "user_id", "created_at"),
    sa.Index("ix_llm_calls_created", "created_at"),
    sa.Index("ix_llm_calls_identity_created", "identity", "created_at"),
    **NEVER_REUSED,
)

transcriptions = sa.Table(
    "transcriptions",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    sa.Column("identity", sa.String(32), nullable=True),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Index("ix_transcriptions_user", "user_id"),
    sa.Index("ix_transcriptions_created", "created_at"),
    sa.Index("ix_transcriptions_identity_created", "identity", "created_at"),
    **NEVER_REUSED,
)

mock_sessions = sa.Table(
    "mock_sessions",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),  # focus, level, items, summary (bot/features/mock/models.py)
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.Index("ix_mock_sessions_user_created", "user_id", "created_at"),
    # one running mock per user, kept by the database even when two processes start one at once
    sa.Index(
        "ux_mock_sessions_running",
        "user_id",
        unique=True,
        sqlite_where=sa.text("state = 'running'"),
        postgresql_where=sa.text("state = 'running'"),
    ),
    **NEVER_REUSED,
)

processed_events = sa.Table(
    "processed_events",
    metadata,
    sa.Column("key", sa.String(128), primary_key=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("done", sa.Boolean, nullable=False, server_default=sa.true()),
    # created_at is the claim's time; an update claimed but not done past a timeout is taken over (begin_event)
    sa.Index("ix_processed_events_created", "created_at"),  # housekeeping deletes by age without a table scan
)

job_descriptions = sa.Table(
    "job_descriptions",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("active_until", UTCDateTime, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    **NEVER_REUSED,
)

notebook_entries = sa.Table(
    "notebook_entries",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("question_id", sa.String(80), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("best", sa.Boolean, nullable=False, default=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Index("ux_notebook_version", "user_id", "question_id", "version", unique=True),
    **NEVER_REUSED,
)

applications = sa.Table(
    "applications",
    metadata,
    sa.Column("id", ID, primary_key=True, autoincrement=True),
    sa.Column("user_id", ID, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    sa.Column("company", sa.String(200), nullable=False),
    sa.Column("stage", sa.String(16), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    **NEVER_REUSED,
)

USER_TABLES = (  # deleted with the user; the usage ledgers are kept anonymised instead (USAGE_TABLES)
    sessions,
    mock_sessions,
    cards,
    attempts,
    personal_questions,
    interviews,
    review_items,
    reminders,
    pushes,
    identities,
    job_descriptions,
    notebook_entries,
    applications,
)
USAGE_TABLES = (llm_calls, transcriptions)
