"""Text folding, in one place: the forms that make two spellings of one word compare equal.

`nfkc`: full-width letters and digits as ASCII (ＹＥＳ -> YES) and compatibility forms as their plain one, case kept.
`fold`: that and case folding. `squash`: `fold` with every run of white space as one space and none at the ends.
Matching that needs more (the grader's synonyms and symbols, an injection's disguises, which decompose each
character and drop its marks) starts from these and lives beside its matcher.
"""

from __future__ import annotations

import unicodedata


def nfkc(text: str) -> str:
    """The one normal form: NFKC (the length may change: ﬁ -> fi); case kept, for what needs it (base64, Θ(n))."""
    return unicodedata.normalize("NFKC", text)


def fold(text: str) -> str:
    """NFKC and case-folded; the length may change (ﬁ -> fi), so match on the folded text."""
    return nfkc(text).casefold()


def squash(text: str) -> str:
    """`fold`, with white space collapsed to single spaces and trimmed."""
    return " ".join(fold(text).split())
