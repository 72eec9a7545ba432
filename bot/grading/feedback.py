"""Feedback and the follow-up question of an offline grade, in the user's language (zh or en)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from bot.grading.features import terms_of
from bot.grading.normalize import for_matching
from bot.grading.rubric_match import KeyPointMatch
from bot.kernel.i18n import MESSAGES, t
from bot.kernel.models import KeyPoint, Lang, Question
from bot.kernel.premise import askable_indexes
from bot.kernel.render import point_label
from bot.kernel.scoring import weights_for

_QUANTITY = re.compile(r"(?<![A-Za-z\d])\d")  # a number of its own ("1.0", "5%"), not part of a name ("FP16", "H100")


def label(kp: KeyPoint, lang: Lang) -> str:
    """A short name for a key point, never cut mid-sentence (bot/kernel/render.point_label)."""
    return point_label(kp, lang)


def _join(items: Sequence[str], lang: Lang) -> str:
    sep = "；" if lang == "zh" else "; "
    return sep.join(items)


def _gap(m: KeyPointMatch, lang: Lang) -> str:
    """A gap's name; a partial point says what it lacked."""
    name = label(m.key_point, lang)
    if m.verdict == "partial" and m.missing == "number" and _QUANTITY.search(m.key_point.text.get(lang)):
        return t(lang, "feedback.gap.number", name=name)
    if m.verdict == "partial":
        return t(lang, "feedback.gap.partial", name=name)
    return name


def _gaps(matches: Sequence[KeyPointMatch]) -> list[KeyPointMatch]:
    """Key points not fully covered, the heaviest (and the least covered) first."""
    open_ = [m for m in matches if m.verdict != "hit"]
    return sorted(open_, key=lambda m: (-m.key_point.weight * (1.0 - m.credit), m.credit))


def _improvement(dims: Mapping[str, int], question: Question, lang: Lang, specific: str | None) -> str:
    """One concrete improvement: the missing content first, else the weakest weighted surface dimension."""
    weights = weights_for(question.type, question.rubric.dimension_weights)
    if dims["coverage"] < 50:
        return t(lang, "feedback.improve.points" if question.rubric.key_points else "feedback.improve.head_on")
    bonus = {"specificity": 0, "evidence": 0 if question.type == "case" else 20, "structure": 5}
    candidates = [(d, dims[d] + b) for d, b in bonus.items() if weights.get(d, 0) > 0]
    weakest, value = min(candidates, key=lambda kv: kv[1]) if candidates else ("", 100)
    if value >= 80:
        return t(lang, "feedback.improve.gaps_first" if dims["coverage"] < 80 else "feedback.improve.solid")
    if weakest == "specificity":  # the question's own numbers, never a generic list (no learning rates for evals)
        if specific:
            return t(lang, "feedback.improve.specific", specific=specific)
        return t(lang, "feedback.improve.numbers")
    if weakest == "evidence":  # only a case question asks for the candidate's own story
        return t(lang, "feedback.improve.case" if question.type == "case" else "feedback.improve.mechanism")
    return _structure_advice(question, lang)


STRUCTURED_TYPES = ("fault", "compare", "code", "case")  # each has its own advice (feedback.structure.<type>)


def _structure_advice(question: Question, lang: Lang) -> str:
    """How to lay the answer out, by question type."""
    kind = question.type if question.type in STRUCTURED_TYPES else "other"
    return t(lang, f"feedback.structure.{kind}")


def feedback(
    question: Question,
    lang: Lang,
    matches: Sequence[KeyPointMatch],
    dims: Mapping[str, int],
    mistakes: Sequence[str],
    missing_terms: Sequence[str],
    specific: str | None,
    empty: bool,
    coherence: float = 1.0,
) -> str:
    """2-4 sentences: what was covered, the most important gaps, one concrete improvement, mistakes."""
    zh = lang == "zh"
    out: list[str] = []
    gaps = [_gap(m, lang) for m in _gaps(matches)[:2]]
    if empty:
        out.append(t(lang, "feedback.empty"))
    elif coherence < 0.35:
        out.append(t(lang, "feedback.salad"))
    else:
        hits = [label(m.key_point, lang) for m in matches if m.verdict == "hit"][:2]
        if hits:
            out.append(t(lang, "feedback.covered", points=_join(hits, lang)))
        elif matches:
            out.append(t(lang, "feedback.not_covered"))
        else:
            out.append(t(lang, "feedback.coverage", pct=dims["coverage"]))
    if gaps:
        out.append(t(lang, "feedback.gaps", gaps=_join(gaps, lang)))
    elif missing_terms and dims["coverage"] < 85:
        quoted = ("、" if zh else ", ").join(f"“{term}”" for term in missing_terms)
        out.append(t(lang, "feedback.reference_terms", terms=quoted))
    if not empty:
        out.append(_improvement(dims, question, lang, specific))
    if mistakes:
        out.append(t(lang, "feedback.watch_out", mistake=mistakes[0].rstrip("。." if zh else ".")))
    return " ".join(out[:4]) if not zh else "".join(out[:4])


