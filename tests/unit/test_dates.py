"""Natural-language dates (bot/dates.py): English and Chinese, in the user's timezone, with a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.dates import normalise_chinese, parse_natural

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # Monday; 17:00 in Shanghai, 04:00 in New York


@pytest.mark.parametrize(
    ("text", "tz", "expected_utc"),
    [
        ("tomorrow 14:00", "Asia/Shanghai", datetime(2026, 3, 3, 6, 0, tzinfo=UTC)),
        ("明天下午两点", "Asia/Shanghai", datetime(2026, 3, 3, 6, 0, tzinfo=UTC)),
        ("2026-12-03 14:00", "Asia/Shanghai", datetime(2026, 12, 3, 6, 0, tzinfo=UTC)),
        ("tomorrow 14:00", "America/New_York", datetime(2026, 3, 3, 19, 0, tzinfo=UTC)),
        ("明天下午两点半", "Asia/Shanghai", datetime(2026, 3, 3, 6, 30, tzinfo=UTC)),
        ("十二月三日下午三点", "Asia/Shanghai", datetime(2026, 12, 3, 7, 0, tzinfo=UTC)),
        ("下周三上午十点", "Asia/Shanghai", datetime(2026, 3, 11, 2, 0, tzinfo=UTC)),
        ("今晚八点", "Asia/Shanghai", datetime(2026, 3, 2, 12, 0, tzinfo=UTC)),
        ("next friday 10am", "Europe/London", datetime(2026, 3, 6, 10, 0, tzinfo=UTC)),
    ],
)
def test_reads_dates_in_the_users_timezone(text: str, tz: str, expected_utc: datetime) -> None:
    assert parse_natural(text, NOW, tz) == expected_utc


@pytest.mark.parametrize("text", ["", "garbage", "明年某天", "5", "x" * 200, "soon"])
def test_unreadable_text_is_none(text: str) -> None:
    assert parse_natural(text, NOW, "Asia/Shanghai") is None


def test_a_bad_timezone_is_none_not_an_error() -> None:
    assert parse_natural("tomorrow 14:00", NOW, "Mars/Base") is None


def test_the_chinese_normaliser_rewrites_clock_times() -> None:
    today = NOW.date()
    assert normalise_chinese("明天下午两点", today) == "明天 14:00"
    assert normalise_chinese("中午12点", today) == "12:00"
    assert normalise_chinese("凌晨十二点十五分", today) == "00:15"
    assert normalise_chinese("1月5日 9:00", today) == "2027-01-05 9:00"  # a date already past is next year's
