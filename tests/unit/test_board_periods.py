"""The leaderboard's periods: a week starts on Monday 00:00 and a month on the 1st 00:00, in the server's
timezone (an unknown timezone counts as UTC)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.features.study_server.study_server import _month_start, _week_start

SHANGHAI = "Asia/Shanghai"  # UTC+8, no daylight saving


@pytest.mark.parametrize(
    ("now", "tz", "start"),
    [
        (datetime(2026, 3, 4, 10, 0, tzinfo=UTC), SHANGHAI, datetime(2026, 3, 1, 16, 0, tzinfo=UTC)),  # Mon 00:00 +08
        (datetime(2026, 3, 1, 16, 0, tzinfo=UTC), SHANGHAI, datetime(2026, 3, 1, 16, 0, tzinfo=UTC)),  # exactly then
        (datetime(2026, 3, 1, 15, 59, tzinfo=UTC), SHANGHAI, datetime(2026, 2, 22, 16, 0, tzinfo=UTC)),  # Sunday night
        (datetime(2026, 3, 4, 10, 0, tzinfo=UTC), "Not/AZone", datetime(2026, 3, 2, 0, 0, tzinfo=UTC)),
    ],
)
def test_a_week_starts_on_monday_midnight_in_the_servers_timezone(now: datetime, tz: str, start: datetime) -> None:
    assert _week_start(now, tz) == start


@pytest.mark.parametrize(
    ("now", "tz", "start"),
    [
        (datetime(2026, 3, 31, 20, 0, tzinfo=UTC), SHANGHAI, datetime(2026, 3, 31, 16, 0, tzinfo=UTC)),  # April there
        (datetime(2026, 3, 31, 15, 59, tzinfo=UTC), SHANGHAI, datetime(2026, 2, 28, 16, 0, tzinfo=UTC)),
        (datetime(2026, 3, 31, 20, 0, tzinfo=UTC), "Not/AZone", datetime(2026, 3, 1, 0, 0, tzinfo=UTC)),
    ],
)
def test_a_month_starts_on_the_first_at_midnight_in_the_servers_timezone(
    now: datetime, tz: str, start: datetime
) -> None:
    assert _month_start(now, tz) == start
