"""What a career tool (/jd, /notes, /apps, /debrief) gives the router (bot/features/career/router.py): three
handlers and, when a sent file may be its input, the label of its "what is this file?" button."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.features.deps import Deps
from bot.kernel.actions import ToolAction
from bot.kernel.models import User
from bot.kernel.replies import Reply
from bot.kernel.session import InCareer

CommandHandler = Callable[[str, Deps, User], Awaitable[list[Reply]]]
ActionHandler = Callable[[str, Deps, User], Awaitable[list[Reply]]]
TextHandler = Callable[[str, Deps, User, InCareer], Awaitable[list[Reply]]]
PressHandler = Callable[[ToolAction, Deps, User], Awaitable[list[Reply]]]


@dataclass(frozen=True)
class Tool:
    command: CommandHandler
    """The command's words (after /jd ...)."""
    action: ActionHandler
    """A button's argument (after cr:<tool>:)."""
    text: TextHandler
    """Text (typed, or read from a file: step "file") while the tool's `InCareer` session waits for it."""
    file_label: str | None = None
    """The i18n key of its "what is this file?" button when a sent file may be this tool's input (a file
    arriving while no tool waits for text); None: files are not for this tool."""
    press: PressHandler | None = None
    """A button whose payload the tool typed (a `ToolAction`, decoded by the kernel); `action` gets the rest."""
