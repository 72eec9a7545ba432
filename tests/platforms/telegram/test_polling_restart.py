"""Polling after a crash. Telegram's getUpdates serves one consumer at a time and delivers an update again
only when the next consumer starts, never after that; so an update claimed by a process that died is handled
at once by the process that polls next (not after the webhook replicas' stale time, which would lose it), and
one claimed since this process started polling is not handled twice."""

from __future__ import annotations

from datetime import timedelta

from bot.kernel.store_ports import EventClaim
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness

CHAT = 5151


async def test_an_update_left_by_a_crashed_process_is_handled_by_the_next_one(tg: Harness) -> None:
    started = tg.runtime.handlers.polling_since
    assert started is not None and started == tg.app.service.now()
    crashed = started - timedelta(seconds=30)  # claimed, then the process died: well within the stale time
    stale = timedelta(seconds=tg.app.service.deps.limits.update_stale_seconds)
    assert stale == timedelta(minutes=3) and crashed > started - stale
    assert await tg.app.store.begin_event("telegram:9001", crashed, crashed - stale) is EventClaim.NEW

    (reply,) = await tg.deliver({**updates.text(CHAT, "/help"), "update_id": 9001})

    assert reply.chat_id == CHAT and "/drill" in reply.text
    assert await tg.app.store.begin_event("telegram:9001", started, started) is EventClaim.DONE  # and finished


async def test_an_update_claimed_since_polling_started_is_not_handled_twice(tg: Harness) -> None:
    started = tg.runtime.handlers.polling_since
    assert await tg.app.service.begin_update("telegram:9002", started) is EventClaim.NEW  # being handled here

    assert await tg.deliver({**updates.text(CHAT, "/help"), "update_id": 9002}) == []
    assert not [s for s in tg.server.sent if s.chat_id == CHAT]
