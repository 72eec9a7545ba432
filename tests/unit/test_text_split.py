"""The one message splitter (bot/text/split.py) that Telegram (UTF-16 units) and Discord (characters) share."""

from __future__ import annotations

from bot.text.split import fits, split


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_a_cut_prefers_a_line_break_then_a_space_in_the_second_half_of_what_fits() -> None:
    assert split("ab cd ef", 5) == ["ab", "cd ef"]  # no line break: the space at 2 (not before 5 // 2)
    assert split("a\nbcd efgh", 6) == ["a\nbcd", "efgh"]  # the line break at 1 is too early; the space at 5 is not
    assert split("aaaa\n    bbbb", 8) == ["aaaa", "    bbbb"]  # after a line break the indentation stays
    assert split("abcdefghij", 4) == ["abcd", "efgh", "ij"]  # nowhere to break: where the limit falls


def test_the_measure_is_the_platforms_and_no_character_is_cut() -> None:
    assert fits("😀😀😀", 5, utf16) == 2 and fits("abc", 5) == 3 and fits("😀", 1, utf16) == 0
    assert split("😀😀😀", 4, utf16) == ["😀😀", "😀"]
    assert split("😀a", 1, utf16) == ["😀", "a"]  # a character over the limit goes alone, and the split ends


def test_nothing_is_no_chunk_and_a_short_text_is_one() -> None:
    assert split("", 10) == [] and split("short", 10) == ["short"]
