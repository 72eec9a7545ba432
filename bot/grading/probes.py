"""Adversarial answers built from a question's own rubric, to probe a grader with.

A grader that credits words instead of claims passes these: the rubric's keywords pasted as a
list, the rubric's listed mistakes stated as claims, the reference answer with every clause's
stance flipped, and a vague one-liner. The benchmark scores every bank question on them and the
tests hold the grader to a ceiling on each (issue: grading you can trust).
"""

from __future__ import annotations

import re

from bot.grading.features import negated, split_sentences
from bot.grading.mistakes import mistake_core
from bot.grading.normalize import for_matching
from bot.kernel.models import Lang, Question

VAGUE: dict[Lang, str] = {
    "en": "It depends on the situation; I would look into it carefully and fix whatever is wrong.",
    "zh": "要看具体情况，我会仔细分析一下，然后把问题解决掉。",
}
_LEAD = re.compile(r"^\s*(?:only says?|only|just|says?|claims?|thinks?|believes?|只说|只会|认为|以为|觉得|说)\s*", re.I)
_QUOTE = re.compile(r"[\"'“”‘’]")
_CLAUSE = re.compile(r"(，|；|, |; |: |：|\(|\)|（|）| - )")
_EN_AUX = re.compile(r"\b(is|are|was|were|can|will|should|must|does|do|has|have|would|could|may)\b")
_EN_CUE = re.compile(r"\b(not|never|without|cannot|no)\b|n't\b", re.I)
_ZH_CUE = re.compile(r"没有|不是|不会|不需要|不要|不能|不|没|未|无")
_ZH_UNDO = {"没有": "有", "不是": "是", "不会": "会", "不需要": "需要", "不要": "要", "不能": "能"}
_EN_UNDO = {"never": "always", "without": "with", "cannot": "can", "no": "some"}
_ZH_VERBS = ("会", "是", "要", "需要", "可以", "能", "应该", "用", "把", "先", "让", "使", "在", "有")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def keyword_salad(q: Question, lang: Lang) -> str:
    """Every keyword of the question's key points, as one list."""
    words = [k for kp in q.rubric.key_points for k in kp.keywords.get(lang)]
    return ("、" if lang == "zh" else ", ").join(words)


def mistakes_answer(q: Question, lang: Lang) -> str:
    """The question's listed mistakes that are claims, each stated (an omission, "forgets X", cannot be)."""
    end = "。" if lang == "zh" else ". "
    claims = [
        _LEAD.sub("", _QUOTE.sub("", m)).strip().rstrip("。.")
        for m in q.rubric.mistakes.get(lang)
        if mistake_core(m) is not None
    ]
    return end.join(c for c in claims if c) + end.strip()


_CONTRAST = re.compile(r"(\binstead of\b|\brather than\b|\bunlike\b|而不是|而非)", re.I)


def flip_clause(clause: str, lang: Lang) -> str:
    """The clause with its stance flipped: its negation dropped if it has one, else one added.

    "X instead of Y" flips its claim X ("not X instead of Y")."""
    head, *rest = _CONTRAST.split(clause, maxsplit=1)
    if rest and head.strip():
        return flip_clause(head, lang) + "".join(rest)
    if negated(for_matching(clause)):
        if _CJK.search(clause) and (m := _ZH_CUE.search(clause)):
            return clause[: m.start()] + _ZH_UNDO.get(m.group(0), "") + clause[m.end() :]
        if m := _EN_CUE.search(clause):
            return (clause[: m.start()] + _EN_UNDO.get(m.group(0).lower(), "") + clause[m.end() :]).replace("  ", " ")
        return clause
    if lang == "zh":
        for verb in _ZH_VERBS:
            i = clause.find(verb)
            if i >= 0:
                return clause[:i] + "不" + clause[i:]
        return "并不是" + clause
    if m := _EN_AUX.search(clause):
        return clause[: m.end()] + " not" + clause[m.end() :]
    return "It is not true that " + clause[:1].lower() + clause[1:]


def negated_reference(q: Question, lang: Lang) -> str:
    """The reference answer with the stance of every clause flipped."""
    out = []
    for sentence in split_sentences(q.reference_answer.get(lang)):
        parts = _CLAUSE.split(sentence)
        flipped = "".join(flip_clause(p, lang) if i % 2 == 0 and p.strip() else p for i, p in enumerate(parts))
        out.append(flipped.rstrip("。."))
    end = "。" if lang == "zh" else ". "
    return end.join(out) + end.strip()


PROBES = {  # name -> (answer builder, ceiling or floor, "max" | "min")
    "keyword_salad": (keyword_salad, 25, "max"),
    "listed_mistakes": (mistakes_answer, 35, "max"),
    "negated_reference": (negated_reference, 30, "max"),
    "reference": (lambda q, lang: q.reference_answer.get(lang), 85, "min"),
    "vague": (lambda q, lang: VAGUE[lang], 35, "max"),
}
