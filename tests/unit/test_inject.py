"""Handlers name what they use (bot/kernel/inject.py): bound by parameter name when the service is built, an unknown
name failing then; the handlers still taking the whole `deps` are listed (the list may only shrink); no port has
more than 15 methods."""

from __future__ import annotations

import ast
import functools
import importlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.career.router import TOOLS
from bot.features.deps import Deps
from bot.features.routes import ROUTES
from bot.features.stats.report import History
from bot.kernel import commands as c
from bot.kernel.inject import (
    Bound,
    HandlerTable,
    UnknownDependency,
    bind,
    build,
    group,
    hints_of,
    is_group,
    parameters,
    routes_to,
    with_names,
)
from bot.kernel.models import User
from bot.kernel.ports import Clock, Notify
from bot.kernel.registry import REGISTRY
from bot.kernel.replies import Reply
from bot.kernel.routing import HOOK_CALLS, Handler, Hooks, JobHandler
from bot.kernel.service import Service
from bot.kernel.session import Session
from bot.kernel.store_ports import CardsPort
from tests.fakes import NO_HOOKS, FakeClock

BOT = Path(__file__).resolve().parents[2] / "bot"
MAX_PORT_METHODS = 15

HANDLERS_TAKING_DEPS: set[str] = set()
"""Debts: registered handlers (and the career tools' handlers) that still take the whole `deps` (the composition root's
record) instead of naming what they use. The list may only shrink: a handler converted is taken off it (the test
fails until it is); it is empty, and a handler taking `deps` again fails."""
HOOKS_TAKING_DEPS: set[str] = set()
"""Debts: the routes' hooks that still take the whole `deps`. Empty: a hook taking `deps` again fails."""


class OneHandler:
    """Routes of one command (/help) whose handler is given, of one job (the regrade round) and hooks when given: a
    hand-written fake."""

    def __init__(self, handler: Handler, job: JobHandler | None = None, hooks: Hooks = NO_HOOKS) -> None:
        self._handlers: dict[type[c.Command], Handler] = {c.ShowHelp: handler}
        self._jobs: dict[type[c.Job], JobHandler] = {c.RegradeRound: job} if job else {}
        self._hooks = hooks

    @property
    def jobs(self) -> Mapping[type[c.Job], JobHandler]:
        return self._jobs

    @property
    def handlers(self) -> Mapping[type[c.Command], Handler]:
        return self._handlers

    @property
    def hooks(self) -> Hooks:
        return self._hooks


@group
@dataclass(frozen=True)
class Dues:
    """A dependency group of two: what the group tests' handler names as one parameter."""

    cards: CardsPort
    clock: Clock


@group
@dataclass(frozen=True)
class Typo:
    cards: CardsPort
    clok: Clock


@dataclass(frozen=True)
class Unmarked:
    """The same fields as Dues, not marked as a group: the control case."""

    cards: CardsPort
    clock: Clock


def qualified(handler: Handler) -> str:
    return f"{handler.__module__}.{handler.__qualname__}"


async def test_a_handler_is_given_what_it_names(deps: Deps) -> None:
    seen: dict[str, object] = {}

    async def show(cmd: c.ShowHelp, user: User, cards: CardsPort, clock: Clock, session: Session) -> list[Reply]:
        seen.update(cmd=cmd, user=user, cards=cards, clock=clock, session=session)
        return [Reply(f"due {await cards.count_due(user.id, clock.now())}")]

    service = Service(deps, routes=OneHandler(show))
    user = await service.user_for("test", "u1", "en")
    assert [r.text for r in await service.handle_text(user.id, "/help")] == ["due 0"]
    assert seen["cards"] is deps.store and seen["clock"] is deps.clock
    assert seen["cmd"] == c.ShowHelp(user.id) and seen["user"] == user
    assert seen["session"] == await deps.store.get_session(user.id)


