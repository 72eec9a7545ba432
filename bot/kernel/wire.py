"""The moment a push leaves for the platform, so the scheduler can record it just before.

Telegram and Discord take no idempotency key: if the bot dies after the platform received a
message but before the database said so, nothing can tell that apart from dying just before the
request. The scheduler therefore delivers at most once: it hands the notifier an `about_to_send`
callback (bot/kernel/ports.py), which the adapter runs right before the request goes out (after
its rate limiter let it through). Where that moment is deep inside a library (PTB's request
layer), the adapter sets the callback with `on_wire` and its request layer calls `reached_wire()`. The callback commits the push as "sending"; a push found in "sending"
after a crash is never sent again. The window in which a crash loses a push is the few
milliseconds between that commit and the request, instead of the claim-to-send time.

A context variable carries the callback, so concurrent pushes (each in its own task) never see
each other's, and code outside a push (replies to users, the regrade worker) finds none.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

WireHook = Callable[[], Awaitable[None]]
_hook: ContextVar[WireHook | None] = ContextVar("on_wire", default=None)


@contextmanager
def on_wire(callback: WireHook) -> Iterator[None]:
    """Within this block, `reached_wire()` awaits `callback` (which should be idempotent: a push
    of several messages reaches the wire once per message)."""
    token = _hook.set(callback)
    try:
        yield
    finally:
        _hook.reset(token)


async def reached_wire() -> None:
    """Called by a platform adapter right before a request leaves; a no-op outside a push."""
    callback = _hook.get()
    if callback is not None:
        await callback()
