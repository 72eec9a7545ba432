"""What the kernel reads of the composition root's record (bot/features/deps.py `Deps`): the store as the kernel's
ports, the clock, the limits, and the map of what a handler may name (bot/kernel/inject.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from bot.kernel.limits import DataFacts as DataFacts  # re-exported: where older callers import them
from bot.kernel.limits import Limits as Limits
from bot.kernel.ports import Clock
from bot.kernel.store_ports import Store


class Core(Protocol):
    """The composition root's record, as the kernel (the service, the scheduler's dispatcher) reads it."""

    @property
    def store(self) -> Store: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def limits(self) -> Limits: ...

    def provided(self) -> Mapping[str, object]:
        """What a handler may name, by name (bot/kernel/inject.py)."""
        ...
