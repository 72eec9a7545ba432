"""From the model's verdicts to the five dimension scores, in code.

Coverage is the weighted share of key points hit (a partial counts half). A hit or a partial needs a quote
that states that key point: one that shares the point's own terms (its text and keywords in either
language, less the question's words) or one of its numbers, `states`; a quote that does not is no
evidence, and the point is missed, whatever the model said (a model told by the answer to give full
marks quotes whatever it finds). A quote that states the point but is not in the answer is lowered one
step (hit -> partial -> missed): a point is credited for what the answer says, not for what the model
remembers of the rubric. Correctness starts at 100 and loses a
fixed amount per mistake by severity. Structure, specificity and evidence are levels mapped to
numbers. Several samples are combined by averaging each point's credit and each dimension.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import mean

from bot.grading.llm_reply import Reply
from bot.grading.normalize import for_matching
from bot.grading.terms import terms_of
from bot.kernel.models import DIMENSIONS, LANGS, KeyPoint, Question
from bot.text.tokens import normalize

CREDIT = {"hit": 1.0, "partial": 0.5, "missed": 0.0}
LOWER = {"hit": "partial", "partial": "missed", "missed": "missed"}
LEVEL_SCORE = {"none": 5, "weak": 35, "fair": 65, "strong": 90}
PENALTY = {"serious": 40, "minor": 15}
QUOTE_SHARE = 0.7  # share of a quote's words (or CJK characters) that must appear in the answer
_TOKEN = re.compile(r"[\u3400-\u9fff]|[a-z0-9]+(?:[.'][a-z0-9]+)*")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalize(text))


def quoted(quote: str, answer: str) -> bool:
    """Whether the quote is (nearly) in the answer: a substring, or most of its words in the answer."""
    words = _tokens(quote)
    if not words:
        return False
    plain = " ".join(_tokens(answer))
    if " ".join(words) in plain:
        return True
    present = set(plain.split())
    return sum(w in present for w in words) >= QUOTE_SHARE * len(words)


STATE_WEIGHT = 1.0  # weight of its own terms a quote must share with a key point to state it (one rare term) ...
STATE_SHARE = 0.5  # ... or this share of all of them, when the point's terms weigh less in all
PointTerms = dict[str, tuple[dict[str, float], ...]]
"""Per key-point id: its content terms in each language with their weights, the question's own words left out."""


def _terms(*texts: str) -> set[str]:
    return {t for text in texts if text for t in terms_of(for_matching(text))}


def point_terms(
    points: Sequence[KeyPoint], question: Question | None = None, weights: Callable[[str], float] | None = None
) -> PointTerms:
    """What a quote must share with each point to state it: the point's text and keywords per language (for the
    point that stands for the reference answer, that answer), less the words of the question itself (quoting
    the question back states nothing), each term weighted by how rare it is in the bank (`weights`: a word in
    many key points, "model", "训练", says little; none: every term weighs 1)."""
    asked = _terms(question.prompt.en, question.prompt.zh) if question is not None else set()
    out: PointTerms = {}
    for k in points:
        by_lang = []
        for lang in LANGS:
            texts = [k.text.get(lang), *k.keywords.get(lang)]
            if k.id == "reference" and question is not None:
                texts = [question.reference_answer.get(lang)]
            by_lang.append({t: weights(t) if weights else 1.0 for t in _terms(*texts) - asked})
        out[k.id] = tuple(by_lang)
    return out


def states(quote: str, terms: tuple[dict[str, float], ...]) -> bool:
    """Whether the quote states the key point whose terms these are: the terms it shares with the point in one
    language weigh `STATE_WEIGHT` (about one rare term, or a few common ones) or half of all the point's terms.
    A point with no terms of its own (all the question's words) cannot be checked this way: any quote passes."""
    said = set(terms_of(for_matching(quote), answer_side=True))
    for own in terms:
        if own and sum(w for t, w in own.items() if t in said) >= min(STATE_WEIGHT, STATE_SHARE * sum(own.values())):
            return True
    return not any(terms)


