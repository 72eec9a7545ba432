"""Verb-named inputs to the service. Platforms build these from their events; the scheduler sends the jobs."""

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
    source: str | None = None  # where it was answered, e.g. "discord:guild:123" (server leaderboards)


@dataclass(frozen=True)
class SubmitVoice(Command):
    """A voice answer: raw audio bytes (OGG/Opus from Telegram and Discord) and what is known of it."""

    audio: bytes
    filename: str
    duration: float | None = None
    source: str | None = None  # as SubmitAnswer.source


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
class TickPoint(Command):
    """On the offline checklist: "I did say that" for the answer's key point number `index` (0-based)."""

    attempt_id: int
    index: int


@dataclass(frozen=True)
class Disagree(Command):
    """On an LLM grade: the user wants to give their own rating (or ask for a second look)."""

    attempt_id: int


@dataclass(frozen=True)
class SecondLook(Command):
    """The LLM grades the same answer once more (within the LLM budget)."""

    attempt_id: int


@dataclass(frozen=True)
class LogInterview(Command):
    company: str
    role: str
    when: str
    date_checked: bool = False  # the user saw a far-off date and pressed Save: log it without asking again


@dataclass(frozen=True)
class LogReview(Command):
    company: str
    question: str
    answer: str = ""


@dataclass(frozen=True)
class PickReview(Command):
    """The answer to "is it one of these bank questions?" after /review: an index, or None for none."""

    choice: int | None


@dataclass(frozen=True)
class StartFlow(Command):
    """/review or /interview with no arguments: ask for each field in turn (flow: review | interview)."""

    flow: str


@dataclass(frozen=True)
class FlowAction(Command):
    """A button during a step-by-step flow: skip | ok | cancel."""

    action: str


@dataclass(frozen=True)
class ShowCompanies(Command):
    """/company alone: the companies the user logged, as /stats counts them, and how to merge two."""


@dataclass(frozen=True)
class MergeCompanies(Command):
    """/company OLD = NEW: every interview and review item of the user whose company is OLD (as /stats
    folds names) gets the company NEW. The command itself is the user's confirmation."""

    old: str
    new: str


@dataclass(frozen=True)
class SetPaused(Command):
    """/pause and /resume: stop or restart scheduled pushes."""

    paused: bool


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
class ShowPrivacy(Command):
    """/privacy: what is stored, for how long, where it goes, how to export and delete it."""


@dataclass(frozen=True)
class MockCommand(Command):
    """/mock and its words: none (suggest one), a focus, level and length, "go", "stop" or "history"."""

    args: str = ""


@dataclass(frozen=True)
class CareerCommand(Command):
    """/jd, /notes, /apps or /debrief (`tool`) and the words after it."""

    tool: str
    args: str = ""


@dataclass(frozen=True)
class CareerAction(Command):
    """A button of a career tool: `cr:<tool>:<arg>`, and its typed payload when the tool declares one
    (bot/kernel/actions.py: a `ToolAction`)."""

    tool: str
    arg: str = ""
    payload: object | None = None


@dataclass(frozen=True)
class UploadDocument(Command):
    """A text file the user sent (.txt, .md or .pdf): a job description or interview notes."""

    data: bytes
    filename: str


@dataclass(frozen=True)
class FreeText(Command):
    """Text that is not a command: an answer, or the reply to an onboarding step."""

    text: str


@dataclass(frozen=True)
class SetupServer(Command):
    """A server admin sets where and when the server's daily question is posted ("" keeps a value)."""

    server_id: str
    channel_id: str
    channel_label: str  # how the channel is shown in the reply, e.g. "<#123>"
    daily_time: str = ""
    timezone: str = ""
    language: str = ""
    enabled: bool = True
    manager: bool = False  # the member may manage the server (the platform's permission)


@dataclass(frozen=True)
class ShowLeaderboard(Command):
    """A server's points this week and this month; `mention` shows a member ({id} = platform user id)."""

    platform: str
    server_id: str
    mention: str = "{id}"


@dataclass(frozen=True)
class AnswerServerQuestion(Command):
    """An answer to a server's daily question, graded privately and counted for its leaderboard."""

    platform: str
    server_id: str
    question_id: str
    text: str


@dataclass(frozen=True)
class Invalid(Command):
    """A command line that could not be parsed: the usage (an i18n key) or the unknown name."""

    reason: str
    command: str = ""
    usage_key: str = ""


@dataclass(frozen=True)
class Job:
    """A round of background work the scheduler sends (bot/scheduling/scheduler.py): no user, so no user's lock
    and no session; its handler claims in the database what it works on (so replicas share the work) and returns
    how many things it did."""


@dataclass(frozen=True)
class RegradeRound(Job):
    """Grade with the LLM up to `limit` answers that got only the offline estimate (or no grade) while it was
    down, and tell their users the new grade."""

    limit: int = 20
