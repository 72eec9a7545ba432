"""Code in the bot's texts: Markdown fenced blocks (```python ... ```), found, split and kept whole.

The core's texts are plain text, and code travels inside them as a fenced block: a code question's prompt and
reference answer (bot/kernel/models.CodeTask), and an answer with code (a terminal `\"\"\"` block, a Telegram
`pre` entity, a Discord message). Each platform renders a block its own way (Telegram as `<pre><code>`,
Discord as the fence itself, the terminal as typed); what they share is here: where the blocks are, and
splitting a long text so that no message ends inside a block it never closes.

A fence is a line of three or more backticks, up to three spaces in, with an optional language name after the
opening one; a block runs to a closing fence of at least as many backticks, or to the end of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"^ {0,3}(`{3,})[ \t]*+([A-Za-z0-9_+.#-]*+)[ \t]*+$")  # possessive: linear on any line
_CLOSE = re.compile(r"^ {0,3}(`{3,})[ \t]*+$")


@dataclass(frozen=True)
class Segment:
    """A run of the text: prose, or the body of a fenced code block (without its fences) and its language."""

    text: str
    code: bool = False
    language: str = ""


def segments(text: str) -> list[Segment]:
    """The text as prose and code runs, in order; an unclosed block runs to the end (as Markdown reads it)."""
    out: list[Segment] = []
    prose: list[str] = []
    code: list[str] = []
    opened: re.Match[str] | None = None
    for line in text.split("\n"):
        if opened is None:
            start = _OPEN.match(line)
            if start is None:
                prose.append(line)
                continue
            if prose:
                out.append(Segment("\n".join(prose)))
                prose = []
            opened, code = start, []
            continue
        end = _CLOSE.match(line)
        if end is not None and len(end.group(1)) >= len(opened.group(1)):
            out.append(Segment("\n".join(code), True, opened.group(2)))
            opened = None
            continue
        code.append(line)
    if opened is not None:
        out.append(Segment("\n".join(code), True, opened.group(2)))
    elif prose:
        out.append(Segment("\n".join(prose)))
    return [s for s in out if s.code or s.text]


def code_blocks(text: str, language: str | None = None) -> list[str]:
    """The bodies of the text's fenced blocks (of `language` only, when given)."""
    return [s.text for s in segments(text) if s.code and (language is None or s.language == language)]


def has_code(text: str) -> bool:
    return any(s.code for s in segments(text))


def fence(code: str, language: str = "") -> str:
    """`code` as a fenced block, with a fence longer than any run of backticks inside it."""
    longest = max((len(m) for m in re.findall(r"`+", code)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{language}\n{code}\n{marks}"


def open_block(chunk: str, before: tuple[str, str] | None = None) -> tuple[str, str] | None:
    """The fence (marks, language) still open at the end of `chunk`, when it starts inside `before`'s block."""
    opened = before
    for line in chunk.split("\n"):
        if opened is None:
            start = _OPEN.match(line)
            if start is not None:
                opened = (start.group(1), start.group(2))
        else:
            end = _CLOSE.match(line)
            if end is not None and len(end.group(1)) >= len(opened[0]):
                opened = None
    return opened


REOPEN_CHARS = 40
"""At most what closing and reopening a block adds to a chunk (a fence, a language name, two line breaks): a
splitter for a hard limit cuts this much shorter when the text has code."""


def balance(chunks: list[str]) -> list[str]:
    """Chunks of one text, each closing the block it ends inside and the next reopening it: every message then
    renders its part of the code as code, with its indentation, and none swallows the text after it."""
    out: list[str] = []
    opened: tuple[str, str] | None = None
    for chunk in chunks:
        head = f"{opened[0]}{opened[1]}\n" if opened is not None else ""
        after = open_block(chunk, opened)
        tail = f"\n{after[0]}" if after is not None else ""
        out.append(head + chunk + tail)
        opened = after
    return out


def trimmed(answer: str) -> str:
    """An answer as stored: blank lines and trailing spaces around it dropped; a one-line answer stripped, but the
    first line's indentation kept when there are several lines (pasted code keeps every line's indentation)."""
    lines = answer.rstrip().split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if len(lines) <= 1:
        return answer.strip()
    return "\n".join(line.rstrip() for line in lines)
