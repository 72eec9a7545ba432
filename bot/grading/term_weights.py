"""How much a term says: inverse document frequency over the question bank.

A word that appears in many key points ("model", "training", "数据") is weak evidence that an
answer makes any one of them; a word that appears in few ("detect_anomaly", "ECC") is strong.
Documents are the bank's key points (text and keywords, both languages), prompts and
reference-answer sentences. Unknown terms (a batch CSV's own vocabulary) weigh in full.

A bank's weights are computed from its loaded questions and kept in the cache folder by bot/shipped_bank.py
(`weights_for`), which also names the shipped bank's as `bank_weights` (the offline grader's and the LLM
grader's default): grading does not load the bank.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
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

    @classmethod
    def from_counts(cls, df: Mapping[str, int], n: int) -> TermWeights:
        """The weights whose `counts()` these are (read back from the cache folder)."""
        weights = cls(())
        weights._df = Counter(df)
        weights._norm = math.log((n + 1) / 2) if n > 2 else 1.0
        weights._n = n
        return weights

    def counts(self) -> tuple[dict[str, int], int]:
        """(documents each term is in, documents in all): all that the weights are computed from."""
        return dict(self._df), self._n

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


_bank_source: Callable[[], TermWeights] | None = None


def use_bank_weights(source: Callable[[], TermWeights]) -> None:
    """Name where `bank_weights` comes from. Grading cannot load the shipped bank (the bank is bot/content's, and the
    cache folder's): the composition root names it, `bot.shipped_bank.use_shipped_weights`, in every process that
    grades (the bot's start, a worker process, the command line, the tests' conftest, a bench)."""
    global _bank_source
    if source is not _bank_source:
        _bank_source = source
        bank_weights.cache_clear()


@lru_cache(maxsize=1)
def bank_weights() -> TermWeights:
    """Weights over the shipped bank (once per process), from the source `use_bank_weights` named."""
    if _bank_source is None:
        raise RuntimeError(
            "the shipped bank's term weights were never named: call bot.shipped_bank.use_shipped_weights() first"
        )
    return _bank_source()


def dump_weights(weights: TermWeights) -> bytes:
    """The weights as the cache folder keeps them (bot/shipped_bank.py `weights_for`)."""
    df, n = weights.counts()
    return json.dumps({"n": n, "df": df}, ensure_ascii=False, separators=(",", ":")).encode()


def load_weights(data: bytes) -> TermWeights:
    """`dump_weights`' bytes read back; TypeError or KeyError when they are not a term-weights record."""
    raw = json.loads(data)
    df, n = raw["df"], raw["n"]
    if not isinstance(n, int) or not isinstance(df, dict) or not all(isinstance(v, int) for v in df.values()):
        raise TypeError("not a term-weights record")
    return TermWeights.from_counts(df, n)
