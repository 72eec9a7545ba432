"""Core replies -> Telegram message parts: HTML-escaped text in chunks Telegram accepts, inline keyboards.

The core's text is plain text, and some of it comes from an LLM, so every character that means
something to Telegram's HTML parse mode (`<`, `>`, `&`) is escaped; `*`, `_` and backticks mean
nothing in HTML mode. Code is the exception: a fenced block (bot/kernel/fences.py) becomes
`<pre><code class="language-…">`, shown in a monospace font with its indentation (a backtick inside a
line stays a backtick: an LLM's text is shown exactly as written). Telegram counts a message's length (4,096) and a
caption's (1,024) in UTF-16 code units after entity parsing, so text is split on that measure, at a
line break or a space where one is near, and a block cut by a split is closed and reopened.

An incoming message's `pre` entities (code the user sent as a code block) come back as fences, with
their language, so the answer stored and graded is code as the user wrote it.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterator, Sequence
from typing import Any

from telegram import InlineKeyboardButton, MessageEntity, TelegramObject

from bot.kernel.fences import balance, fence, segments
from bot.kernel.replies import Button
from bot.text.split import split

log = logging.getLogger(__name__)
MESSAGE_LIMIT = 4096
CAPTION_LIMIT = 1024
CALLBACK_DATA_LIMIT = 64


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split `text` into chunks of at most `limit` UTF-16 units (bot/text/split.py), a block cut by a split closed
    and reopened (its fences are markup, not counted after entity parsing); an empty text is one empty chunk."""
    return balance(split(text, limit, utf16_len)) or [""]


def escape(text: str) -> str:
    """Text safe for parse_mode=HTML: shown exactly as written."""
    return html.escape(text, quote=False)


def to_html(text: str) -> str:
    """Text for parse_mode=HTML: prose escaped, fenced blocks as `<pre><code>` with their language, so code
    keeps its indentation and a monospace font."""
    out = []
    for seg in segments(text):
        if seg.code:
            lang = f' class="language-{escape(seg.language)}"' if seg.language else ""
            out.append(f"<pre><code{lang}>{escape(seg.text)}</code></pre>")
        else:
            out.append(escape(seg.text))
    return "\n".join(out)


def fenced(text: str, entities: Sequence[MessageEntity]) -> str:
    """A message's text with its `pre` entities (code blocks) written as fences, with their language; other
    formatting is left as plain text. Entity offsets count UTF-16 code units, as Telegram does."""
    blocks = sorted((e for e in entities if e.type == MessageEntity.PRE), key=lambda e: e.offset)
    if not blocks:
        return text
    units = text.encode("utf-16-le")
    out, at = [], 0
    for e in blocks:
        start, end = 2 * e.offset, 2 * (e.offset + e.length)
        if start < at:
            continue  # overlapping entities: keep the first
        before = units[at:start].decode("utf-16-le")
        code = units[start:end].decode("utf-16-le")
        out.append(before if not before or before.endswith("\n") else before + "\n")
        out.append(fence(code.strip("\n"), e.language or "") + "\n")
        at = end
    out.append(units[at:].decode("utf-16-le").lstrip("\n"))
    return "".join(out).rstrip("\n")


def _rows(rows: list[list[Button]]) -> Iterator[tuple[tuple[str, str], ...]]:
    for row in rows:
        out = []
        for b in row:
            if len(b.action.encode("utf-8")) > CALLBACK_DATA_LIMIT:
                log.warning("button %r dropped: its action is over %d bytes", b.label, CALLBACK_DATA_LIMIT)
                continue
            out.append((b.label[:64], b.action))
        if out:
            yield tuple(out)


class TextKeyboard(TelegramObject):
    """The bot's inline keyboards: rows of buttons with a text and callback data, nothing else.

    python-telegram-bot sends any TelegramObject as its `to_dict()`, and this one writes the same JSON
    as an InlineKeyboardMarkup of InlineKeyboardButtons straight from the (text, data) pairs. Building
    those PTB objects (each attribute set through a frozen-object check) and walking them in the generic
    `to_dict` took ~110 us for a graded reply's eight buttons, the largest part of rendering it
    (bench/telegram_load.py --profile). `inline_keyboard` builds them on demand, for whoever wants them."""

    __slots__ = ("rows",)

    def __init__(self, rows: tuple[tuple[tuple[str, str], ...], ...]) -> None:
        super().__init__(api_kwargs=None)
        self.rows = rows
        self._id_attrs = (rows,)
        self._freeze()

    @property
    def inline_keyboard(self) -> tuple[tuple[InlineKeyboardButton, ...], ...]:
        return tuple(tuple(InlineKeyboardButton(text, callback_data=data) for text, data in row) for row in self.rows)

    def to_dict(self, recursive: bool = True) -> dict[str, Any]:
        return {"inline_keyboard": [[{"text": text, "callback_data": data} for text, data in row] for row in self.rows]}


def keyboard(rows: list[list[Button]]) -> TextKeyboard | None:
    kept = tuple(_rows(rows))
    return TextKeyboard(kept) if kept else None
