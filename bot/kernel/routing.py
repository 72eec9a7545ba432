"""What the service dispatches to, declared by the features and handed over by the composition root.

The kernel knows commands, sessions and replies, never a feature: `bot/features/routes.py` says which feature
handles each command, what typed text means in each feature's state, and the few hooks the service calls around
a command (a /review flow told what happened to it, an offline check waiting for its rating). It registers itself
when imported (`register`), as aiogram's routers are included at the root: the composition root imports it, and so
does the tests' conftest; a Service built with no routes uses the registered ones.

A hook names what it uses as a handler does (bot/kernel/inject.py): the values the service gives it per call
(`HOOK_CALLS`) and the dependencies it uses, bound when the service is built.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.kernel import commands as c
from bot.kernel.inject import bind
from bot.kernel.models import User
from bot.kernel.replies import Reply
from bot.kernel.session import Session

Handler = Callable[..., Awaitable[list[Reply]]]
"""A command's handler: its parameters name what it is given (bot/kernel/inject.py): `cmd`, `user`, `session` (the
user's state, as `handle` read it with the user) and the dependencies it uses (a store port, the bank, the clock ...)."""
Hook = Callable[..., Awaitable[Any]]
"""A hook the service calls around a command: its parameters name what it is given, as a handler's."""


@dataclass(frozen=True)
class Hooks:
    """The features' hooks: each is given, by name, its per-call values (`HOOK_CALLS`) and what else it names."""

    greet: Hook
    """A user's first message after /forget, whatever it is: the welcome and onboarding (given `user`, `session`);
    -> list[Reply]."""
    flow_action: Hook
    """A button of a step-by-step flow (given `cmd`, a c.FlowAction, `user`, `session`); -> list[Reply]."""
    after_command: Hook
    """A command that came while a step-by-step flow waited: the flow kept or dropped, the user told (given
    `before`, the InFlow state it came in, `replies`, the command's, `user`, `restart`: the same flow started
    again); -> list[Reply]."""
    waiting_rating: Hook
    """The rating prompt of an offline check still waiting for the user's rating (given `user`, `attempt_id`);
    -> Reply | None."""
    free_text: Hook
    """Typed text in a feature's state: an open question, onboarding, a flow ... (given `cmd`, a c.FreeText, `user`,
    `session`); -> list[Reply], or None when no state takes it."""


HOOK_CALLS: dict[str, tuple[str, ...]] = {
    "greet": ("user", "session"),
    "flow_action": ("cmd", "user", "session"),
    "after_command": ("before", "replies", "user", "restart"),
    "waiting_rating": ("user", "attempt_id"),
    "free_text": ("cmd", "user", "session"),
}
"""What the service gives each hook per call."""


def bind_hooks(hooks: Hooks, provided: Mapping[str, object]) -> Hooks:
    """Every hook with what it names from `provided`: a name nothing provides raises UnknownDependency here."""
    return Hooks(**{name: bind(getattr(hooks, name), provided, per_call) for name, per_call in HOOK_CALLS.items()})


class Routes(Protocol):
    @property
    def jobs(self) -> Mapping[type[c.Job], JobHandler]: ...

    @property
    def handlers(self) -> Mapping[type[c.Command], Handler]: ...

    @property
    def hooks(self) -> Hooks: ...


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
