"""Chinese numerals are read in one place (bot/text/numerals.py), by dates, /debrief, /apps rounds and the grader."""

from __future__ import annotations

from datetime import date

import pytest

from bot.dates import normalise_chinese
from bot.features.apps.board import parse_stage
from bot.features.debrief.split import _number
from bot.grading.normalize import for_matching
from bot.kernel.timeutil import has_clock_time
from bot.text.numerals import cn_int


@pytest.mark.parametrize(
    ("text", "value"),
    [("零", 0), ("〇", 0), ("一", 1), ("两", 2), ("二", 2), ("九", 9), ("十", 10), ("十五", 15), ("二十", 20),
     ("三十五", 35), ("九十九", 99), ("7", 7), ("12", 12)],
)  # fmt: skip
def test_numerals_up_to_ninety_nine(text: str, value: int) -> None:
    assert cn_int(text) == value


@pytest.mark.parametrize("text", ["", "一一", "十十", "零十", "二十三四", "百", "1a", "３", "十二三"])
def test_what_is_no_numeral_is_none(text: str) -> None:
    assert cn_int(text) is None


def test_each_reader_uses_it() -> None:
    assert normalise_chinese("下午两点", date(2026, 12, 5)).strip() == "14:00"
    assert normalise_chinese("十二月三日", date(2026, 12, 5)).strip() == "2027-12-03"  # passed this year: the next
    assert (_number("十一"), _number("二十一"), _number("3"), _number("一一")) == (11, 21, 3, 0)
    assert parse_stage("三面") == ("technical", 3)
    assert "90%" in for_matching("九成的样本")


def test_weekdays_and_the_readers_numeral_classes_come_from_it() -> None:
    wednesday = date(2026, 3, 4)
    days = [normalise_chinese(f"下周{w}上午十点", wednesday).split()[0] for w in "一二三四五六日天"]
    assert days == ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13", "2026-03-14",
                    "2026-03-15", "2026-03-15"]  # fmt: skip
    assert has_clock_time("两点") and has_clock_time("〇点") and not has_clock_time("百点")
    assert parse_stage("九面") == ("technical", 9)
    assert "90%" in for_matching("九成") and "20%" not in for_matching("十二成")  # one digit, not inside a number
