"""Issue #34, High 6 and Medium 2 through the real Telegram adapter, on SQLite and PostgreSQL: the message rate
limit is kept per Telegram account (a /forget every 12 messages does not refill it), and transcribed seconds
count against a per-account and a global daily budget that a /forget does not reset either."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BACKENDS, fresh_database
from tests.fakes import FakeClock
from tests.telegram.conftest import Harness, MakeHarness

CHAT, BYSTANDER = 9101, 9102
SLOW_DOWN = "That is more messages than I can read at once"


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return await fresh_database(request.param, tmp_path)


def clock_of(tg: Harness) -> FakeClock:
    clock = tg.app.service.deps.clock
    assert isinstance(clock, FakeClock)
    return clock


async def test_a_forget_every_12_messages_does_not_refill_the_rate_limit(
    make_telegram: MakeHarness, database_url: str
) -> None:
    tg = await make_telegram(database_url=database_url, config={"rate_per_minute": 30, "rate_burst": 12})
    await tg.user_id(CHAT)
    await tg.say(BYSTANDER, "/start")  # a user after CHAT's: SQLite (no AUTOINCREMENT) gives a forgotten id back only
    clock = clock_of(tg)
    admitted = 0
    for n in range(100):  # 100 messages over one minute, the 11th and 12th of every 12 a /forget and its "yes"
        clock.advance(seconds=0.6)
        step = n % 12
        if step == 10:
            sent = await tg.say(CHAT, "/forget")
        elif step == 11:
            sent = await tg.press(CHAT, "forget:yes")
        else:
            sent = await tg.say(CHAT, "/help")
        shown = [s for s in sent if s.method in ("sendMessage", "editMessageText")]
        if shown and not any(s.text.startswith(SLOW_DOWN) for s in shown):
            admitted += 1
    # 12 at once, then 30 a minute: at most 42 of the 100 in that minute, however often the account forgets
    assert admitted <= 42
    assert admitted >= 12
