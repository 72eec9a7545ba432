"""Chinese numerals, read in one place: the clock times and dates of /interview and /apps ("下午两点", "十二月三日"),
/debrief's numbered questions ("第十二题", "三、"), interview rounds ("二面") and the grader's "九成"."""

from __future__ import annotations

DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
NUMERAL_CHARS = "零〇一二两三四五六七八九十"
"""Every character `cn_int` reads, for a pattern's character class."""
ONE_TO_TEN = "一二三四五六七八九十"
"""The numerals that number things in order (第三步, 三、, 十一): no zero, and no 两 (two of a thing, never the
second), for a pattern's character class."""
ONE_TO_NINE = ONE_TO_TEN[:-1]
"""One numeral digit, 一 to 九 (二面, 九成)."""


def cn_int(text: str) -> int | None:
    """0-99 in Arabic digits or Chinese numerals (五, 两, 十, 十五, 二十, 三十五, 九十九); None when `text` is neither."""
    if text.isascii() and text.isdigit():
        return int(text)
    if not text or len(text) > 3 or any(ch not in NUMERAL_CHARS for ch in text):
        return None
    if "十" not in text:
        return DIGITS[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if len(tens) > 1 or len(ones) > 1 or tens in ("零", "〇") or "十" in ones:
        return None
    return (DIGITS[tens] if tens else 1) * 10 + (DIGITS[ones] if ones else 0)
