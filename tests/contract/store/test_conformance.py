"""The contract covers the ports: the fake and the SQL stores implement every port method with the port's
signature, `Store` is exactly its ports, and every port method is called somewhere in this suite."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.features.apps.ports import ApplicationsPort
from bot.features.deps import FeatureStore
from bot.features.jd.ports import JobsPort
from bot.features.mock.ports import MocksPort
from bot.features.notebook.ports import NotebookPort
from bot.kernel import store_ports as P
from bot.storage.pushes import PushStore
from bot.storage.store import SqlStore
from tests.fakes import FakeStore

KERNEL_PORTS = (
    P.UsersPort,
    P.CardsPort,
    P.AttemptsPort,
    P.LLMBudgetPort,
    P.InterviewsPort,
    P.RemindersPort,
    P.GuildsPort,
)
FEATURE_PORTS = (MocksPort, JobsPort, NotebookPort, ApplicationsPort)
STORE_PORTS = KERNEL_PORTS + FEATURE_PORTS
HERE = Path(__file__).parent


def methods(port: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(fn)
        for name, fn in vars(port).items()
        if inspect.iscoroutinefunction(fn) and not name.startswith("_")
    }


def shape(sig: inspect.Signature) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


@pytest.mark.parametrize("impl", [FakeStore, SqlStore])
@pytest.mark.parametrize("port", STORE_PORTS, ids=lambda p: p.__name__)
def test_each_store_implements_the_port_with_its_signature(impl: type, port: type) -> None:
    for name, sig in methods(port).items():
        assert inspect.iscoroutinefunction(getattr(impl, name, None)), f"{impl.__name__}.{name} is missing"
        assert shape(inspect.signature(getattr(impl, name))) == shape(sig), f"{impl.__name__}.{name}"


def test_the_push_store_implements_the_push_port() -> None:
    for name, sig in methods(P.PushPort).items():
        assert shape(inspect.signature(getattr(PushStore, name))) == shape(sig), name


def test_store_is_its_ports_and_they_do_not_overlap() -> None:
    names = [name for port in STORE_PORTS for name in methods(port)]
    assert len(names) == len(set(names))
    kernel = {name for port in KERNEL_PORTS for name in methods(port)}
    assert methods(P.Store) == {} and {n for n in dir(P.Store) if not n.startswith("_")} == kernel
    assert methods(FeatureStore) == {} and {n for n in dir(FeatureStore) if not n.startswith("_")} == set(names)


def called_in_suite() -> set[str]:
    called = set()
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                called.add(node.func.attr)
    return called


@pytest.mark.parametrize("port", [*STORE_PORTS, P.PushPort], ids=lambda p: p.__name__)
def test_every_port_method_is_exercised_by_the_contract(port: type) -> None:
    assert set(methods(port)) - called_in_suite() == set()
