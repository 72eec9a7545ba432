"""The conversation state of one user: what the bot is waiting for from them now.

One small frozen model per mode, told apart by `mode`, stored as JSON in the same shape as
always (`{"mode": "answering", "card_id": 7}`; fields in this order, None fields left out), so
rows written before these models parse unchanged. A stored state that no model reads (an
unknown mode, a missing or extra field, data of an older version) is logged and read as Idle:
a bad row never stops a user.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

log = logging.getLogger(__name__)

FlowKind = Literal["review", "interview"]
OnboardStep = Literal["language", "level", "topics", "timezone", "daily_time"]


class _State(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class MenuButton(_State):
    label: str
    action: str


class Menu(_State):
    """Buttons the last reply showed that wait for a press (`waits_for`: the i18n key saying what they wait for)."""

    waits_for: str
    buttons: list[list[MenuButton]]


class Idle(_State):
    """Nothing asked. `last_attempt`: the answer graded or revealed last, whose reference a bare "ref" shows.
    `menu`: buttons shown last that wait for a press (the /mock Start menu): typed text is told what they wait for."""

    mode: Literal["idle"] = "idle"
    last_attempt: int | None = None
    menu: Menu | None = None


class Answering(_State):
    """A question of the user's deck is asked: the next text answers card `card_id`."""

    mode: Literal["answering"] = "answering"
    card_id: int


class FollowingUp(_State):
    """The follow-up question `text` of attempt `parent` (on card `card_id`) is asked."""

    mode: Literal["follow_up"] = "follow_up"
    card_id: int
    text: str
    parent: int


class Grading(_State):
    """An answer to card `card_id` is being graded (claimed: a second answer is refused meanwhile)."""

    mode: Literal["grading"] = "grading"
    card_id: int


class Onboarding(_State):
    """/start is asking the setting `step`."""

    mode: Literal["onboard"] = "onboard"
    step: OnboardStep


class ConfirmingForget(_State):
    """/forget asked "delete everything?"."""

    mode: Literal["confirm_forget"] = "confirm_forget"


class Forgotten(_State):
    """A blank user where one was deleted by /forget, for the identity still chatting: the next message, whatever
    it is, is greeted and starts onboarding (never a silent default user)."""

    mode: Literal["forgotten"] = "forgotten"


class InFlow(_State):
    """A step-by-step /review or /interview: the values given so far, and the field asked (or "confirm")."""

    mode: Literal["flow"] = "flow"
    flow: FlowKind
    data: dict[str, str]
    step: str


class PickingReview(_State):
    """A logged review item (`item`, filed as personal question `personal`) may be one of the bank's `candidates`."""

    mode: Literal["review_pick"] = "review_pick"
    item: int
    personal: str
    candidates: list[str]


class InMock(_State):
    """A mock interview (`mock_id`) is running: the next text or voice answers its open question. `step` counts
    the answers given; `grading` claims one being graded (a second answer at the same step is refused)."""

    mode: Literal["mock"] = "mock"
    mock_id: int
    step: int = 0
    grading: bool = False


class InCareer(_State):
    """A career tool (`tool`: jd, notes, apps, debrief, or "file" for a sent file not yet placed) waits for
    the user's text at `step`; `data` holds what it was given so far."""

    mode: Literal["career"] = "career"
    tool: str
    step: str
    data: dict[str, str] = Field(default_factory=dict)


Session = Annotated[
    Idle
    | Answering
    | FollowingUp
    | Grading
    | Onboarding
    | ConfirmingForget
    | Forgotten
    | InFlow
    | PickingReview
    | InMock
    | InCareer,
    Field(discriminator="mode"),
]
_ADAPTER: TypeAdapter[Session] = TypeAdapter(Session)


def open_card_id(session: Session) -> int | None:
    """What question is open now: the card being answered (its question or a follow-up on it), else None."""
    match session:
        case Answering(card_id=card_id) | FollowingUp(card_id=card_id):
            return card_id
    return None


def dump_session(session: Session) -> dict[str, Any]:
    """The stored form: the same fields in the same order every time (the store compares it as text)."""
    return session.model_dump(mode="json", exclude_none=True)


def parse_session(raw: object, user_id: int | None = None) -> Session:
    """The stored state read back; no state (no row, or `{}`) is Idle, and so is one that does not parse."""
    if raw is None or raw == {}:
        return Idle()
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        what = f"mode {str(raw.get('mode'))[:40]!r}" if isinstance(raw, dict) else f"a {type(raw).__name__}"
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '-'}: {e['type']}" for e in exc.errors())
        log.warning("user %s: unreadable session state (%s: %s); read as idle", user_id, what, problems)
        return Idle()
