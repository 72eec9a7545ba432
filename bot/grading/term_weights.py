"""How much a term says: inverse document frequency over the question bank.

A word that appears in many key points ("model", "training", "数据") is weak evidence that an
answer makes any one of them; a word that appears in few ("detect_anomaly", "ECC") is strong.
Documents are the bank's key points (text and keywords, both languages), prompts and
reference-answer sentences. Unknown terms (a batch CSV's own vocabulary) weigh in full.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from bot.grading.features import analyse_reference
from bot.kernel.models import Question

MIN_WEIGHT = 0.1


class TermWeights:
    def __init__(self, documents: Iterable[frozenset[str]]) -> None:
        df: Counter[str] = Counter()
        n = 0
        for doc in documents:
            df.update(doc)
            n += 1
        self._df = df
        self._norm = math.log((n + 1) / 2) if n > 2 else 1.0
        self._n = n

    def __call__(self, term: str) -> float:
        d = self._df.get(term, 0)
        if not d or self._n <= 2:
            return 1.0
        return max(MIN_WEIGHT, min(1.0, math.log((self._n + 1) / (d + 1)) / self._norm))


def _terms(text: str) -> frozenset[str]:
    return frozenset().union(*(s.terms for s in analyse_reference(text))) if text.strip() else frozenset()


def documents(questions: Iterable[Question]) -> Iterable[frozenset[str]]:
    for q in questions:
        yield _terms(q.prompt.en) | _terms(q.prompt.zh)
        for kp in q.rubric.key_points:
            parts = [kp.text.en, kp.text.zh, *kp.keywords.both()]
            yield frozenset().union(*(_terms(p) for p in parts))
        for lang in ("en", "zh"):
            for s in analyse_reference(q.reference_answer.get(lang)):
                yield s.terms


@lru_cache(maxsize=1)
def bank_weights() -> TermWeights:
    """Weights over the shipped bank (loaded once per process)."""
    from bot.content.loader import load_bank

    return TermWeights(documents(load_bank().questions))
