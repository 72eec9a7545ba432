"""Language-neutral text features: normalisation, tokens and character n-grams.

Chinese has no spaces, so similarity works on character n-grams for CJK runs and on
lower-cased word tokens for Latin text; both are plain stdlib so the core stays light.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from bot.text.fold import squash

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[a-z0-9]+(?:[.\-'][a-z0-9]+)*")


def normalize(text: str) -> str:
    """NFKC (full-width to half-width), case-folded, collapsed white space (`bot.text.fold.squash`)."""
    return squash(text)


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def words(text: str) -> list[str]:
    return _WORD.findall(normalize(text))


def char_ngrams(text: str, n: int) -> dict[str, float]:
    """Counts of character n-grams after normalisation (spaces kept as one space)."""
    t = normalize(text)
    if len(t) < n:
        return {t: 1.0} if t else {}
    return dict(Counter(t[i : i + n] for i in range(len(t) - n + 1)))


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if not a or not b:
        return 0.0
    if len(a) > len(b):
        a, b = b, a
    dot = sum(v * b.get(k, 0.0) for k, v in a.items())
    na = math.sqrt(sum(v * v for v in a.values()))
    nb = math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb) if na and nb else 0.0


def similarity(a: str, b: str) -> float:
    """Cosine similarity over mixed features: CJK bigrams plus Latin word unigrams."""
    return cosine(features(a), features(b))


def features(text: str) -> dict[str, float]:
    t = normalize(text)
    feats: Counter[str] = Counter(words(t))
    cjk = "".join(ch if _CJK.match(ch) else " " for ch in t).split()
    for run in cjk:
        if len(run) == 1:
            feats[run] += 1
        for i in range(len(run) - 1):
            feats[run[i : i + 2]] += 1
    return dict(feats)
