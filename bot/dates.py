"""Natural-language dates in English and Chinese, read in the user's timezone, with `dateparser`.

dateparser reads "tomorrow 14:00", "next friday 10am", "3天后" and "明天 14:00" as they are, but
not spoken Chinese clock times ("明天下午两点", "十二月三日下午三点半", "下周三上午十点"). A small
normaliser first rewrites those into forms it reads ("明天 14:00", "2026-12-03 15:30"). Injected
into the core as `Deps.natural_dates`; `Deps.parse_when` tries it after the core's own formats.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, date, datetime, timedelta

import dateparser

from bot.kernel.timeutil import zone
from bot.text.numerals import DIGITS, NUMERAL_CHARS, cn_int

log = logging.getLogger(__name__)
MAX_CHARS = 64
_SUNDAY = "日天"  # 星期日, 星期天; Monday to Saturday are 星期一 to 星期六
_CN_NUMBER = re.compile(rf"[{NUMERAL_CHARS}]{{1,3}}(?=[点點时時分月日号號])")
_NEXT_WEEK = re.compile(r"下(?:个)?(?:周|星期|礼拜)([一二三四五六日天])")
_MONTH_DAY = re.compile(r"(?<![\d年])(\d{1,2})月(\d{1,2})[日号號]")
_CLOCK = re.compile(  # linear: blanks are taken whole, from the start of their run only (issue #34)
    r"(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上)?(?:(?<!\s)\s++)?+(\d{1,2})\s*+[点點时時]\s*+(?:(半)|(\d{1,2})\s*+分?)?"
)
_PM = {"下午", "傍晚", "晚上"}
_DAY_PARTS = {"今晚": "今天晚上", "明晚": "明天晚上", "今早": "今天早上", "明早": "明天早上"}


def _clock(m: re.Match[str]) -> str:
    part, hour = m.group(1), int(m.group(2))
    minute = 30 if m.group(3) else int(m.group(4) or 0)
    if (part in _PM and hour < 12) or (part == "中午" and hour < 11):
        hour += 12
    elif part == "凌晨" and hour == 12:
        hour = 0
    return f" {hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else m.group(0)


def normalise_chinese(text: str, today: date) -> str:
    """Rewrite spoken Chinese dates and clock times into forms dateparser reads."""
    s = text
    for short, long in _DAY_PARTS.items():
        s = s.replace(short, long)
    s = _CN_NUMBER.sub(lambda m: str(n) if (n := cn_int(m.group(0))) is not None else m.group(0), s)

    def next_week(m: re.Match[str]) -> str:
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
        day = m.group(1)
        return (monday + timedelta(days=6 if day in _SUNDAY else DIGITS[day] - 1)).isoformat() + " "

    def month_day(m: re.Match[str]) -> str:
        month, day = int(m.group(1)), int(m.group(2))
        try:
            d = date(today.year, month, day)
            if d < today:
                d = date(today.year + 1, month, day)
        except ValueError:
            return m.group(0)
        return d.isoformat() + " "

    s = _NEXT_WEEK.sub(next_week, s)
    s = _MONTH_DAY.sub(month_day, s)
    s = _CLOCK.sub(_clock, s)
    return " ".join(s.split())


def parse_natural(text: str, now: datetime, tz: str) -> datetime | None:
    """`text` read in timezone `tz`, relative to `now`; returns UTC, or None when it is not a date."""
    raw = text.strip()
    z = zone(tz)
    if not raw or len(raw) > MAX_CHARS or raw.isdigit() or z is None:  # a bare '5' is not a date
        return None
    local_now = now.astimezone(z)
    prepared = normalise_chinese(raw, local_now.date())
    settings = {
        "TIMEZONE": tz,
        "TO_TIMEZONE": "UTC",
        "RETURN_AS_TIMEZONE_AWARE": True,
        "RELATIVE_BASE": local_now.replace(tzinfo=None),
        "PREFER_DATES_FROM": "future",
    }
    try:
        found = dateparser.parse(prepared, languages=["en", "zh"], settings=settings)
    except Exception:  # dateparser raises assorted errors on odd input: treat as unreadable
        log.debug("dateparser failed on %r", prepared, exc_info=True)
        return None
    return found.astimezone(UTC) if found is not None else None
