"""The offline rubric grader: deterministic, no network, a few milliseconds per answer.

Five dimensions, each 0-100, combined by `total_score` with the question type's weights:

- coverage: the weighted key points the answer asserts (see `rubric_match`: terms with their
  stance, rare terms weighing more, a sentence embedding for paraphrase and the other
  language), blended with how much of the reference answer it says. A question with only a
  reference answer (a batch CSV row) is graded on the reference alone.
- structure, specificity, evidence: surface signals (ordinal markers, numbers with units, a
  first-person case with a result), measured against the level the reference answer itself
  shows, so a one-sentence reference does not demand a five-step answer.
- soundness (computed as `correctness` and weighed into the estimate, but never part of the grade: the
  estimate cannot tell a right claim from its opposite in the same words, bot/kernel/verdicts.py): starts at
  100; listed mistakes, contradicted key points and an attempt to instruct the grader deduct.

Everything but coverage is scaled by relevance (the structure of an off-topic answer is worth
nothing), and everything by coherence: a list of terms with no sentences asserts nothing,
so its coverage is capped and its structure and evidence are zero. An attempt to instruct the
grader is cut out before grading and recorded as a mistake, so it can only lower the score.
Answers are graded on their first 12,000 characters (about 2,000 words), which bounds the
time. The grade is an estimate (`estimate=True`, `grader="offline"`).
"""

from __future__ import annotations

import asyncio
import math
import threading

import numpy as np

from bot.grading.features import is_cjk
from bot.grading.feedback import feedback, follow_up, label, pressed_key_point, related_follow_up
from bot.grading.injection import strip_injections
from bot.grading.markers import code_level, evidence_level, prose_level, specificity_level, structure_level
from bot.grading.mistakes import PreparedMistake, claimed_mistakes, only_mistakes
from bot.grading.rubric_match import (
    AnswerView,
    KeyPointMatch,
    PreparedQuestion,
    match_key_point,
    prepared,
    reference_similarity,
    specific_credits,
    specifics_share,
)
from bot.grading.semantic import Embedder, UseEmbedder, Vectors, default_embedder
from bot.grading.term_weights import TermWeights, bank_weights
from bot.kernel.i18n import t
from bot.kernel.models import DIMENSIONS, Grade, KeyPointResult, Lang, Level, Question
from bot.kernel.premise import askable_indexes
from bot.kernel.scoring import total_score

REF_FULL_WITH_KEY_POINTS = 0.55  # reference recall that counts as full coverage next to key points
REF_FULL_REFERENCE_ONLY = 0.95  # ... when the reference is all there is
RELEVANCE_FROM, RELEVANCE_FULL = 0.1, 0.4  # coverage where structure, specificity, evidence start / count in full
CORRECTNESS_FULL = 0.35  # coverage from which correctness counts in full
FIRST_MISTAKE, NEXT_MISTAKE, INJECTION = 0.30, 0.20, 0.50
INJECTED_COVERAGE = 0.75
SALAD_FLOOR = 0.2  # the share of coverage a list of terms with no sentences keeps
CONFLICT_FROM, CONFLICT_FULL = 0.25, 0.6  # share of the points' terms said with the other stance: doubt / none
MAX_ANSWER_CHARS = 12_000  # about 2,000 words: longer answers are graded on their beginning
_LEVEL_BAR = {"campus": 0.85, "engineer": 1.0, "researcher": 1.1}


def _curve(x: float) -> float:
    """Concave 0-1 map: partial recall earns proportionally more, the full reference earns 1."""
    x = max(0.0, min(1.0, x))
    return 1.0 - math.pow(1.0 - x, 1.5)


def _ramp(x: float, start: float, full: float) -> float:
    """0 below `start`, 1 from `full`, linear in between."""
    return max(0.0, min(1.0, (x - start) / (full - start)))


def _relative(level: float, bar: float) -> float:
    """The answer's level against the reference's (capped at 0.8); nothing expected -> full marks."""
    bar = min(bar, 0.8)
    if bar < 0.1:
        return 1.0
    return min(1.0, level / bar)