def pressed_key_point(matches: Sequence[KeyPointMatch]) -> KeyPoint | None:
    """The missed key point worth a follow-up: the heaviest missed one, if at least average weight."""
    missed = [m for m in matches if m.verdict == "missed"]
    if not missed:
        return None
    mean_weight = sum(m.key_point.weight for m in matches) / len(matches)
    top = max(missed, key=lambda m: m.key_point.weight)
    return top.key_point if top.key_point.weight >= mean_weight else None


def related_follow_up(question: Question, point: KeyPoint | None, allowed: Collection[int] | None = None) -> int | None:
    """The question's hand-written follow-up (among `allowed`, default all) most about `point` (shared terms)."""
    if point is None or not question.follow_ups:
        return None
    wanted = _terms(point.text.en) | _terms(point.text.zh) | _terms(" , ".join(point.keywords.both()))
    best, best_overlap = None, 1
    for i, f in enumerate(question.follow_ups):
        if allowed is not None and i not in allowed:
            continue
        overlap = len(wanted & (_terms(f.en) | _terms(f.zh)))
        if overlap > best_overlap:
            best, best_overlap = i, overlap
    return best


def _point_terms(point: KeyPoint) -> set[str]:
    return _terms(point.text.en) | _terms(point.text.zh) | _terms(" , ".join(point.keywords.both()))


def follow_up_for_points(question: Question, point_ids: Sequence[str], exclude: Collection[int] = ()) -> int | None:
    """The mock interview's offline follow-up: for the weak key points in `point_ids` (weakest first), the
    first one that a hand-written follow-up targets decides: the follow-up whose prompt and own rubric
    share the most terms with it (more than one, the bar of `related_follow_up`). Else the first follow-up
    not in `exclude`; None when every one is excluded."""
    left = [i for i in range(len(question.follow_ups)) if i not in exclude]
    if not left:
        return None
    points = {k.id: k for k in question.rubric.key_points}
    for pid in point_ids:
        point = points.get(pid)
        if point is None:
            continue
        wanted = _point_terms(point)
        best, best_overlap = None, 1
        for i in left:
            f = question.follow_ups[i]
            target = _terms(f.en) | _terms(f.zh)
            for k in f.key_points:
                target |= _point_terms(k)
            overlap = len(wanted & target)
            if overlap > best_overlap:
                best, best_overlap = i, overlap
        if best is not None:
            return best
    return left[0]


def _terms(text: str) -> set[str]:
    return set(terms_of(for_matching(text))) if text.strip() else set()


GENERIC_KINDS = ("practical", "compare", "concept", "code")
GENERIC_FOLLOW_UPS: dict[str, dict[str, str]] = {kind: MESSAGES[f"follow_up.generic.{kind}"] for kind in GENERIC_KINDS}
"""The generic follow-ups by kind, in both languages (locales/zh.po: follow_up.generic.<kind>)."""


def generic_follow_up(question: Question, lang: Lang) -> str:
    """A follow-up that stands on its own: it presupposes nothing the answer did not say, and quotes no key point."""
    kind = question.type if question.type in ("compare", "concept", "code") else "practical"
    return GENERIC_FOLLOW_UPS[kind][lang]


def follow_up(question: Question, lang: Lang, matches: Sequence[KeyPointMatch], answer: str) -> str:
    """One of the question's own follow-ups that this answer allows (its premise stated: bot/kernel/premise.py),
    the one about the weakest important point when there is one; else a generic one for the question's type."""
    allowed = askable_indexes(question, answer)
    if not allowed:
        return generic_follow_up(question, lang)
    i = related_follow_up(question, pressed_key_point(matches), allowed)
    return question.follow_ups[i if i is not None else allowed[0]].get(lang)
