"""Time helpers: UTC storage, the user's timezone for 'today', daily time and display."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.text.numerals import NUMERAL_CHARS

_HHMM = re.compile(r"^([01]?\d|2[0-3])[:：]([0-5]\d)$")
# a clock time somewhere in the text: 8:30, 8pm, 8 a.m., 八点 / 8点, noon, 中午 ("tomorrow" or "8h" alone is none)
_CLOCK_HINT = re.compile(
    rf"\d\s*[:：.]\s*\d\d|\d\s*(?:am|pm|a\.m\.|p\.m\.)|[\d{NUMERAL_CHARS}]\s*[点點时時]"
    r"|\b(?:noon|midnight)\b|中午|正午|午夜",
    re.IGNORECASE,
)


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


def zone(name: str) -> ZoneInfo | None:
    """The ZoneInfo for an IANA name, or None when it does not exist (never raises)."""
    if not name or len(name) > 64 or ".." in name or name.startswith("/"):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def parse_hhmm(value: str) -> str | None:
    m = _HHMM.match(value.strip())
    return f"{int(m.group(1)):02d}:{m.group(2)}" if m else None


def has_clock_time(text: str) -> bool:
    """Whether `text` names a time of day (a date reader fills one in when it does not)."""
    return _CLOCK_HINT.search(text) is not None


def local_now(now: datetime, tz: str) -> datetime:
    return now.astimezone(zone(tz) or UTC)


def local_date(moment: datetime, tz: str) -> date:
    return local_now(moment, tz).date()


def start_of_local_day(now: datetime, tz: str) -> datetime:
    """The UTC instant at which the user's current local day began."""
    z = zone(tz) or UTC
    d = now.astimezone(z).date()
    return datetime.combine(d, time(0, 0), tzinfo=z).astimezone(UTC)


def end_of_local_day(now: datetime, tz: str) -> datetime:
    z = zone(tz) or UTC
    d = now.astimezone(z).date() + timedelta(days=1)
    return datetime.combine(d, time(0, 0), tzinfo=z).astimezone(UTC)


def fmt_local(moment: datetime, tz: str) -> str:
    return local_now(moment, tz).strftime("%Y-%m-%d %H:%M")


_DAY_WORDS = {"today": 0, "今天": 0, "tomorrow": 1, "明天": 1, "yesterday": -1, "昨天": -1}


def parse_fixed_formats(text: str, now: datetime, tz: str) -> datetime | None:
    """Read 'YYYY-MM-DD HH:MM', 'YYYY-MM-DD', 'today/tomorrow/yesterday HH:MM' (also 今天/明天/昨天)
    in the user's timezone; returns UTC, or None when it cannot be read."""
    z = zone(tz) or UTC
    s = " ".join(text.strip().replace("T", " ").split())
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y/%m/%d %H:%M", "%Y/%m/%d"):
        try:
            naive = datetime.strptime(s, fmt)
        except ValueError:
            continue
        if fmt.endswith("%d"):
            naive = naive.replace(hour=9)
        return naive.replace(tzinfo=z).astimezone(UTC)
    for word, offset in _DAY_WORDS.items():
        if s.lower().startswith(word):
            hhmm = parse_hhmm(s[len(word) :].strip() or "09:00")
            if hhmm is None:
                return None
            d = now.astimezone(z).date() + timedelta(days=offset)
            hh, mm = map(int, hhmm.split(":"))
            return datetime.combine(d, time(hh, mm), tzinfo=z).astimezone(UTC)
    return None
