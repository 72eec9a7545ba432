"""Typed yes and no, in English and Chinese, and a typed menu number: what a user types at a "Save or
Cancel?", a "delete everything?" or a numbered menu instead of pressing the button. Shared by every
confirmation, so they understand the same words.
"""

from __future__ import annotations

from bot.text.fold import fold

YES = frozenset(
    {
        "yes", "y", "yeah", "yep", "sure", "ok", "okay", "confirm", "save", "do it",
        "是", "是的", "好", "好的", "行", "可以", "对", "确认", "确定", "保存", "嗯",
    }
)  # fmt: skip
NO = frozenset({"no", "n", "nope", "cancel", "stop", "否", "不", "不要", "不用", "取消", "算了", "别"})
# the words that confirm deleting everything: the plain yeses, and the button's own words
DELETE = YES | {"delete", "yes, delete everything", "删除", "确认删除", "确认删除全部数据"}
_TRIM = " \t\n.!?,;:。！？，；：~～"


def normalise(text: str) -> str:
    """Lower case, full-width letters as ASCII (ＹＥＳ), surrounding punctuation and spaces dropped."""
    return fold(text).strip(_TRIM)


def is_yes(text: str, words: frozenset[str] = YES) -> bool:
    return normalise(text) in words


def is_no(text: str) -> bool:
    return normalise(text) in NO


def is_number(text: str) -> bool:
    """A choice by number: ASCII digits only ("²" and "١" pass str.isdigit but are no menu number), at most 4."""
    return 0 < len(text) <= 4 and text.isascii() and text.isdigit()
