"""Verb-named inputs to the service. Platforms build these from their events."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    user_id: int


@dataclass(frozen=True)
class StartUser(Command):
    pass


@dataclass(frozen=True)
class ShowHelp(Command):
    pass


@dataclass(frozen=True)
class ChangeSetting(Command):
    """name: language | timezone | daily_time | level | topics | new_per_day; value as typed."""

    name: str
    value: str


@dataclass(frozen=True)
class ShowSettings(Command):
    pass


@dataclass(frozen=True)
class NextQuestion(Command):
    pass


@dataclass(frozen=True)
class SubmitAnswer(Command):
    text: str
    transcript: str | None = None
    audio_ref: str | None = None
    audio_seconds: float | None = None


@dataclass(frozen=True)
class SubmitVoice(Command):
    """A voice answer: raw audio bytes (OGG/Opus from Telegram and Discord) and what is known of it."""

    audio: bytes
    filename: str
    duration: float | None = None


@dataclass(frozen=True)
class RevealReference(Command):
    attempt_id: int | None = None


@dataclass(frozen=True)
class SkipQuestion(Command):
    pass


@dataclass(frozen=True)
class OverrideRating(Command):
    attempt_id: int
    rating: int


@dataclass(frozen=True)
class StartFollowUp(Command):
    attempt_id: int


@dataclass(frozen=True)
class LogInterview(Command):
    company: str
    role: str
    when: str


@dataclass(frozen=True)
class LogReview(Command):
    company: str
    question: str
    answer: str = ""


@dataclass(frozen=True)
class ShowStats(Command):
    pass


@dataclass(frozen=True)
class Forget(Command):
    pass


@dataclass(frozen=True)
class ConfirmForget(Command):
    confirmed: bool


@dataclass(frozen=True)
class ExportData(Command):
    pass


@dataclass(frozen=True)
class FreeText(Command):
    """Text that is not a command: an answer, or the reply to an onboarding step."""

    text: str


@dataclass(frozen=True)
class Invalid(Command):
    """A command line that could not be parsed: the usage (an i18n key) or the unknown name."""

    reason: str
    command: str = ""
    usage_key: str = ""