_SENTENCE_END = re.compile(r"(?<=[.!?;。！？；\n])")


def evidence(quote: str, answer: str) -> str:
    """What the quote stands for in the answer: the sentence holding it (the shortest of the answer's sentences
    and pairs of neighbouring sentences that hold `QUOTE_SHARE` of its words), or the quote itself when the answer
    holds it nowhere. A model's quote is cut at 60 characters (30 in Chinese), often before the words that name
    its point; the sentence it was cut from is what the answer says."""
    words = _tokens(quote)
    if not words:
        return quote
    sentences = [x for x in _SENTENCE_END.split(answer) if x.strip()]
    spans = sentences + [a + b for a, b in pairwise(sentences)]
    holding = []
    for span in spans:
        present = set(_tokens(span))
        if sum(w in present for w in words) >= QUOTE_SHARE * len(words):
            holding.append(span)
    return min(holding, key=len) if holding else quote


def checked_verdicts(reply: Reply, answer: str, terms: PointTerms | None = None) -> dict[str, tuple[str, str]]:
    """Per key-point id: (verdict, quote) after the quote check (with `terms`, the statement check first)."""
    out = {}
    for p in reply.points:
        verdict = p.verdict
        stated = terms is None or p.id not in terms or states(evidence(p.quote, answer), terms[p.id])
        if verdict != "missed" and not stated:
            verdict = "missed"  # the quote does not say this point: no evidence for it
        elif verdict != "missed" and not quoted(p.quote, answer):
            verdict = LOWER[verdict]
        out[p.id] = (verdict, p.quote if verdict != "missed" else "")
    return out


@dataclass(frozen=True)
class Derived:
    dimensions: dict[str, int]
    verdicts: dict[str, tuple[str, str]]  # id -> (verdict, quote)


def derive(
    reply: Reply, answer: str, points: Sequence[KeyPoint], terms: PointTerms | None = None
) -> tuple[dict[str, float], dict[str, float]]:
    """(dimension scores, per-point credit) for one sample."""
    verdicts = checked_verdicts(reply, answer, terms)
    credit = {k.id: CREDIT[verdicts[k.id][0]] if k.id in verdicts else 0.0 for k in points}
    weight = sum(k.weight for k in points)
    coverage = 100 * sum(k.weight * credit[k.id] for k in points) / weight if weight else 0.0
    correctness = max(0, 100 - sum(PENALTY[m.severity] for m in reply.mistakes))
    dims = {"coverage": coverage, "correctness": float(correctness)}
    dims.update({d: float(LEVEL_SCORE[level]) for d, level in reply.levels.items()})
    return dims, credit


def combine(
    replies: Sequence[Reply], answer: str, points: Sequence[KeyPoint], terms: PointTerms | None = None
) -> tuple[Derived, int]:
    """Average the samples; returns the combined result and the index of the sample closest to it
    (whose feedback, mistakes and follow-up are shown). `terms` (point_terms): each hit's quote must state its
    point."""
    per = [derive(r, answer, points, terms) for r in replies]
    dims = {d: round(mean(p[0][d] for p in per)) for d in DIMENSIONS}
    verdicts: dict[str, tuple[str, str]] = {}
    for k in points:
        credit = mean(p[1][k.id] for p in per)
        verdict = "hit" if credit >= 0.75 else "partial" if credit >= 0.25 else "missed"
        quote = next((q for r in replies if (q := checked_verdicts(r, answer, terms).get(k.id, ("", ""))[1])), "")
        verdicts[k.id] = (verdict, quote if verdict != "missed" else "")
    closest = min(range(len(per)), key=lambda i: sum(abs(per[i][0][d] - dims[d]) for d in DIMENSIONS))
    return Derived(dims, verdicts), closest
