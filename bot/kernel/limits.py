"""The limits the composition root reads from the settings, and the facts /privacy tells: plain values a handler
names (`limits`, `data_facts`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.kernel.models import Lang


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
