"""A long text split into messages a platform takes: the one splitting rule every adapter uses.

A chunk holds at most `limit` as the platform measures it (Discord counts characters, Telegram UTF-16 code
units: `measure`). It ends at a line break in the second half of what fits, else at a space there, else where
the limit falls (never inside a character); the line break or the spaces at a cut are dropped, and a line after
a cut at a line break keeps its indentation. Code blocks cut by a split are closed and reopened by the adapter
(bot/kernel/fences.balance), which is why a platform that counts the fences asks for less than its limit.
"""

from __future__ import annotations

from collections.abc import Callable

Measure = Callable[[str], int]


def fits(text: str, limit: int, measure: Measure = len) -> int:
    """The length (in characters) of the longest start of `text` whose measure is at most `limit` (every
    character measures at least one, as both measures do)."""
    hi = min(len(text), limit)
    if measure(text[:hi]) <= limit:
        return hi
    lo = 0  # measure(text[:lo]) <= limit < measure(text[:hi])
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if measure(text[:mid]) <= limit:
            lo = mid
        else:
            hi = mid
    return lo


def split(text: str, limit: int, measure: Measure = len) -> list[str]:
    """`text` in chunks of at most `limit` (by `measure`), none empty: an empty text gives none."""
    chunks: list[str] = []
    rest = text
    while measure(rest) > limit and len(rest) > 1:
        hard = max(fits(rest, limit, measure), 1)  # a character over a tiny limit goes alone
        window = rest[:hard]
        at = window.rfind("\n")
        if at < hard // 2:
            at = window.rfind(" ")
        if at < hard // 2:
            at = hard
        chunks.append(rest[:at].rstrip("\n"))
        # the line break or the spaces the cut replaces; after a line break the next line keeps its indentation
        gap = 1 if rest[at] == "\n" else len(rest[at:]) - len(rest[at:].lstrip(" "))
        rest = rest[at + gap :] if at < hard else rest[at:]
    chunks.append(rest)
    return [c for c in chunks if c]
