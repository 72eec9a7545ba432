"""The mock interview's debrief: overall score and a hire-style verdict band, dimension averages, per
question what was covered and missed, the best follow-up answer and the reference in one sentence, a STAR
check of case answers, speaking notes for voice answers, top strengths and gaps, and the trend against
the previous mock. Computed from the stored attempts, so a restart changes nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from bot.features.drill.speaking import analyse, render_insights
from bot.features.mock.chart_data import MockChartData
from bot.features.mock.models import MockItem, MockSession, MockSummary
from bot.features.mock.star import STAR_PARTS, star_check
from bot.kernel import actions
from bot.kernel.i18n import t
from bot.kernel.models import DIMENSIONS, Attempt, KeyPoint, Lang, Question
from bot.kernel.replies import Button, Reply

# Verdict bands on the overall score (the mean of the answered questions' scores), highest first.
BANDS: tuple[tuple[int, str], ...] = ((80, "strong_hire"), (65, "hire"), (50, "lean_no"), (0, "no_hire"))
TOP = 3
LABEL_CHARS = 60
EXCERPT_CHARS = 160
PROMPT_CHARS = 70  # a question named in the gaps list
WEAK_DIMENSION, DIMENSION_GAP = 65, 10  # a dimension below hire and this far under the others' mean is named
MESSAGE_CHARS = 1900  # under Discord's 2,000 (Telegram takes 4,096): question blocks are grouped up to this


def verdict(score: int) -> str:
    return next(name for floor, name in BANDS if score >= floor)


@dataclass
class Answered:
    """One asked question with what the store holds of its answers."""

    index: int
    item: MockItem
    question: Question
    main: Attempt | None
    follow_ups: list[Attempt] = field(default_factory=list)


@dataclass(frozen=True)
class Gap:
    """Something the debrief tells the user to drill: a skipped question, a missed or a partly made point."""

    kind: str  # "skipped" | "missed" | "partial"
    index: int  # the question's number
    point: str  # the key point's label ("" for a skipped question)
    prompt: str  # the question, shortened
    weight: float = 0.0


@dataclass(frozen=True)
class QuestionView:
    """One asked question as the debrief reads it: its state, its score (a skipped one scores 0) and its key
    points by verdict (labels in the user's language)."""

    index: int
    state: str  # "graded" | "skipped" | "unanswered" | "ungraded"
    score: int | None
    hit: list[str]
    partial: list[str]
    missed: list[str]
    follow_up_best: int | None


@dataclass(frozen=True)
class Debrief:
    """The one computation the debrief's verdict, its reasons, its per-question lists, its strengths and gaps
    and its chart are all read from, so they cannot tell different stories."""

    summary: MockSummary
    questions: list[QuestionView]
    answered_mean: int  # the mean of the graded answers alone (without the skipped questions' zeros)
    strengths: list[tuple[str, int]]  # (point, question number)
    gaps: list[Gap]
    counts: dict[str, int]  # key points of the graded answers by verdict: hit, partial, missed


def _view(r: Answered, lang: Lang) -> QuestionView:
    best = max((a.grade.score for a in r.follow_ups if a.grade is not None), default=None)
    if r.main is None:
        state = "skipped" if r.item.skipped else "unanswered"
        return QuestionView(r.index, state, 0 if state == "skipped" else None, [], [], [], best)
    grade = r.main.grade
    if grade is None:
        return QuestionView(r.index, "ungraded", None, [], [], [], best)
    points = {k.id: k for k in r.question.rubric.key_points}
    named = {v: [label(points[k.id], lang) for k in grade.key_points if k.verdict == v and k.id in points]
             for v in ("hit", "partial", "missed")}  # fmt: skip
    return QuestionView(r.index, "graded", grade.score, named["hit"], named["partial"], named["missed"], best)


def assess(rows: list[Answered], lang: Lang) -> Debrief | None:
    """The debrief's numbers and lists; None when no answer is graded (there is nothing to judge)."""
    graded = [r.main.grade for r in rows if r.main is not None and r.main.grade is not None]
    if not graded:
        return None
    views = [_view(r, lang) for r in rows]
    passed = sum(1 for v in views if v.state == "skipped")  # a question passed on scores 0
    score = round(sum(g.score for g in graded) / (len(graded) + passed))
    dims = {  # a dimension no grade has (an offline estimate has no correctness) is not shown as 0
        d: round(sum(g.dimensions[d] for g in graded if d in g.dimensions) / sum(d in g.dimensions for g in graded))
        for d in DIMENSIONS
        if any(d in g.dimensions for g in graded)
    }
    answered = sum(1 for r in rows if r.main is not None)
    total = MockSummary(score=score, verdict=verdict(score), answered=answered, dimensions=dims)
    hits: list[tuple[float, int, str]] = []
    gaps: list[Gap] = []
    counts = {"hit": 0, "partial": 0, "missed": 0}
    for r in rows:
        prompt = excerpt(r.question.prompt.get(lang), PROMPT_CHARS)
        if r.main is None and r.item.skipped:
            gaps.append(Gap("skipped", r.index, "", prompt, float("inf")))
        grade = r.main.grade if r.main else None
        if grade is None:
            continue
        points = {k.id: k for k in r.question.rubric.key_points}
        for k in grade.key_points:
            p = points.get(k.id)
            if p is None:
                continue
            counts[k.verdict] = counts.get(k.verdict, 0) + 1
            if k.verdict == "hit":
                hits.append((-p.weight, r.index, label(p, lang)))
            else:
                gaps.append(Gap(k.verdict, r.index, label(p, lang), prompt, p.weight))
    hits.sort()
    # what cost most first: a skipped question (all of it), then missed points, then partly made ones, heaviest
    order = {"skipped": 0, "missed": 1, "partial": 2}
    gaps.sort(key=lambda g: (order[g.kind], -g.weight, g.index))
    return Debrief(
        summary=total,
        questions=views,
        answered_mean=round(sum(g.score for g in graded) / len(graded)),
        strengths=[(p, i) for _, i, p in _spread(hits, 1)],
        gaps=[g for g, _ in _spread([(g, g.index) for g in gaps], 1)],
        counts=counts,
    )


def summary(rows: list[Answered]) -> MockSummary | None:
    found = assess(rows, "en")
    return found.summary if found is not None else None


def label(point: KeyPoint, lang: Lang) -> str:
    """A key point's short name: its text up to the first colon, at most LABEL_CHARS."""
    text = point.text.get(lang) or point.text.en
    head = re.split(r"[:：]", text, maxsplit=1)[0].strip()
    if len(head) < (6 if lang == "zh" else 16):  # "Caveat:", "Lesson:": the name alone says too little
        head = text.strip()
    limit = LABEL_CHARS // 2 if lang == "zh" else LABEL_CHARS  # a Chinese character says about two letters' worth
    return clause_cut(head, limit)


_CLAUSE_END = re.compile(r"[，,；;（(、—]|\s[-–]\s")
_IN_FORMULA = re.compile(r"[\d=×*+/^]\s*$")  # "= 2 (K and V) × layers": that bracket belongs to the formula


def clause_cut(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut where a clause ends (before a comma, a bracket, a dash) when
    one ends past a third of it, so a label reads as a phrase; mid-word with "…" only when none does."""
    if len(text) <= limit:
        return text
    ends = [
        m.start()
        for m in _CLAUSE_END.finditer(text, 0, limit)
        if m.start() >= limit // 3 and not (m.group() in "(（" and _IN_FORMULA.search(text, 0, m.start()))
    ]
    if ends:
        return text[: ends[-1]].rstrip()
    return text[: limit - 1].rstrip() + "…"


def first_sentence(text: str, lang: Lang = "en") -> str:
    """The reference's opening sentence, with the next ones while it is too short to say anything
    ("They solve different problems.")."""
    enough = 25 if lang == "zh" else 60
    sentences = re.findall(r".+?(?:[。！？]|[.!?](?=\s|$)|$)", " ".join(text.split()))
    found = ""
    for sentence in sentences:
        found = (found + ("" if lang == "zh" else " ") + sentence.strip()).strip()
        if len(found) >= enough:
            break
    return excerpt(found, EXCERPT_CHARS if lang == "zh" else 2 * EXCERPT_CHARS)


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def clock(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = max(0, round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def _question_block(r: Answered, lang: Lang, view: QuestionView | None = None) -> str:
    """One question's block, from its view in the debrief's computation (`view`; computed when not given)."""
    q, item = r.question, r.item
    view = view or _view(r, lang)
    prompt = excerpt(q.prompt.get(lang))
    if view.state in ("skipped", "unanswered"):
        return t(lang, f"mock.report.q_{view.state}", i=r.index, prompt=prompt)
    budget, took = clock(item.budget_seconds), clock(item.answer_seconds)
    if view.state == "ungraded" or r.main is None:
        return t(lang, "mock.report.q_ungraded", i=r.index, prompt=prompt, took=took, budget=budget)
    lines = [t(lang, "mock.report.q", i=r.index, prompt=prompt, score=view.score, took=took, budget=budget)]
    none = t(lang, "mock.report.none")
    sep = "、" if lang == "zh" else "; "
    lines.append(t(lang, "mock.report.covered", points=sep.join(view.hit) or none))
    if view.partial:  # part of a point is not the point: said apart, so "covered" means covered
        lines.append(t(lang, "mock.report.partly", points=sep.join(view.partial)))
    lines.append(t(lang, "mock.report.missed", points=sep.join(view.missed) or none))
    best = max((a for a in r.follow_ups if a.grade is not None), key=lambda a: a.grade.score, default=None)  # type: ignore[union-attr]
    if best is not None and best.grade is not None:
        lines.append(t(lang, "mock.report.best_fu", score=best.grade.score, answer=excerpt(best.answer)))
    reference = q.reference_answer.get(lang).strip()
    if reference:
        lines.append(t(lang, "mock.report.reference", text=first_sentence(reference, lang)))
    if q.type == "case":
        check = star_check(r.main.answer)
        parts = [t(lang, f"mock.star.{verdict_}", part=t(lang, f"mock.star.{p}")) for p, verdict_ in check.items()]
        lines.append(t(lang, "mock.report.star", parts=sep.join(parts)))
        if r.item.star:
            star = "\n".join(f"{t(lang, f'mock.star.{p[0].upper()}')}: {r.item.star.get(p, '')}" for p in STAR_PARTS)
            lines.append(t(lang, "mock.star.rewrite") + "\n" + star)
        elif any(v != "ok" for v in check.values()):
            lines.append(t(lang, "mock.star.tip"))
    if r.main.audio_seconds and r.main.transcript:
        insights = analyse(r.main.transcript, r.main.audio_seconds)
        if insights is not None:
            lines.append(render_insights(insights, lang))  # inside the question's block: no label needed
    return "\n".join(lines)


def _spread(ranked: list[Any], at: int) -> list[Any]:
    """The TOP first of `ranked`, one per question (its number at index `at`) before any question twice."""
    firsts = [x for n, x in enumerate(ranked) if x[at] not in {y[at] for y in ranked[:n]}]
    return (firsts + [x for x in ranked if x not in firsts])[:TOP]


def _strengths_and_gaps(debrief: Debrief, lang: Lang) -> str:
    lines = [t(lang, "mock.report.strengths")]
    lines += [t(lang, "mock.report.strength_line", point=p, i=i) for p, i in debrief.strengths] or [
        t(lang, "mock.report.no_strengths")
    ]
    lines.append(t(lang, "mock.report.gaps"))
    lines += [
        t(lang, f"mock.report.gap_{g.kind}", point=g.point, i=g.index, prompt=g.prompt) for g in debrief.gaps
    ] or [t(lang, "mock.report.no_gaps")]
    return "\n".join(lines)


def reasons(debrief: Debrief, lang: Lang) -> str:
    """Why the overall score is what it is, from the same numbers the lists below show: the skipped questions'
    zeros, the key points by verdict, and a dimension well below the rest."""
    parts: list[str] = []
    skipped = [v.index for v in debrief.questions if v.state == "skipped"]
    if skipped:
        which = listing_of([t(lang, "mock.report.q_ref", i=i) for i in skipped], lang)
        graded = sum(1 for v in debrief.questions if v.state == "graded")
        parts.append(t(lang, "mock.why.skipped", which=which, n=graded, mean=debrief.answered_mean))
    c = debrief.counts
    if sum(c.values()):
        parts.append(t(lang, "mock.why.points", hit=c["hit"], partial=c["partial"], missed=c["missed"]))
    dims = debrief.summary.dimensions
    if dims:
        low, value = min(dims.items(), key=lambda kv: (kv[1], kv[0]))
        if value < WEAK_DIMENSION and value <= sum(dims.values()) / len(dims) - DIMENSION_GAP:
            parts.append(t(lang, "mock.why.dimension", dim=t(lang, f"dim.{low}"), value=value))
    return ("；" if lang == "zh" else "; ").join(parts) + ("。" if lang == "zh" else ".") if parts else ""


def _meaning(debrief: Debrief, lang: Lang) -> str:
    """The verdict's meaning, then why the score is what it is (see `reasons`)."""
    why = reasons(debrief, lang)
    meaning = t(lang, f"mock.meaning.{debrief.summary.verdict}")
    return meaning + ("\n" + t(lang, "mock.why", reasons=why) if why else "")


def listing_of(items: list[str], lang: Lang) -> str:
    return ("、" if lang == "zh" else ", ").join(items)


def _grouped(blocks: list[str]) -> list[str]:
    groups: list[str] = []
    for block in blocks:
        if groups and len(groups[-1]) + 2 + len(block) <= MESSAGE_CHARS:
            groups[-1] += "\n\n" + block
        else:
            groups.append(block)
    return groups


def focus_name(mock: MockSession, lang: Lang) -> str:
    return (
        t(lang, f"mock.focus.{mock.focus}", company=mock.company)
        if mock.focus == "company"
        else t(lang, f"mock.focus.{mock.focus}")
    )


def report(
    mock: MockSession, rows: list[Answered], lang: Lang, previous: tuple[datetime, MockSummary] | None, tz_date: str
) -> list[Reply]:
    """The debrief as a few replies (each well under a chat message's limit). `tz_date`: the previous mock's
    date as the user reads it."""
    debrief = assess(rows, lang)
    out: list[str] = []
    if debrief is not None:
        total = debrief.summary
        head = t(
            lang, "mock.report.head", focus=focus_name(mock, lang), level=t(lang, f"level.{mock.level}"),
            score=total.score, verdict=t(lang, f"mock.verdict.{total.verdict}"),
            meaning=_meaning(debrief, lang),
        )  # fmt: skip
        sep = "，" if lang == "zh" else ", "
        dims = sep.join(f"{t(lang, f'dim.{d}')} {v}" for d, v in total.dimensions.items())
        head += "\n" + t(lang, "mock.report.dims", dims=dims)
        if previous is not None:
            before = previous[1].score
            delta = f"{total.score - before:+d}"
            head += "\n" + t(lang, "mock.report.trend", date=tz_date, before=before, score=total.score, delta=delta)
        else:
            head += "\n" + t(lang, "mock.report.first")
        out.append(head)
    views = debrief.questions if debrief is not None else [_view(r, lang) for r in rows]
    out += _grouped([_question_block(r, lang, v) for r, v in zip(rows, views, strict=True)])
    if debrief is not None:
        out.append(_strengths_and_gaps(debrief, lang) + "\n\n" + t(lang, "mock.report.srs"))
    replies = [Reply(text, kind="report") for text in out if text.strip()]
    saves = [Button(t(lang, "notes.btn.save_q", n=r.index), actions.Career(tool="notes", arg=f"save:{r.main.id}").encode())
             for r in rows if r.main is not None and r.main.grade is not None]  # fmt: skip
    if replies and saves:  # each graded answer may be kept in the answer notebook (/notes)
        replies[-1] = replace(replies[-1], buttons=[saves])
    return replies


def chart_data(
    mock: MockSession, rows: list[Answered], lang: Lang, previous: MockSummary | None
) -> MockChartData | None:
    """The debrief chart's data, from the same computation as the text: every asked question, a skipped one
    drawn as skipped (it scores 0); None when no answer is graded (there is nothing to draw)."""
    debrief = assess(rows, lang)
    if debrief is None:
        return None
    total = debrief.summary
    title = t(lang, "mock.chart.title", focus=focus_name(mock, lang), score=total.score,
              verdict=t(lang, f"mock.verdict.{total.verdict}"))  # fmt: skip
    return MockChartData(
        title=title,
        questions=[f"Q{v.index}" for v in debrief.questions],
        scores=[v.score if v.state == "graded" else None for v in debrief.questions],
        follow_up_best=[v.follow_up_best for v in debrief.questions],
        bands=[(floor, t(lang, f"mock.verdict.{name}")) for floor, name in BANDS],
        dimensions=[(t(lang, f"dim.{d}"), v) for d, v in total.dimensions.items()],
        scores_label=t(lang, "mock.chart.scores"),
        follow_up_label=t(lang, "mock.chart.follow_up"),
        dimensions_label=t(lang, "mock.chart.dimensions"),
        previous=previous.score if previous else None,
        previous_label=t(lang, "mock.chart.previous"),
        marks=["" if v.state == "graded" else t(lang, f"mock.chart.{v.state}") for v in debrief.questions],
    )