async def test_an_unknown_name_fails_when_the_service_is_built_not_when_called(deps: Deps) -> None:
    called: list[str] = []

    async def show(cmd: c.ShowHelp, user: User, cardz: CardsPort) -> list[Reply]:
        called.append("show")
        return []

    with pytest.raises(UnknownDependency, match=r"test_inject\..*show names 'cardz', which nothing provides"):
        Service(deps, routes=OneHandler(show))
    assert called == []


def test_the_whole_record_is_not_a_dependency_a_handler_may_name(deps: Deps) -> None:
    """`deps`, the composition root's record, is given to no handler: one naming it fails when the service is built."""

    async def show(cmd: c.ShowHelp, user: User, deps: Deps) -> list[Reply]:
        return []

    assert "deps" not in deps.provided() and "cards" in deps.provided()
    with pytest.raises(UnknownDependency, match=r"show names 'deps', which nothing provides"):
        Service(deps, routes=OneHandler(show))


def test_bind_names_the_known_dependencies_in_its_error() -> None:
    async def handler(cmd: c.ShowHelp, clok: Clock) -> list[Reply]:
        return []

    with pytest.raises(UnknownDependency, match=r"known: clock, cmd, session, user"):
        bind(handler, {"clock": object()})


async def test_a_table_a_handler_routes_to_is_bound_with_it_and_given_bound() -> None:
    """The career router's shape (bot/features/career/router.py): its tools are bound when it is."""
    bound_with: list[Mapping[str, object]] = []

    class Table:
        def bind(self, provided: Mapping[str, object]) -> str:
            bound_with.append(provided)
            return "the table, bound"

    @routes_to(table=Table())
    async def handler(cmd: c.ShowHelp, table: str, clock: Clock) -> list[Reply]:
        return [Reply(table)]

    provided: dict[str, object] = {"clock": object()}
    bound = bind(handler, provided)
    assert bound_with == [provided] and bound.names == ("table", "clock")
    assert [r.text for r in await bound(cmd=c.ShowHelp(1), user=None, session=None)] == ["the table, bound"]


def test_a_dependency_group_is_built_by_its_field_names(deps: Deps) -> None:
    history = build(History, deps.provided())
    assert history.attempts is deps.store and history.clock is deps.clock and history.charts is deps.charts

    @dataclass(frozen=True)
    class Typo:
        clock: Clock
        cardz: CardsPort

    with pytest.raises(UnknownDependency, match=r"Typo names 'cardz', which nothing provides"):
        build(Typo, deps.provided())


async def test_a_handler_naming_a_group_is_given_it_built_from_the_map_at_each_call(deps: Deps) -> None:
    seen: list[Dues] = []

    async def show(cmd: c.ShowHelp, user: User, dues: Dues) -> list[Reply]:
        seen.append(dues)
        return [Reply(f"due {await dues.cards.count_due(user.id, dues.clock.now())}")]

    service = Service(deps, routes=OneHandler(show))
    user = await service.user_for("test", "u1", "en")
    assert [r.text for r in await service.handle_text(user.id, "/help")] == ["due 0"]
    assert seen[0] == Dues(deps.store, deps.clock)
    deps.clock = later = FakeClock(deps.clock.now())  # a test swapping the clock of a built service
    await service.handle_text(user.id, "/help")
    assert seen[1].clock is later and seen[1].cards is deps.store


async def test_a_group_naming_what_nothing_provides_fails_when_the_service_is_built(deps: Deps) -> None:
    called: list[str] = []

    async def show(cmd: c.ShowHelp, user: User, dues: Typo) -> list[Reply]:
        called.append("show")
        return []

    with pytest.raises(UnknownDependency, match=r"show names 'dues', a Typo whose 'clok' nothing provides"):
        Service(deps, routes=OneHandler(show))
    assert called == []


