"""The /apps buttons' typed payloads (bot/kernel/actions.py): `cr:apps:<verb>[:<id>...]`, decoded once, by the
kernel, and handed to `apps.press` as they are. Importing this module registers them."""

from __future__ import annotations

from bot.kernel.actions import Id, ToolAction


class Board(ToolAction, prefix="cr:apps:board"):
    pass


class Insights(ToolAction, prefix="cr:apps:ins"):
    pass


class Add(ToolAction, prefix="cr:apps:add"):
    pass


class Skip(ToolAction, prefix="cr:apps:skip"):
    """Skip a step of the step-by-step add."""


class Cancel(ToolAction, prefix="cr:apps:cancel"):
    """Cancel the step-by-step add, or the note asked for."""


class OnApplication(ToolAction):
    """A button on one of the user's applications (checked against the user when pressed)."""

    id: Id


class Show(OnApplication, prefix="cr:apps:show"):
    pass


class Move(OnApplication, prefix="cr:apps:mv"):
    stage: str
    round: Id = 0


class Note(OnApplication, prefix="cr:apps:note"):
    pass


class Remind(OnApplication, prefix="cr:apps:rem"):
    days: Id | None = None
    """None: ask how many days."""


class RemindOff(OnApplication, prefix="cr:apps:remoff"):
    pass


class Delete(OnApplication, prefix="cr:apps:del"):
    """Asks first."""


class DeleteConfirmed(OnApplication, prefix="cr:apps:delok"):
    pass
