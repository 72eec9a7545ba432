"""Which bank question a real interview question is: sentence embeddings plus shared rare terms.

`/review` logs what an interviewer asked, in the candidate's words, in either language or a mix
("pre-LN 为什么比 post-LN 稳？"). The bank's prompts are embedded once (both languages); a question
is scored against each bank question as the best cosine over its two prompts, blended with the
IDF-weighted share of the question's terms that the bank question's prompt, key points or keywords
use, so "loss 尖刺" finds the loss-spike question even where the embedding is unsure. Calibrated on
tests/data/review_phrasings.yaml (bench/review_match.py).

The prompts are embedded on first use (or by the start-up's background warm-up), not when the matcher is
built: the encoder takes a second to load and the bank's 576 texts another, which no start should wait
for. bot/shipped_bank.py's `bank_matcher` reads the terms, and the vectors once computed, from the cache folder.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from bot.grading.features import analyse_reference
from bot.grading.normalize import for_matching
from bot.grading.semantic import Embedder, Vectors, cosine_matrix
from bot.grading.term_weights import TermWeights
from bot.kernel.models import Question

SEM_WEIGHT = 0.7
_VIEW_WEIGHTS = np.array([1.0, 1.0, 0.9, 0.9], dtype=np.float32)  # prompt en, zh; key points en, zh
CASE_FACTOR = 0.8  # a "tell me about a time" bank question, for a logged question that is not one
_CASE = re.compile(
    r"tell me about|a time (?:you|when)|your (?:own )?experience|walk me through a|讲一次|讲讲你|经历|有没有遇到", re.I
)
SURE, UNSURE = 0.62, 0.42  # match at once / offer candidates to confirm / below: no match
MARGIN = 0.03  # ... at once only this far ahead of the runner-up: two bank questions about as close are offered


def _terms(text: str) -> frozenset[str]:
    return frozenset().union(*(s.terms for s in analyse_reference(text))) if text.strip() else frozenset()


class SemanticMatcher:
    """A `QuestionMatcher` over a fixed set of bank questions."""

    sure, unsure, margin = SURE, UNSURE, MARGIN

    def __init__(
        self,
        questions: Iterable[Question],
        embedder: Embedder,
        weights: TermWeights,
        *,
        terms: Sequence[frozenset[str]] | None = None,
        vectors: Vectors | None = None,
        on_vectors: Callable[[Vectors], None] | None = None,
    ) -> None:
        """`terms` and `vectors` as `question_terms` and `vectors()` compute them (from a cache); `on_vectors`
        is called with the vectors once they are computed here."""
        self._questions = list(questions)
        self._embedder = embedder
        self._weights = weights
        self._terms = list(terms) if terms is not None else question_terms(self._questions)
        self._vectors = vectors
        self._on_vectors = on_vectors
        self._lock = threading.Lock()

    def texts(self) -> list[str]:
        """What is embedded: each question's two prompts and the gist of its key points in each language (the
        part of a long prompt that lists options dilutes its embedding; the points say what it is about)."""
        return [
            t
            for q in self._questions
            for t in (
                q.prompt.en,
                q.prompt.zh,
                "; ".join(k.text.en.split(":")[0] for k in q.rubric.key_points) or q.prompt.en,
                "；".join(k.text.zh.split("：")[0] for k in q.rubric.key_points) or q.prompt.zh,
            )
        ]

    def vectors(self) -> Vectors:
        """The embeddings of `texts()`, computed on first use."""
        with self._lock:
            if self._vectors is None:
                texts = self.texts()
                self._vectors = self._embedder.embed(texts) if texts else np.zeros((0, 512), dtype=np.float32)
                if self._on_vectors is not None:
                    self._on_vectors(self._vectors)
            return self._vectors

    def warm(self) -> None:
        """Compute the vectors now (the start-up's background warm-up), so the first /review does not wait."""
        self.vectors()

    def candidates(self, text: str, limit: int = 3) -> list[tuple[Question, float]]:
        if not text.strip() or not self._questions:
            return []
        vec = self._embedder.embed([text])
        sims = (cosine_matrix(vec, self.vectors())[0].reshape(-1, 4) * _VIEW_WEIGHTS).max(axis=1)
        mine = _terms(for_matching(text))
        total = sum(self._weights(t) for t in mine) or 1.0
        story = bool(_CASE.search(text))
        scored = []
        for q, sim, theirs in zip(self._questions, sims, self._terms, strict=True):
            shared = sum(self._weights(t) for t in mine & theirs) / total
            score = SEM_WEIGHT * float(sim) + (1 - SEM_WEIGHT) * shared
            scored.append((q, score * (CASE_FACTOR if q.type == "case" and not story else 1.0)))
        scored.sort(key=lambda x: (-x[1], x[0].id))
        return [(q, round(max(0.0, min(1.0, s)), 4)) for q, s in scored[:limit]]


def question_terms(questions: Iterable[Question]) -> list[frozenset[str]]:
    """Each question's terms: its prompts', its key points' and its keywords'."""
    return [
        _terms(q.prompt.en)
        | _terms(q.prompt.zh)
        | frozenset().union(
            *(
                _terms(k.text.en) | _terms(k.text.zh) | _terms(" , ".join(k.keywords.both()))
                for k in q.rubric.key_points
            )
        )
        for q in questions
    ]


class DeferredMatcher:
    """A `QuestionMatcher` built on first use, or by `warm()`: a start need not wait for the matcher's terms and
    weights (seconds to compute when the cache is cold) or for the encoder."""

    sure, unsure, margin = SURE, UNSURE, MARGIN

    def __init__(self, build: Callable[[], SemanticMatcher]) -> None:
        self._build = build
        self._matcher: SemanticMatcher | None = None
        self._lock = threading.Lock()

    def matcher(self) -> SemanticMatcher:
        with self._lock:
            if self._matcher is None:
                self._matcher = self._build()
            return self._matcher

    def candidates(self, text: str, limit: int = 3) -> list[tuple[Question, float]]:
        return self.matcher().candidates(text, limit)

    def warm(self) -> None:
        self.matcher().warm()


def dump_terms(terms: list[frozenset[str]]) -> bytes:
    """`question_terms` as the cache folder keeps them (bot/shipped_bank.py `bank_matcher`)."""
    return json.dumps([sorted(t) for t in terms], ensure_ascii=False, separators=(",", ":")).encode()


def load_terms(data: bytes) -> list[frozenset[str]]:
    """`dump_terms`' bytes read back; TypeError when they are not a list of term lists."""
    raw = json.loads(data)
    if not isinstance(raw, list) or not all(isinstance(t, list) for t in raw):
        raise TypeError("not a list of term lists")
    return [frozenset(str(x) for x in t) for t in raw]


def dump_vectors(vectors: Vectors) -> bytes:
    """`SemanticMatcher.vectors()` as the cache folder keeps them: little-endian float32, row after row."""
    return np.ascontiguousarray(vectors, dtype="<f4").tobytes()


def load_vectors(data: bytes | None, questions: int) -> Vectors | None:
    """`dump_vectors`' bytes read back for a matcher over `questions` questions (four texts each); None when there
    are none or they do not fit."""
    rows = questions * len(_VIEW_WEIGHTS)
    if data is None or not rows or not data or len(data) % (rows * 4) != 0:
        return None
    return np.frombuffer(data, dtype="<f4").reshape(rows, -1).astype(np.float32)
