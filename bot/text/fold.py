"""Text folding, in one place: the forms that make two spellings of one word compare equal.

`fold`: NFKC (full-width letters and digits as ASCII, ＹＥＳ -> YES, compatibility forms) and case folding. `squash`:
the same with every run of white space as one space and none at the ends. Matching that needs more (the grader's
synonyms and symbols, an injection's disguises) starts from these and lives beside its matcher.
"""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """NFKC and case-folded; the length may change (ﬁ -> fi), so match on the folded text."""
    return unicodedata.normalize("NFKC", text).casefold()


def squash(text: str) -> str:
    """`fold`, with white space collapsed to single spaces and trimmed."""
    return " ".join(fold(text).split())
