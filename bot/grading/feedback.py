"""Feedback and the follow-up question of an offline grade, in the user's language (zh or en)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from bot.grading.features import terms_of
from bot.grading.normalize import for_matching
from bot.grading.rubric_match import KeyPointMatch
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
        return f"{name}（缺少具体数值）" if lang == "zh" else f"{name} (without the number)"
    if m.verdict == "partial":
        return f"{name}（只讲到一部分）" if lang == "zh" else f"{name} (only in part)"
    return name


def _gaps(matches: Sequence[KeyPointMatch]) -> list[KeyPointMatch]:
    """Key points not fully covered, the heaviest (and the least covered) first."""
    open_ = [m for m in matches if m.verdict != "hit"]
    return sorted(open_, key=lambda m: (-m.key_point.weight * (1.0 - m.credit), m.credit))


def _improvement(dims: Mapping[str, int], question: Question, lang: Lang, specific: str | None) -> str:
    """One concrete improvement: the missing content first, else the weakest weighted surface dimension."""
    zh = lang == "zh"
    weights = weights_for(question.type, question.rubric.dimension_weights)
    if dims["coverage"] < 50:
        if question.rubric.key_points:
            return (
                "先把上面这些要点逐条讲到，每条说清楚怎么做、怎么验证。"
                if zh
                else ("Make sure each of those points appears, with what you would do and how you would check it.")
            )
        return (
            "先正面回答问题：用自己的话说出参考答案的核心原因或机制。"
            if zh
            else ("Answer the question head-on first: state the key reason or mechanism in your own words.")
        )
    bonus = {"specificity": 0, "evidence": 0 if question.type == "case" else 20, "structure": 5}
    candidates = [(d, dims[d] + b) for d, b in bonus.items() if weights.get(d, 0) > 0]
    weakest, value = min(candidates, key=lambda kv: kv[1]) if candidates else ("", 100)
    if value >= 80:
        if dims["coverage"] < 80:
            return "先把上面遗漏的要点讲透，再补充细节。" if zh else "Go deeper on the gaps above before adding detail."
        if zh:
            return "回答扎实：面试时保持同样的顺序和具体数字。"
        return "Solid answer: keep this order and these specifics in the interview."
    if weakest == "specificity":  # the question's own numbers, never a generic list (no learning rates for evals)
        if specific:
            return (
                f"补充这道题需要的具体数字或设置，例如“{specific}”。"
                if zh
                else (f"Add the concrete numbers or settings this question calls for, e.g. “{specific}”.")
            )
        return (
            "在关键处给出具体数字或设置。" if zh else "Give concrete numbers or settings where they decide the answer."
        )
    if weakest == "evidence":
        if question.type == "case":  # only a case question asks for the candidate's own story
            if zh:
                return "结合一个真实案例：你在项目中遇到了什么、改了什么、结果的数字是多少。"
            return "Back it with a real case: what happened in your project, what you changed and the measured result."
        if zh:
            return "用机制或出处支撑结论：说明为什么成立，或者引用对应的论文或文档。"
        return "Support the claim with the mechanism behind it, or the paper or documentation it comes from."
    return _structure_advice(question, zh)


def _structure_advice(question: Question, zh: bool) -> str:
    """How to lay the answer out, by question type."""
    if question.type == "fault":
        if zh:
            return "按步骤组织回答（先诊断、再干预、最后验证），并说明每一步如何验证。"
        return "Structure it as ordered steps (diagnose, intervene, verify) and say how you check each one."
    if question.type == "compare":
        if zh:
            return "逐个维度对比（机制、稳定性、成本、适用场景），最后给出你的选择和理由。"
        return "Compare dimension by dimension (mechanism, stability, cost, when to use each), then give your choice and why."
    if question.type == "code":
        if zh:
            return "先写清输入输出的形状，再给代码，最后说明掩码、数值稳定和归约方式，以及你会怎么测它。"
        return "State the shapes in and out, then the code, then the masking, numerical stability and reduction, and how you would test it."
    if question.type == "case":
        if zh:
            return "按 STAR 讲：背景、任务、你做了什么、结果（带数字）。"
        return "Tell it as STAR: situation, task, what you did, and the result with numbers."
    if zh:
        return "先给结论，再分点讲机制和后果，每点一句话说清楚。"
    return "Lead with the conclusion, then the mechanism and its consequences point by point."


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
        out.append("没有收到回答。" if zh else "No answer was given.")
    elif coherence < 0.35:
        out.append(
            "这是一串术语，不是回答：面试官要听的是你用这些概念说明什么、怎么做、为什么。"
            if zh
            else "This is a list of terms, not an answer: an interviewer wants to hear what you do with them and why."
        )
    else:
        hits = [label(m.key_point, lang) for m in matches if m.verdict == "hit"][:2]
        if hits:
            out.append(f"你讲到了：{_join(hits, lang)}。" if zh else f"You covered: {_join(hits, lang)}.")
        elif matches:
            out.append("回答还没有真正覆盖题目的要点。" if zh else "The answer does not yet cover the key points.")
        else:
            pct = dims["coverage"]
            out.append(
                f"与参考答案相比，覆盖度约为 {pct}/100。"
                if zh
                else f"Compared with the reference answer, coverage is about {pct}/100."
            )
    if gaps:
        out.append(f"最重要的遗漏：{_join(gaps, lang)}。" if zh else f"Most important gaps: {_join(gaps, lang)}.")
    elif missing_terms and dims["coverage"] < 85:
        quoted = "、".join(f"“{t}”" for t in missing_terms) if zh else ", ".join(f"“{t}”" for t in missing_terms)
        out.append(f"参考答案提到而你没有提到：{quoted}。" if zh else f"The reference answer also mentions {quoted}.")
    if not empty:
        out.append(_improvement(dims, question, lang, specific))
    if mistakes:
        out.append(f"注意：{mistakes[0].rstrip('。.')}。" if zh else f"Watch out: {mistakes[0].rstrip('.')}.")
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


GENERIC_FOLLOW_UPS: dict[str, dict[str, str]] = {
    "practical": {
        "en": "What would you check first, and which number would tell you that your fix worked?",
        "zh": "你会先检查什么？看到哪个数字才能说明你的处理起作用了？",
    },
    "compare": {
        "en": "In what situation would you pick the other option instead, and why?",
        "zh": "在什么情况下你会改选另一种方案？为什么？",
    },
    "concept": {
        "en": "What goes wrong in practice when this is ignored, and how would you notice it?",
        "zh": "实际训练中如果忽略这一点会出什么问题？你会怎么发现？",
    },
    "code": {
        "en": "How would you test this function, and which small input would expose its most likely bug?",
        "zh": "你会怎么测试这个函数？用什么样的小输入最容易暴露它最可能的 bug？",
    },
}


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
