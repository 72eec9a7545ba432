"""What the service dispatches to, declared by the features and handed over by the composition root.

The kernel knows commands, sessions and replies, never a feature: `bot/features/routes.py` says which feature
handles each command, what typed text means in each feature's state, and the few hooks the service calls around
a command (a /review flow told what happened to it, an offline check waiting for its rating). It registers itself
when imported (`register`), as aiogram's routers are included at the root: the composition root imports it, and so
does the tests' conftest; a Service built with no routes uses the registered ones.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from bot.kernel import commands as c
from bot.kernel.deps import Record
from bot.kernel.models import User
from bot.kernel.replies import Reply
from bot.kernel.session import InFlow, Session

Handler = Callable[..., Awaitable[list[Reply]]]
"""A command's handler: its parameters name what it is given (bot/kernel/inject.py): `cmd`, `user`, `session` (the
user's state, as `handle` read it with the user) and the dependencies it uses (a store port, the bank, the clock ...)."""


class Routes(Protocol):
    @property
    def jobs(self) -> Mapping[type[c.Job], JobHandler]: ...

    @property
    def handlers(self) -> Mapping[type[c.Command], Handler]: ...

    async def greet(self, deps: Record, user: User) -> list[Reply]:
        """A user's first message after /forget, whatever it is: the welcome and onboarding."""
        ...

    async def flow_action(self, cmd: c.FlowAction, deps: Record, user: User, before: Session) -> list[Reply]: ...

    async def after_command(
        self, before: InFlow, replies: list[Reply], deps: Record, user: User, restart: bool
    ) -> list[Reply]:
        """A command that came while a step-by-step flow waited: the flow kept or dropped, the user told."""
        ...

    async def waiting_rating(self, deps: Record, user: User, attempt_id: int) -> Reply | None:
        """The rating prompt of an offline check still waiting for the user's rating, else None."""
        ...

    async def free_text(self, cmd: c.FreeText, deps: Record, user: User, session: Session) -> list[Reply] | None:
        """Typed text in a feature's state (an open question, onboarding, a flow ...); None when no state takes it."""
        ...


class Dispatch(Protocol):
    """Another command run for the same user within the one being handled (its lock held, its state as given), as
    the service runs a command (cosmicpython's message bus): what a handler names `dispatch` to hand on what it
    made (a voice note's transcript, answered as if typed) without knowing who takes it."""

    async def __call__(self, cmd: c.Command, user: User, session: Session) -> list[Reply]: ...


JobHandler = Callable[..., Awaitable[int]]
"""A job's handler (a `c.Job` the scheduler sends): its parameters name what it is given, as a command's handler's
do: `job`, `notify` (how to reach users, the notifier router; None: tell no one) and the dependencies it uses; it
returns how many things it did."""
JOB_CALL = ("job", "notify")
"""What a job's handler is given per call."""
_registered: Routes | None = None


def register(routes: Routes) -> None:
    global _registered
    _registered = routes


def registered() -> Routes:
    if _registered is None:
        raise LookupError("no feature routes registered: import bot.features.routes (the composition root does)")
    return _registered
