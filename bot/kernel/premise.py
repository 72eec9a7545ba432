"""Whether a follow-up's premise was stated by the answer (design section 4: follow-ups never put words in the
user's mouth).

A bank follow-up that presupposes a fact of the reference answer's story ("Why 10 layers and not 12?") lists
that fact's terms as its `premise` (bot/kernel/models.FollowUp). It may be asked only when the answer states
one of them, in either language: after NFKC and lower case, a Latin term as a whole word or number ("10 layers"
is not found in "100 layers", "32k" is found in "32K"), a Chinese one as a substring with spaces ignored ("10层"
is found in "10 层"). A follow-up without a premise stands on its own and may always be asked.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.kernel.models import FollowUp, Question, TextList
from bot.text.fold import squash

MAX_SCAN_CHARS = 20_000  # premises are looked for in the answer's beginning: bounded time on any input


def _fold(text: str) -> str:
    return squash(text)


@lru_cache(maxsize=4096)
def _pattern(term: str) -> tuple[re.Pattern[str], bool]:
    """The term's pattern, and whether it is matched with spaces removed (a term with Chinese in it)."""
    folded = _fold(term)
    if folded.isascii():  # a Latin word or number: not inside a longer one ("10" is not in "100")
        return re.compile(r"(?<![\w.])" + re.escape(folded) + r"(?!\w)"), False
    return re.compile(re.escape(folded.replace(" ", ""))), True


def stated(premise: TextList, answer: str) -> bool:
    """True when the answer states one of the premise's terms (either language); an empty premise is true."""
    terms = [t for t in premise.both() if t.strip()]
    if not terms:
        return True
    text = _fold(answer[:MAX_SCAN_CHARS])
    compact = text.replace(" ", "")
    for term in terms:
        pattern, spaceless = _pattern(term)
        if pattern.search(compact if spaceless else text):
            return True
    return False


def askable(follow_up: FollowUp, answer: str) -> bool:
    return stated(follow_up.premise, answer)


def askable_indexes(question: Question, answer: str) -> list[int]:
    """The indexes of the question's follow-ups that may be asked after this answer, in the bank's order."""
    return [i for i, f in enumerate(question.follow_ups) if askable(f, answer)]
