"""Rendering rules (render.py) and the fake server's HTML check that the scenarios rely on."""

from __future__ import annotations

import pytest

from bot.kernel.replies import Button
from bot.platforms.telegram.render import escape, keyboard, split_text, utf16_len
from tests.platforms.telegram.fake_bot_api import EntityError, visible_html


def test_split_keeps_every_character_and_prefers_line_breaks() -> None:
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(300))
    parts = split_text(text)
    assert all(utf16_len(p) <= 4096 for p in parts) and len(parts) == 5
    assert "\n".join(parts) == text  # cut only at line breaks here
    assert split_text("short") == ["short"] and split_text("") == [""]


def test_split_counts_utf16_units_and_never_cuts_a_character() -> None:
    emoji = "😀" * 3000  # 6,000 UTF-16 units
    parts = split_text(emoji)
    assert "".join(parts) == emoji and [utf16_len(p) for p in parts] == [4096, 1904]
    unbroken = "y" * 10_000
    assert "".join(split_text(unbroken)) == unbroken


@pytest.mark.parametrize("hostile", ["<b>x</b> & <i>", "a < b && c > d", "&amp; &lt; &#60;", "*_`[]()~>#+-=|{}.!"])
def test_escaped_text_parses_back_to_itself(hostile: str) -> None:
    assert visible_html(escape(hostile)) == hostile


@pytest.mark.parametrize("broken", ["a < b", "<b>open", "x & y", "</i>", "<script>", "1 > 0"])
def test_the_fake_refuses_what_telegram_refuses(broken: str) -> None:
    with pytest.raises(EntityError):
        visible_html(broken)


def test_keyboard_drops_a_button_whose_data_is_over_64_bytes() -> None:
    markup = keyboard([[Button("ok", "next"), Button("too long", "x" * 65)], [Button("only", "y" * 70)]])
    assert markup is not None
    assert [[b.callback_data for b in row] for row in markup.inline_keyboard] == [["next"]]
    assert keyboard([]) is None


def test_a_keyboard_serializes_to_the_same_json_as_python_telegram_bots_own() -> None:
    from telegram import InlineKeyboardButton, InlineKeyboardMarkup

    rows = [[Button("参考答案", "ref:7"), Button("Next", "next")], [Button("Save", "cr:notes:save:7")]]
    markup = keyboard(rows)
    assert markup is not None
    generic = InlineKeyboardMarkup([[InlineKeyboardButton(b.label, callback_data=b.action) for b in r] for r in rows])
    assert markup.to_dict() == generic.to_dict()
    assert markup.inline_keyboard == generic.inline_keyboard  # the same buttons to PTB as well