def _coverage(pq: PreparedQuestion, matches: list[KeyPointMatch], ref_sim: float) -> tuple[float, float]:
    """(coverage 0-1, key point coverage 0-1)."""
    if not matches:
        return _curve(ref_sim / REF_FULL_REFERENCE_ONLY), 0.0
    total_w = sum(m.key_point.weight for m in matches)
    kp = sum(m.key_point.weight * m.credit for m in matches) / total_w
    if not pq.references:
        return kp, kp
    keyworded = all(pk.key_point.keywords.both() for pk in pq.key_points)
    share = 0.8 if keyworded else 0.6
    return share * kp + (1 - share) * _curve(ref_sim / REF_FULL_WITH_KEY_POINTS), kp


def _mistake_texts(pq: PreparedQuestion, lang: Lang, found: dict[int, PreparedMistake]) -> list[str]:
    listed = pq.question.rubric.mistakes.get(lang)
    return [listed[i] if i < len(listed) else found[i].text for i in sorted(found)]


class OfflineGrader:
    """Grades an answer against a question's rubric with text features and sentence embeddings (design 4)."""

    id = "offline"

    def __init__(
        self, embedder: Embedder | None = None, *, semantic: bool = True, weights: TermWeights | None = None
    ) -> None:
        self._embedder: Embedder | None = embedder if embedder is not None else None
        self._semantic = semantic
        self._weights = weights
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder | None:
        if self._embedder is None and self._semantic:
            self._embedder = default_embedder()
        return self._embedder if self._semantic else None

    @property
    def weights(self) -> TermWeights:
        if self._weights is None:
            self._weights = bank_weights()
        return self._weights

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        """Graded in a thread, one at a time, so the event loop never waits on it (the bot's own runs go through
        the worker pool instead: bot/grading/pooled.py)."""
        return await asyncio.to_thread(self._grade_locked, question, answer, lang, level)

    def _grade_locked(self, question: Question, answer: str, lang: Lang, level: Level) -> Grade:
        with self._lock:  # the lazy encoder, weights and prepared rubrics are built once, not by two threads
            return self.grade_sync(question, answer, lang, level)

    def _vectors(self, pq: PreparedQuestion, view: AnswerView) -> tuple[Vectors | None, ...]:
        """Embeddings of the rubric's texts, one group per use (mistakes, each key point, the references:
        None for an empty group), and of the answer's sentences into `view`, in one encoder call."""
        groups = [tuple(m.core for m in pq.mistakes), *(pk.texts for pk in pq.key_points), pq.reference_texts]
        emb = self.embedder
        if emb is None:
            return tuple(None for _ in groups)
        flat = [t for g in groups for t in g]
        if isinstance(emb, UseEmbedder):
            sentences, vectors = emb.embed_with(view.embedded_texts() if view.sentences else [], flat)
            if view.sentences:
                view.take_vectors(sentences)
        else:
            vectors = emb.embed(flat) if flat else np.zeros((0, 512), dtype=np.float32)
        out: list[Vectors | None] = []
        start = 0
        for g in groups:
            out.append(vectors[start : start + len(g)] if g else None)
            start += len(g)
        return tuple(out)

    def grade_sync(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        pq = prepared(question, self.weights)
        text, injected = strip_injections(answer or "")
        text = text[:MAX_ANSWER_CHARS]
        mistakes = [t(lang, "mistake.injection.offline", quote=injected)] if injected else []
        view = AnswerView.of(text, self.embedder)
        empty = not view.sentences
        mistake_vectors, *kp_vectors, ref_vectors = self._vectors(pq, view)
        claimed, wrong = claimed_mistakes(pq, view, mistake_vectors)
        matches = [match_key_point(pk, view, v, wrong) for pk, v in zip(pq.key_points, kp_vectors, strict=True)]
        ref_sim = 0.0 if empty else reference_similarity(pq, view, ref_vectors, wrong)
        coverage, kp_cov = (0.0, 0.0) if empty else _coverage(pq, matches, ref_sim)
        prose = prose_level(text) if question.type != "code" else max(prose_level(text), code_level(text))
        coherence = 0.0 if empty else _ramp(prose, 0.1, 0.6)  # a code answer's statements are its sentences
        total_w = sum(m.key_point.weight for m in matches) or 1.0
        conflict = sum(m.key_point.weight * m.conflict for m in matches) / total_w
        stance = 1.0 - _ramp(conflict, CONFLICT_FROM, CONFLICT_FULL)  # 0 when the answer denies what the points say
        coverage *= SALAD_FLOOR + (1 - SALAD_FLOOR) * coherence
        if injected:
            coverage *= INJECTED_COVERAGE  # steering the grade is a mistake, so it can only cost
        dims = dict.fromkeys(DIMENSIONS, 0)
        spec_credits = specific_credits(view, pq.specifics)
        spec_share = specifics_share(view, pq.specifics, pq.n_specifics, spec_credits)
        if not empty:
            found = {**claimed, **only_mistakes(pq, view, kp_cov, set(claimed))}
            contradicted = [
                t(lang, "mistake.contradiction", point=label(m.key_point, lang)) for m in matches if m.contradicted
            ]
            mistakes = _mistake_texts(pq, lang, found) + contradicted + mistakes
            if stance < 0.5:
                mistakes.insert(0, t(lang, "mistake.conflict"))
            dims = self._dimensions(pq, view, coverage, coherence * stance, spec_share, level, mistakes, bool(injected))
        missing = [] if not pq.references else self._missing_terms(pq, view, lang)
        specific = self._unmatched_specific(pq, lang, spec_credits)
        pressed = pressed_key_point(matches)  # the follow-up presses on it: its answer is graded on it
        allowed = askable_indexes(question, text)
        if not allowed or related_follow_up(question, pressed, allowed) is None:
            pressed = None  # another bank follow-up, or a generic one, is asked: graded on its own rubric
        point = pressed.text.get(lang) or pressed.text.en if pressed else ""
        score = total_score(dims, question.type, question.rubric.dimension_weights)
        dims.pop("correctness")  # weighed into the estimate, never shown: it cannot know whether a claim is right
        return Grade(
            score=score,
            dimensions=dims,
            key_points=[KeyPointResult(id=m.key_point.id, verdict=m.verdict, evidence=m.evidence) for m in matches],
            mistakes=mistakes,
            feedback=feedback(question, lang, matches, dims, mistakes, missing, specific, empty, coherence),
            follow_up=follow_up(question, lang, matches, text),
            follow_up_points=[point] if point else [],
            follow_up_reference=point,
            grader=self.id,
            estimate=True,
            injection=injected is not None,
        )

    @staticmethod
    def _dimensions(
        pq: PreparedQuestion,
        view: AnswerView,
        coverage: float,
        coherence: float,
        spec_share: float | None,
        level: Level,
        mistakes: list[str],
        injected: bool,
    ) -> dict[str, int]:
        relevance = _ramp(coverage, RELEVANCE_FROM, RELEVANCE_FULL) * coherence
        ref_structure, ref_spec, ref_evidence = pq.reference_levels[view.lang]
        bar = _LEVEL_BAR.get(level, 1.0)
        structure = _relative(structure_level(view.text), ref_structure)
        spec = _relative(specificity_level(view.text, spec_share), ref_spec * bar)
        evidence = _relative(evidence_level(view.text), max(0.4, ref_evidence) * bar)
        listed = len(mistakes) - (1 if injected else 0)
        deduction = (FIRST_MISTAKE + NEXT_MISTAKE * (listed - 1) if listed else 0.0) + (INJECTION if injected else 0)
        asserted = 0.3 + 0.7 * coherence  # a list of terms claims nothing to be right about
        correctness = max(0.0, 1.0 - deduction) * _ramp(coverage, RELEVANCE_FROM, CORRECTNESS_FULL) * asserted
        raw = {
            "coverage": coverage,
            "structure": structure * relevance,
            "specificity": spec * relevance,
            "evidence": evidence * relevance,
            "correctness": correctness,
        }
        return {k: round(100 * v) for k, v in raw.items()}

    @staticmethod
    def _missing_terms(pq: PreparedQuestion, view: AnswerView, lang: Lang) -> list[str]:
        """Keywords of the reference's language that the answer never uses (for the feedback)."""
        seen = {t for c in view.clauses for t in c.terms}
        out: list[str] = []
        for pk in pq.key_points:
            con = pk.by_lang.get(lang)
            for ph, _ in con.phrases if con else ():
                if not (ph.terms & seen) and ph.source.isascii() == (not is_cjk(ph.source)) and len(ph.source) >= 4:
                    out.append(ph.source)
                    break
        return out[:3]

    @staticmethod
    def _unmatched_specific(pq: PreparedQuestion, lang: Lang, credits: list[float]) -> str | None:
        listed = pq.question.rubric.specifics.get(lang)
        share = {i: c for (i, _), c in zip(pq.specifics, credits, strict=True)}  # the later language's, as before
        return next((listed[i] for i in sorted(share) if share[i] < 0.3 and i < len(listed)), None)
