"""A slow step under way for the user whose update is being handled, told to the adapter that carries the
update: "grading" (an LLM grading: shown at once instead of a silent wait) and "waiting" (the update waits on
work outside the event loop, an LLM or the worker pool: nothing is shown, but the adapter may lend what the
update holds to others meanwhile, as Telegram's working slot).

The adapter listens for the time it handles one update (`listening`); the core says what started (`started`).
A context variable carries the listener, so concurrent updates each reach their own, and code run with no
listener (a push, a regrade, a test of the core alone) says it to no one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal

Step = Literal["grading", "waiting"]
_listener: ContextVar[Callable[[Step], None] | None] = ContextVar("progress_listener", default=None)


@contextmanager
def listening(callback: Callable[[Step], None]) -> Iterator[None]:
    """While the block runs, `callback` hears each slow step the core starts (it must not block: schedule work)."""
    token = _listener.set(callback)
    try:
        yield
    finally:
        _listener.reset(token)


def started(step: Step) -> None:
    """A slow step starts now (the LLM is grading): the adapter handling this update shows it."""
    callback = _listener.get()
    if callback is not None:
        callback(step)
