"""The claim of an event its platform redelivers (a Telegram update): handled once across processes, and
taken over when the worker that claimed it died (its claim stale and never finished)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.kernel.store_ports import EventClaim, Store

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
STALE = timedelta(minutes=3)


async def begin(store: Store, key: str, now: datetime) -> EventClaim:
    return await store.begin_event(key, now, now - STALE)


async def test_an_update_is_claimed_once_then_busy_then_done(store: Store) -> None:
    results = await asyncio.gather(*(begin(store, "telegram:7", NOW) for _ in range(5)))
    assert sorted(r.value for r in results) == ["busy"] * 4 + ["new"]  # one worker got it, even concurrently
    assert await begin(store, "telegram:7", NOW + timedelta(minutes=1)) is EventClaim.BUSY  # still at it
    await store.finish_event("telegram:7")
    assert await begin(store, "telegram:7", NOW + timedelta(days=1)) is EventClaim.DONE  # handled: never again


async def test_a_claim_never_finished_is_taken_over_once_stale(store: Store) -> None:
    assert await begin(store, "telegram:8", NOW) is EventClaim.NEW  # this worker dies before finishing
    later = NOW + STALE + timedelta(seconds=1)
    results = await asyncio.gather(*(begin(store, "telegram:8", later) for _ in range(3)))
    assert sorted(r.value for r in results) == ["busy", "busy", "new"]  # taken over by exactly one
    assert await begin(store, "telegram:8", later + timedelta(seconds=1)) is EventClaim.BUSY  # its clock restarted
    await store.finish_event("telegram:8")
    assert await begin(store, "telegram:8", later + STALE * 2) is EventClaim.DONE


async def test_events_claimed_once_for_good_are_done_for_begin_event(store: Store) -> None:
    assert await store.claim_event("discord:5", NOW)  # an interaction: never redelivered, done when claimed
    assert await begin(store, "discord:5", NOW + STALE * 2) is EventClaim.DONE
    assert await begin(store, "telegram:9", NOW) is EventClaim.NEW
    assert not await store.claim_event("telegram:9", NOW)  # one key space
