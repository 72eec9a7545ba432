"""Handlers name what they use: each parameter of a handler is a dependency, picked by its name (as cosmicpython's
bootstrap `inject_dependencies`).

A handler is written as `async def show_stats(cmd: c.ShowStats, user: User, cards: CardsPort, clock: Clock)`: the
composition root builds one map of what it made (each store port by its name, the bank, the clock, the limits,
the grader ...: `Deps.provided()`), and the service binds every handler against it once, when it is built. A
parameter that names nothing in the map (and is not one of the per-call values, `cmd`, `user`, `session`) fails
then, at start-up, naming the handler and the parameter, never when a user first sends the command.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

PER_CALL = ("cmd", "user", "session")
"""What a handler is given per command: the command, its user and the user's state (as read with the user)."""

AnyHandler = Callable[..., Awaitable[Any]]


class UnknownDependency(LookupError):
    """A handler names a parameter that nothing provides (a typo, or a dependency the root does not build)."""


@dataclass(frozen=True)
class Bound:
    """A handler with its dependencies picked: call it with the per-call values. What it names is read from the map
    at each call (a test that swaps the clock or the limits of a built service is seen)."""

    handler: AnyHandler
    provided: Mapping[str, object]
    names: tuple[str, ...]
    """The dependencies the handler named (not the per-call values), in its order."""
    per_call: tuple[str, ...]

    async def __call__(self, **call: object) -> Any:
        given = {name: self.provided[name] for name in self.names}
        return await self.handler(**{name: call[name] for name in self.per_call}, **given)


class _With(Mapping[str, object]):
    def __init__(self, base: Mapping[str, object], extra: dict[str, object]) -> None:
        self._base, self._extra = base, extra

    def __getitem__(self, name: str) -> object:
        return self._extra[name] if name in self._extra else self._base[name]

    def __iter__(self) -> Iterator[str]:
        return iter([*self._extra, *(name for name in self._base if name not in self._extra)])

    def __len__(self) -> int:
        return len(set(self._base) | set(self._extra))


def with_names(base: Mapping[str, object], **extra: object) -> Mapping[str, object]:
    """`base` and `extra` (read first): the map as it is, each of its values still read when asked."""
    return _With(base, extra)


def parameters(handler: AnyHandler) -> list[str]:
    """The names of the handler's parameters, in order."""
    return list(inspect.signature(handler).parameters)


def bind(handler: AnyHandler, provided: Mapping[str, object], per_call: tuple[str, ...] = PER_CALL) -> Bound:
    """`handler` with what it names taken from `provided`; UnknownDependency for a name that is in neither."""
    given: list[str] = []
    called: list[str] = []
    for name in parameters(handler):
        if name in per_call:
            called.append(name)
        elif name in provided:
            given.append(name)
        else:
            where = f"{getattr(handler, '__module__', '?')}.{getattr(handler, '__qualname__', handler)!s}"
            known = ", ".join(sorted({*provided, *per_call}))
            raise UnknownDependency(f"{where} names {name!r}, which nothing provides (known: {known})")
    return Bound(handler, provided, tuple(given), tuple(called))


def bind_all(
    handlers: Mapping[type, AnyHandler], provided: Mapping[str, object], per_call: tuple[str, ...] = PER_CALL
) -> dict[type, Bound]:
    """Every handler bound (the first unknown name raises)."""
    return {key: bind(handler, provided, per_call) for key, handler in handlers.items()}


G = TypeVar("G")


def build(group: type[G], provided: Mapping[str, object]) -> G:
    """A feature's dependency group (a dataclass of the ports it uses, as bot/features/stats/report.py History)
    built from the map, each field by its name: for a caller that holds the map, not the handler's parameters (a
    hook, a benchmark). UnknownDependency for a field that names nothing."""
    names = [f.name for f in fields(group)]  # type: ignore[arg-type]
    missing = [name for name in names if name not in provided]
    if missing:
        raise UnknownDependency(f"{group.__qualname__} names {missing[0]!r}, which nothing provides")
    return group(**{name: provided[name] for name in names})