def test_only_a_marked_dataclass_is_built_as_a_group(deps: Deps) -> None:
    """The control case: the same fields unmarked are a parameter like any other, which nothing provides."""

    async def show(cmd: c.ShowHelp, user: User, dues: Unmarked) -> list[Reply]:
        return []

    assert is_group(Dues) and not is_group(Unmarked)
    with pytest.raises(UnknownDependency, match=r"names 'dues', which nothing provides"):
        bind(show, deps.provided())
    bound = bind(show, {**deps.provided(), "dues": "given by name"})
    assert bound.groups == () and bound.names == ("dues",)


def test_a_group_is_a_frozen_dataclass() -> None:
    @dataclass
    class Loose:
        clock: Clock

    with pytest.raises(TypeError, match="Loose: a dependency group is a frozen dataclass"):
        group(Loose)
    with pytest.raises(TypeError, match="a dependency group is a frozen dataclass"):
        group(OneHandler)


async def test_a_job_names_what_it_uses_and_an_unknown_name_fails_at_build(deps: Deps) -> None:
    async def show(cmd: c.ShowHelp, user: User) -> list[Reply]:
        return []

    seen: list[object] = []

    async def round_(job: c.RegradeRound, notify: Notify | None, dues: Dues) -> int:
        seen.extend([job, notify, dues])
        return 3

    service = Service(deps, routes=OneHandler(show, round_))
    assert await service.run_job(c.RegradeRound(limit=5)) == 3
    assert seen == [c.RegradeRound(limit=5), None, Dues(deps.store, deps.clock)]

    async def typo(job: c.RegradeRound, notify: Notify | None, clok: Clock) -> int:
        return 0

    with pytest.raises(UnknownDependency, match=r"typo names 'clok', which nothing provides"):
        Service(deps, routes=OneHandler(show, typo))


def test_the_registered_handlers_name_groups(deps: Deps) -> None:
    """The repeated lists of ports are groups now: /mock names its turns and planning, /forget what is kept."""
    service = Service(deps, routes=ROUTES)
    groups = {name: kind.__name__ for bound in service._bound.values() for name, kind in bound.groups}
    assert {"turns": "Turns", "planning": "Planning", "kept": "Kept", "answers": "Answers", "deck": "Deck"}.items() <= (
        groups.items()
    )


def test_the_career_tools_name_their_groups_as_any_handler_does(deps: Deps) -> None:
    """Each tool's handlers are given its group by the annotation (`@group`), bound against the map itself."""
    provided = Service(deps, routes=ROUTES).provided
    groups: dict[str, set[tuple[str, str]]] = {}
    for name, tool in TOOLS.items():
        bound = tool.bind(provided)
        handlers = [bound.on_command, bound.on_action, bound.on_text, *([bound.on_press] if bound.on_press else [])]
        groups[name] = {(param, kind.__name__) for handler in handlers for param, kind in handler.groups}
    assert groups == {
        "jd": {("jobs", "Jobs")},
        "notes": {("book", "Notebook")},
        "apps": {("tracker", "Tracker")},
        "debrief": {("debriefing", "Debriefing")},
    }


def test_every_registered_handler_binds_against_what_the_root_provides(deps: Deps) -> None:
    service = Service(deps, routes=ROUTES)  # raises on any unknown name
    assert "store" not in service.provided  # the store is given as its ports, never whole
    assert len(REGISTRY.handlers) == 33


def tool_handlers() -> list[Handler]:
    """The career tools' handlers (bot/features/career/router.py TOOLS), bound with the router."""
    found: list[Handler] = []
    for tool in TOOLS.values():
        found += [tool.command, tool.action, tool.text, *([tool.press] if tool.press else [])]
    return found


