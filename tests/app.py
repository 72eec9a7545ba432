"""One app builder for tests: the composition root (bot/bootstrap.py `compose`) over hand-written fakes, any part
swapped by name: `build_test_app(bank, clock=FakeClock(...), charts=FakeChartRenderer())`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.bootstrap import compose
from bot.features.deps import Deps, Limits
from bot.grading.chain import GradingChain
from bot.kernel.bank import Bank
from bot.kernel.ports import Grader
from bot.kernel.service import Service
from bot.kernel.user_lock import UserLock
from tests.fakes import FakeClock, FakeGrader, FakeStore


@dataclass
class TestApp:
    """What a test drives (the service) and what it looks into (the record: its fake store, clock, bank ...)."""

    __test__ = False  # not a test class, whatever pytest's name rule says

    deps: Deps
    service: Service

    @property
    def store(self) -> FakeStore:
        assert isinstance(self.deps.store, FakeStore)
        return self.deps.store


def build_test_app(
    bank: Bank,
    *,
    grader: Grader | None = None,
    estimator: Grader | None = None,
    user_lock: UserLock | None = None,
    **overrides: Any,
) -> TestApp:
    """The app over fakes: a FakeStore, `grader` (a FakeGrader by default) in the grading chain (with `estimator`
    beside it), a FakeClock, limits without fuzz; any other field of `Deps` by name (`store=`, `clock=`, `limits=`,
    `charts=` ...)."""
    parts: dict[str, Any] = {"store": FakeStore(), "clock": FakeClock(), "limits": Limits(fuzz=False), **overrides}
    deps = Deps(bank=bank, grader=GradingChain(grader or FakeGrader(), estimator), **parts)
    return TestApp(deps, compose(deps, user_lock))
