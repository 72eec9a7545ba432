"""Handlers name what they use: each parameter of a handler is a dependency, picked by its name (as cosmicpython's
bootstrap `inject_dependencies`).

A handler is written as `async def show_stats(cmd: c.ShowStats, user: User, cards: CardsPort, clock: Clock)`: the
composition root builds one map of what it made (each store port by its name, the bank, the clock, the limits,
the grader ...: `Deps.provided()`), and the service binds every handler against it once, when it is built. A
parameter that names nothing in the map (and is not one of the per-call values, `cmd`, `user`, `session`) fails
then, at start-up, naming the handler and the parameter, never when a user first sends the command.

Where several handlers use the same ports together, they name one dependency group instead of each port: a frozen
dataclass marked with `group` (`turns: Turns`, bot/features/mock/turn.py), built from the map by its field names at
each call (`build`); a field that names nothing fails when the handler is bound, as a parameter does.

A handler that hands its calls on to handlers of its own (the career router's tools, typed text by the user's state)
says so with `routes_to`: its table is bound with it, against the same map, so a name nothing provides among those
fails at start-up too; those handlers name their groups as any handler does (a career tool's `jobs: Jobs`).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Protocol, TypeVar, cast

PER_CALL = ("cmd", "user", "session")
"""What a handler is given per command: the command, its user and the user's state (as read with the user)."""

AnyHandler = Callable[..., Any]
"""A handler (a coroutine function, or a plain function where its caller wants no await: a study server's post)."""
GROUP_MARK = "__dependency_group__"


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
    groups: tuple[tuple[str, type], ...] = ()
    """The dependency groups it named (`group`): each built from the map at each call."""

    def __call__(self, **call: object) -> Any:
        """The handler's result (a coroutine function's: to await)."""
        given = {name: self.provided[name] for name in self.names}
        given.update({name: build(kind, self.provided) for name, kind in self.groups})
        return self.handler(**{name: call[name] for name in self.per_call}, **given)


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


class Table(Protocol):
    """Handlers that a handler hands its calls on to (bot/features/career/tool.py ToolTable: the career tools),
    bound with it (`routes_to`)."""

    def bind(self, provided: Mapping[str, object]) -> object:
        """What the handler is given: these handlers bound against `provided` (UnknownDependency for a name in
        none)."""
        ...


@dataclass(frozen=True)
class HandlerTable:
    """Handlers by name that a handler hands a call to (bot/features/routes.py: typed text, by the user's state), each
    naming what it uses and given `per_call` values: bound with the handler that routes to them (`routes_to`), each
    built group only when that one is called."""

    handlers: Mapping[str, AnyHandler]
    per_call: tuple[str, ...]

    def bind(self, provided: Mapping[str, object]) -> dict[str, Bound]:
        return {name: bind(handler, provided, self.per_call) for name, handler in self.handlers.items()}


TABLES = "__routes_to__"
H = TypeVar("H", bound=AnyHandler)


def routes_to(**tables: Table) -> Callable[[H], H]:
    """The handler's parameters of these names are given these tables, bound when the handler is bound (against the
    same map, so a name nothing provides among them fails at start-up too). The handler is returned as it is."""

    def mark(handler: H) -> H:
        setattr(handler, TABLES, tables)
        return handler

    return mark


G = TypeVar("G")


def group(cls: type[G]) -> type[G]:
    """Mark a frozen dataclass as a dependency group: a handler's parameter annotated with it is given it built from
    the map, each field by its name (`build`), what it names checked when the handler is bound."""
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen:
        raise TypeError(f"{cls.__qualname__}: a dependency group is a frozen dataclass")
    setattr(cls, GROUP_MARK, True)
    return cls


def is_group(kind: object) -> bool:
    """A class marked with `group` (itself, not a subclass of one)."""
    return isinstance(kind, type) and kind.__dict__.get(GROUP_MARK) is True


def hints_of(handler: AnyHandler) -> dict[str, object]:
    """The handler's parameter annotations, resolved where they can be (most modules write them as strings);
    an annotation that cannot be is left as written."""
    try:
        return typing.get_type_hints(handler)
    except Exception:  # a name imported only for type checking, a partial ...: each one that resolves
        namespace = getattr(handler, "__globals__", {})
        found: dict[str, object] = {}
        for name, param in inspect.signature(handler).parameters.items():
            found[name] = param.annotation
            if isinstance(param.annotation, str):
                try:
                    found[name] = eval(param.annotation, dict(namespace))  # the module's own annotation
                except Exception:
                    continue
        return found


def _where(handler: AnyHandler) -> str:
    return f"{getattr(handler, '__module__', '?')}.{getattr(handler, '__qualname__', handler)!s}"


def bind(handler: AnyHandler, provided: Mapping[str, object], per_call: tuple[str, ...] = PER_CALL) -> Bound:
    """`handler` with what it names taken from `provided` (a dependency group built from it; a table it routes to:
    bound now); UnknownDependency for a name that is in neither, or a group's field that names nothing."""
    tables: Mapping[str, Table] = getattr(handler, TABLES, {})
    given: list[str] = []
    called: list[str] = []
    groups: list[tuple[str, type]] = []
    bound: dict[str, object] = {}
    hints: dict[str, object] | None = None
    for name in parameters(handler):
        if name in per_call:
            called.append(name)
            continue
        if name in tables:
            bound[name] = tables[name].bind(provided)
            given.append(name)
            continue
        hints = hints_of(handler) if hints is None else hints
        kind = hints.get(name)
        if isinstance(kind, type) and is_group(kind):
            missing = [f.name for f in fields(kind) if f.name not in provided]
            if missing:
                raise UnknownDependency(
                    f"{_where(handler)} names {name!r}, a {kind.__qualname__} whose {missing[0]!r} nothing provides"
                )
            groups.append((name, kind))
        elif name in provided:
            given.append(name)
        else:
            known = ", ".join(sorted({*provided, *per_call}))
            raise UnknownDependency(f"{_where(handler)} names {name!r}, which nothing provides (known: {known})")
    mapped = with_names(provided, **bound) if bound else provided
    return Bound(handler, mapped, tuple(given), tuple(called), tuple(groups))


def bind_all(
    handlers: Mapping[type, AnyHandler], provided: Mapping[str, object], per_call: tuple[str, ...] = PER_CALL
) -> dict[type, Bound]:
    """Every handler bound (the first unknown name raises)."""
    return {key: bind(handler, provided, per_call) for key, handler in handlers.items()}


@functools.cache
def field_names(group: type) -> tuple[str, ...]:
    """A group's field names, in order (worked out once per group: a group is built at every call)."""
    return tuple(f.name for f in fields(group))


def _fields(group: type, provided: Mapping[str, object]) -> tuple[str, ...]:
    """The group's field names; UnknownDependency for the first that names nothing in the map."""
    names = field_names(group)
    missing = [name for name in names if name not in provided]
    if missing:
        raise UnknownDependency(f"{group.__qualname__} names {missing[0]!r}, which nothing provides")
    return names


def build(group: type[G], provided: Mapping[str, object]) -> G:
    """A feature's dependency group (a dataclass of the ports it uses, as bot/features/stats/report.py History)
    built from the map, each field by its name: what a handler's parameter annotated with a `group` is given, and
    what a caller that holds the map builds itself (a test, a benchmark). UnknownDependency for a field that names
    nothing."""
    try:
        return group(**{name: provided[name] for name in field_names(cast(type, group))})
    except KeyError:
        _fields(group, provided)  # says which field names nothing
        raise
