"""Which bank question a real interview question is: sentence embeddings plus shared rare terms.

`/review` logs what an interviewer asked, in the candidate's words, in either language or a mix
("pre-LN 为什么比 post-LN 稳？"). The bank's prompts are embedded once (both languages); a question
is scored against each bank question as the best cosine over its two prompts, blended with the
IDF-weighted share of the question's terms that the bank question's prompt, key points or keywords
use, so "loss 尖刺" finds the loss-spike question even where the embedding is unsure. Calibrated on
tests/data/review_phrasings.yaml (bench/review_match.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from bot.grading.features import analyse_reference
from bot.grading.normalize import for_matching
from bot.grading.semantic import Embedder, cosine_matrix
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

    def __init__(self, questions: Iterable[Question], embedder: Embedder, weights: TermWeights) -> None:
        self._questions = list(questions)
        self._embedder = embedder
        self._weights = weights
        # Each question is its two prompts and the gist of its key points in each language (the part of a
        # long prompt that lists options dilutes its embedding; the points say what it is about).
        prompts = [
            t
            for q in self._questions
            for t in (
                q.prompt.en,
                q.prompt.zh,
                "; ".join(k.text.en.split(":")[0] for k in q.rubric.key_points) or q.prompt.en,
                "；".join(k.text.zh.split("：")[0] for k in q.rubric.key_points) or q.prompt.zh,
            )
        ]
        self._vectors = embedder.embed(prompts) if prompts else np.zeros((0, 512), dtype=np.float32)
        self._terms = [
            _terms(q.prompt.en)
            | _terms(q.prompt.zh)
            | frozenset().union(
                *(
                    _terms(k.text.en) | _terms(k.text.zh) | _terms(" , ".join(k.keywords.both()))
                    for k in q.rubric.key_points
                )
            )
            for q in self._questions
        ]

    def candidates(self, text: str, limit: int = 3) -> list[tuple[Question, float]]:
        if not text.strip() or not self._questions:
            return []
        vec = self._embedder.embed([text])
        sims = (cosine_matrix(vec, self._vectors)[0].reshape(-1, 4) * _VIEW_WEIGHTS).max(axis=1)
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