def test_the_handlers_taking_the_whole_deps_are_the_listed_debts() -> None:
    handlers = [*REGISTRY.handlers.values(), *tool_handlers()]
    assert len(handlers) == 33 + 13  # the four tools: 3 handlers each, and /apps' press
    taking = {qualified(h) for h in handlers if "deps" in parameters(h)}
    assert taking - HANDLERS_TAKING_DEPS == set(), "a handler took `deps` again: name what it uses instead"
    assert HANDLERS_TAKING_DEPS - taking == set(), "a debt is paid: take it off HANDLERS_TAKING_DEPS"


def test_the_hooks_taking_the_whole_deps_are_the_listed_debts() -> None:
    hooks = ROUTES.hooks
    assert set(HOOK_CALLS) == {f.name for f in fields(Hooks)}
    taking = {qualified(getattr(hooks, name)) for name in HOOK_CALLS if "deps" in parameters(getattr(hooks, name))}
    assert taking - HOOKS_TAKING_DEPS == set(), "a hook took `deps` again: name what it uses instead"
    assert HOOKS_TAKING_DEPS - taking == set(), "a debt is paid: take it off HOOKS_TAKING_DEPS"


def test_a_hook_naming_what_nothing_provides_fails_when_the_service_is_built(deps: Deps) -> None:
    async def show(cmd: c.ShowHelp, user: User) -> list[Reply]:
        return []

    async def greet(user: User, session: Session, clok: Clock) -> list[Reply]:
        return []

    with pytest.raises(UnknownDependency, match=r"greet names 'clok', which nothing provides"):
        Service(deps, routes=OneHandler(show, hooks=replace(NO_HOOKS, greet=greet)))
    Service(deps, routes=OneHandler(show))  # the control case: the same routes with hooks naming nothing else


async def test_a_hook_is_given_its_per_call_values_and_what_it_names(deps: Deps) -> None:
    seen: dict[str, object] = {}

    async def show(cmd: c.ShowHelp, user: User) -> list[Reply]:
        return []

    async def free_text(cmd: c.FreeText, user: User, session: Session, dues: Dues, clock: Clock) -> list[Reply]:
        seen.update(cmd=cmd, session=session, dues=dues, clock=clock)
        return [Reply("taken")]

    service = Service(deps, routes=OneHandler(show, hooks=replace(NO_HOOKS, free_text=free_text)))
    user = await service.user_for("test", "u1", "en")
    assert [r.text for r in await service.handle_text(user.id, "some words")] == ["taken"]
    assert seen == {
        "cmd": c.FreeText(user.id, "some words"),
        "session": await deps.store.get_session(user.id),
        "dues": Dues(deps.store, deps.clock),
        "clock": deps.clock,
    }


def port_modules() -> list[str]:
    """The modules that declare ports: the kernel's ports and store ports, each feature's `ports` module."""
    found = ["bot.kernel.ports", "bot.kernel.store_ports"]
    found += [f"bot.features.{p.parent.name}.ports" for p in sorted(BOT.glob("features/*/ports.py"))]
    return found


def declared_methods(module: str) -> dict[str, int]:
    """Each Protocol class of the module: the methods it declares itself."""
    tree = ast.parse(Path(importlib.import_module(module).__file__ or "").read_text(encoding="utf-8"))
    counts: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("Protocol") for b in node.bases):
            counts[node.name] = sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)
    return counts


def test_no_port_has_more_than_15_methods() -> None:
    counts = {f"{m}.{name}": n for m in port_modules() for name, n in declared_methods(m).items()}
    assert len(counts) >= 20
    assert {name: n for name, n in counts.items() if n > MAX_PORT_METHODS} == {}
    assert counts["bot.kernel.store_ports.Store"] == 0  # the union the adapter implements declares nothing


