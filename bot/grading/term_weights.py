"""How much a term says: inverse document frequency over the question bank.

A word that appears in many key points ("model", "training", "数据") is weak evidence that an
answer makes any one of them; a word that appears in few ("detect_anomaly", "ECC") is strong.
Documents are the bank's key points (text and keywords, both languages), prompts and
reference-answer sentences. Unknown terms (a batch CSV's own vocabulary) weigh in full.
"""

from __future__ import annotations

import json
import math
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

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


@lru_cache(maxsize=1)
def bank_weights() -> TermWeights:
    """Weights over the shipped bank (once per process)."""
    from bot.content.loader import DEFAULT_CONTENT_DIR

    return weights_for(DEFAULT_CONTENT_DIR)


def weights_for(root: Path) -> TermWeights:
    """Weights over the bank in `root`: 5 s of term analysis, so kept in the cache folder (bot/content/cache.py)
    under the bank's files and this code."""
    from bot.content import cache
    from bot.content.loader import load_bank

    key = cache.key_of(cache.content_hash(root), cache.code_version(__name__))
    with _memo_lock:  # held while building: the grader and /review's matcher, asking at once, build it once
        if key not in _memo:
            _memo[key] = cache.cached(
                "weights", key, lambda: TermWeights(documents(load_bank(root).questions)), _dump, _load
            )
            while len(_memo) > 4:
                _memo.pop(next(iter(_memo)))
        return _memo[key]


_memo: dict[str, TermWeights] = {}
_memo_lock = threading.Lock()


def forget_weights() -> None:
    """Drop the weights this process holds (not `bank_weights`'s), so `weights_for` reads the cache folder."""
    with _memo_lock:
        _memo.clear()


def _dump(weights: TermWeights) -> bytes:
    df, n = weights.counts()
    return json.dumps({"n": n, "df": df}, ensure_ascii=False, separators=(",", ":")).encode()


def _load(data: bytes) -> TermWeights:
    raw = json.loads(data)
    df, n = raw["df"], raw["n"]
    if not isinstance(n, int) or not isinstance(df, dict) or not all(isinstance(v, int) for v in df.values()):
        raise TypeError("not a term-weights record")
    return TermWeights.from_counts(df, n)
