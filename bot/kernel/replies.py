"""Platform-neutral output. Each platform renders a Reply its own way."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Button:
    """A button: `label` is shown, `action` is sent back (short, <= 64 bytes for Telegram)."""

    label: str
    action: str


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    mime: str


@dataclass(frozen=True)
class Reply:
    text: str
    buttons: list[list[Button]] = field(default_factory=list)
    image: Attachment | None = None
    file: Attachment | None = None
    kind: str = "info"
    ask_text: bool = False
    default_action: str | None = None
    """What an empty line presses in the terminal (a suggested rating): one keystroke. Elsewhere it is a button."""
    waits_for: str | None = None
    """The i18n key of what this reply's buttons wait for (press Start, pick a focus): text typed while they wait
    is answered with it, and the buttons again, rather than taken for an answer or "no open question"."""
    promise: bool = False
    """The reply promises a push later (the daily drill, a reminder): a platform that delivers pushes only while it
    is open (the terminal) says so beside it."""

    def actions(self) -> list[str]:
        return [b.action for row in self.buttons for b in row]