def test_the_method_count_sees_a_port_too_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control case: a port of 16 methods is counted as 16."""
    body = "".join(f"    async def m{i}(self) -> None: ...\n" for i in range(16))
    (tmp_path / "big_ports.py").write_text(f"from typing import Protocol\n\n\nclass Big(Protocol):\n{body}")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "big_ports", raising=False)  # a run before this one (mutmut's) imported another
    assert declared_methods("big_ports") == {"Big": 16}


BUILT: list[str] = []


@group
@dataclass(frozen=True)
class Counted:
    """A group that notes each time it is built."""

    clock: Clock

    def __post_init__(self) -> None:
        BUILT.append("counted")


async def test_a_handler_table_is_bound_with_its_router_and_builds_only_the_called_entrys_group(deps: Deps) -> None:
    built = BUILT
    built.clear()

    async def first(text: str, counted: Counted) -> str:
        return f"first {text}"

    async def second(text: str, clock: Clock) -> str:
        return f"second {text}"

    table = HandlerTable({"first": first, "second": second}, per_call=("text",))

    @routes_to(on=table)
    async def route(cmd: str, on: Mapping[str, Bound]) -> str:
        result: str = await on[cmd](text="hi")
        return result

    bound = bind(route, deps.provided(), ("cmd",))
    assert await bound(cmd="second") == "second hi" and built == []  # the other entry's group is not built
    assert await bound(cmd="first") == "first hi" and built == ["counted"]

    async def typo(text: str, clok: Clock) -> str:
        return text

    with pytest.raises(UnknownDependency, match=r"typo names 'clok'"):  # at bind time, through the router
        bind(routes_to(on=HandlerTable({"typo": typo}, ("text",)))(route), deps.provided(), ("cmd",))


def test_typed_text_goes_to_the_state_that_waits_for_it() -> None:
    from bot.features.routes import TEXT_IN, text_state
    from bot.kernel.session import ConfirmingForget, Idle, InCareer

    assert text_state(Idle()) is None
    assert text_state(InCareer(tool="jd", step="text")) == "career"
    assert text_state(ConfirmingForget()) == "forget"
    assert set(TEXT_IN.handlers) == {"answer", "mock", "onboarding", "grading", "flow", "career", "picking", "forget"}


def test_only_a_frozen_dataclass_can_be_a_group_and_the_mark_is_its_own() -> None:
    @dataclass(frozen=True)
    class Frozen:
        clock: Clock

    @dataclass
    class Thawed:
        clock: Clock

    class Plain:
        clock: Clock

    assert not is_group(Frozen)
    assert group(Frozen) is Frozen and is_group(Frozen)
    for wrong in (Thawed, Plain):
        with pytest.raises(TypeError, match="a dependency group is a frozen dataclass"):
            group(wrong)
        assert not is_group(wrong)

    @dataclass(frozen=True)
    class Child(Frozen):
        pass

    assert not is_group(Child) and not is_group(Frozen(clock=FakeClock(datetime(2026, 1, 1, tzinfo=UTC))))


async def test_a_group_is_found_even_when_another_annotation_cannot_be_resolved(deps: Deps) -> None:
    """typing.get_type_hints fails on a name imported only for type checking; each annotation that resolves is
    still read, in order, so a group after the unresolvable one is built."""

    async def handler(cmd: c.ShowHelp, later: NotImportedAnywhere, dues: Dues) -> Dues:  # type: ignore[name-defined]  # noqa: F821
        return dues

    hints = hints_of(handler)
    assert hints["later"] == "NotImportedAnywhere" and hints["dues"] is Dues and hints["cmd"] is c.ShowHelp
    bound = bind(handler, with_names(deps.provided(), later="a value"), ("cmd",))
    dues = await bound(cmd=c.ShowHelp(1))
    assert dues == Dues(deps.store, deps.clock)


def test_an_unknown_name_in_a_callable_without_a_qualified_name_is_reported_by_what_it_is() -> None:
    async def handler(cmd: c.ShowHelp, clok: Clock) -> list[Reply]:
        return []

    with pytest.raises(UnknownDependency, match=r"^functools\.functools\.partial\(<function .*handler.*names 'clok'"):
        bind(functools.partial(handler), {}, ("cmd",))
