"""The delimiters around the candidate's answer in a grader prompt.

Each request gets a random tag (`answer_7f3k9q2m`), so an answer cannot close a block whose name
it does not know; `escape_answer` still neutralises anything that looks like an opening or closing
tag of that name, of the generic `candidate_answer`, or of any name in the random tag's shape, once
disguises are undone (full-width ＜ ＞, zero-width characters, Cyrillic letters, spaces, upper case):
the look-alike's angle brackets become ‹ ›.
"""

from __future__ import annotations

import re
import secrets
import string

from bot.grading.injection import fold

GENERIC_TAG = "candidate_answer"
TAG_PREFIX = "answer_"
TAG_RANDOM_CHARS = 8
_ALPHABET = string.ascii_lowercase + string.digits
_LEFT, _RIGHT = "‹", "›"


def new_tag() -> str:
    """A fresh delimiter name for one request: `answer_` and 8 random lower-case letters or digits."""
    return TAG_PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(TAG_RANDOM_CHARS))


def _name(tag: str) -> str:
    """A tag name as a pattern over folded text: spaces or a hyphen may stand in for an underscore."""
    return r"[\s_-]*".join(re.escape(part) for part in fold(tag).split("_"))


def _tag_pattern(tag: str, answer_tags: bool = True) -> re.Pattern[str]:
    """Look-alikes of `<tag>` and `</tag>`; with `answer_tags`, also of the generic and of any random answer tag."""
    names = [_name(tag)]
    if answer_tags:
        names += [_name(GENERIC_TAG), _name(TAG_PREFIX) + rf"[a-z0-9]{{{TAG_RANDOM_CHARS}}}"]
    return re.compile(
        # "<", "< /", "</", or no bracket before the name; blanks taken whole and from the start of their run, so
        # `finditer` never rescans a run (`\s*[/\\]?\s*` did, at every position: cubic time, issue #34)
        r"(?P<open><)?(?:(?<!\s)\s++)?+(?:[/\\]\s*+)?+"
        rf"(?:{'|'.join(names)})(?![a-z0-9])"
        r"(?:(?:\s[^<>\n]{0,40})?(?P<close>>))?"  # attributes, then ">"
    )


def escape_answer(answer: str, tag: str) -> str:
    """The answer with every look-alike of `<tag>`, `</tag>` (and of the generic tag) made harmless."""
    return _neutralise(answer, _tag_pattern(tag))


def escape_block(text: str, tag: str) -> str:
    """Text put inside `<tag>...</tag>` in a prompt (a question the user typed, a bank question) with every
    look-alike of that tag made harmless, as `escape_answer` does: upper case, spaces, full-width brackets and
    Cyrillic letters included. The one escape for every prompt block."""
    return _neutralise(text, _tag_pattern(tag, answer_tags=False))


def _neutralise(text: str, pattern: re.Pattern[str]) -> str:
    folded: list[str] = []
    owner: list[int] = []  # the index in `text` of each folded character
    for i, ch in enumerate(text):
        for f in fold(ch):
            folded.append(f)
            owner.append(i)
    out = list(text)
    for m in pattern.finditer("".join(folded)):
        for group, mark in (("open", _LEFT), ("close", _RIGHT)):
            if m.start(group) != -1:
                out[owner[m.start(group)]] = mark
    return "".join(out)
