"""The offline rubric grader: deterministic, no network, a few milliseconds per answer.

Five dimensions, each 0-100, combined by `total_score` with the question type's weights:

- coverage: the weighted key points hit (keywords and phrases in both languages, and the key
  point's own text), blended with the weighted recall of the reference answer's terms. A
  question with only a reference answer (a batch CSV row) is graded on the reference alone.
- structure, specificity, evidence: surface signals (ordinal markers, numbers with units, a
  first-person case with a result), measured against the level the reference answer itself
  shows, so a one-sentence reference does not demand a five-step answer.
- correctness: starts at 100; listed mistakes and an attempt to instruct the grader deduct.

The last four are scaled by relevance: the structure or the confidence of an answer that
does not address the question is worth nothing, so an off-topic answer scores near 0.
An attempt to instruct the grader is cut out before grading and recorded as a mistake,
so it can only lower the score. Answers are graded on their first 12,000 characters (about
2,000 words; no interview answer is longer), which bounds the time. The grade is an estimate
(`estimate=True`, `grader="offline"`); the caller labels it as such in the reply.
"""

from __future__ import annotations

import math

from bot.core.models import DIMENSIONS, Grade, KeyPointResult, Lang, Level, Question
from bot.core.scoring import total_score
from bot.grading.feedback import feedback, follow_up, pressed_key_point
from bot.grading.injection import strip_injections
from bot.grading.markers import evidence_level, specificity_level, structure_level
from bot.grading.rubric_match import (
    AnswerView,
    KeyPointMatch,
    PreparedQuestion,
    detect_mistakes,
    match_key_point,
    prepared,
    reference_similarity,
    specifics_share,
)

REF_FULL_WITH_KEY_POINTS = 0.6  # reference recall that counts as full coverage next to key points
REF_FULL_REFERENCE_ONLY = 0.85  # ... when the reference is all there is
RELEVANCE_FROM, RELEVANCE_FULL = 0.1, 0.5  # coverage where structure, specificity, evidence start / count in full
CORRECTNESS_FULL = 0.35  # coverage from which correctness counts in full
FIRST_MISTAKE, NEXT_MISTAKE, INJECTION = 0.30, 0.20, 0.50
MAX_ANSWER_CHARS = 12_000  # about 2,000 words: longer answers are graded on their beginning
_LEVEL_BAR = {"campus": 0.85, "engineer": 1.0, "researcher": 1.1}
_INJECTION_TEXT = {
    "en": "Tried to instruct the grader (“{0}”); instructions inside an answer are ignored and count as a mistake",
    "zh": "试图向评分器下指令（“{0}”）；回答中的指令会被忽略，并记为错误",
}


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
    if matches:
        total_w = sum(m.key_point.weight for m in matches)
        kp = sum(m.key_point.weight * m.credit for m in matches) / total_w
    else:
        kp = 0.0
    if not matches:
        return _curve(ref_sim / REF_FULL_REFERENCE_ONLY), kp
    if not pq.references:
        return kp, kp
    keyworded = all(pk.key_point.keywords.both() for pk in pq.key_points)
    share = 0.8 if keyworded else 0.6
    return share * kp + (1 - share) * _curve(ref_sim / REF_FULL_WITH_KEY_POINTS), kp


def _mistake_texts(pq: PreparedQuestion, lang: Lang, view: AnswerView, kp_cov: float) -> list[str]:
    out = []
    listed = pq.question.rubric.mistakes.get(lang)
    for m in detect_mistakes(pq, view, kp_cov):
        out.append(listed[m.index] if m.index < len(listed) else m.text)
    return out


class OfflineGrader:
    """Grades an answer against a question's rubric with text features only (design section 4)."""

    id = "offline"

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        return self.grade_sync(question, answer, lang, level)

    def grade_sync(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        pq = prepared(question)
        text, injected = strip_injections(answer or "")
        text = text[:MAX_ANSWER_CHARS]
        mistakes = [_INJECTION_TEXT[lang].format(injected)] if injected else []
        view = AnswerView.of(text)
        empty = not text.strip()
        matches = [match_key_point(pk, view) for pk in pq.key_points]
        ref_sim = 0.0 if empty else reference_similarity(pq, view)
        coverage, kp_cov = (0.0, 0.0) if empty else _coverage(pq, matches, ref_sim)
        dims = dict.fromkeys(DIMENSIONS, 0)
        spec_share = specifics_share(view.bag, pq.specifics, pq.n_specifics)
        if not empty:
            mistakes = _mistake_texts(pq, lang, view, kp_cov) + mistakes
            dims = self._dimensions(pq, view, coverage, spec_share, level, mistakes, bool(injected))
        missing = [] if not pq.references else self._missing_terms(pq, view, lang)
        specific = self._unmatched_specific(pq, lang, view)
        pressed = pressed_key_point(matches)  # the follow-up presses on it: its answer is graded on it
        point = pressed.text.get(lang) or pressed.text.en if pressed else ""
        return Grade(
            score=total_score(dims, question.type, question.rubric.dimension_weights),
            dimensions=dims,
            key_points=[KeyPointResult(id=m.key_point.id, verdict=m.verdict, evidence=m.evidence) for m in matches],
            mistakes=mistakes,
            feedback=feedback(question, lang, matches, dims, mistakes, missing, specific, empty),
            follow_up=follow_up(question, lang, matches, missing),
            follow_up_points=[point] if point else [],
            follow_up_reference=point,
            grader=self.id,
            estimate=True,
        )

    @staticmethod
    def _dimensions(
        pq: PreparedQuestion,
        view: AnswerView,
        coverage: float,
        spec_share: float | None,
        level: Level,
        mistakes: list[str],
        injected: bool,
    ) -> dict[str, int]:
        relevance = _ramp(coverage, RELEVANCE_FROM, RELEVANCE_FULL)
        ref_structure, ref_spec, ref_evidence = pq.reference_levels[view.lang]
        bar = _LEVEL_BAR.get(level, 1.0)
        structure = _relative(structure_level(view.text), ref_structure)
        spec = _relative(specificity_level(view.text, spec_share), ref_spec * bar)
        evidence = _relative(evidence_level(view.text), max(0.4, ref_evidence) * bar)
        listed = len(mistakes) - (1 if injected else 0)
        deduction = (FIRST_MISTAKE + NEXT_MISTAKE * (listed - 1) if listed else 0.0) + (INJECTION if injected else 0)
        correctness = max(0.0, 1.0 - deduction) * _ramp(coverage, RELEVANCE_FROM, CORRECTNESS_FULL)
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
        ref = pq.reference_for.get(lang) or pq.references[0]
        terms = ref.missing(view.bag, 12)
        return [t for t in terms if t.isascii() and len(t) >= 4][:3]

    @staticmethod
    def _unmatched_specific(pq: PreparedQuestion, lang: Lang, view: AnswerView) -> str | None:
        listed = pq.question.rubric.specifics.get(lang)
        best: dict[int, float] = {}
        for i, prof in pq.specifics:
            best[i] = max(best.get(i, 0.0), prof.recall(view.bag))
        return next((listed[i] for i in sorted(best) if best[i] < 0.3 and i < len(listed)), None)
