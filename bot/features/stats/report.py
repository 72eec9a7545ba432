"""/stats and the weekly summary: gather a user's history, write the short text, attach the chart.

`build_progress` + `progress_text` + `chart_attachment` are the pieces; `progress_reply` puts them
into one Reply. The chart is drawn by the injected ChartRenderer in a worker thread, so a slow
render never blocks other users, and a failed render still sends the text. What they read is `History`, the
ports /stats uses (built from what a handler names, or by name: bot/kernel/inject.py build).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from bot.features.review.companies import company_name
from bot.features.stats.chart_data import CompanyAsked, InterviewInsights, Mastery, ProgressData, Subtopic
from bot.features.stats.ports import ChartRenderer
from bot.features.stats.progress import compute_progress
from bot.kernel.i18n import listing, t, tn
from bot.kernel.inject import group
from bot.kernel.lookups import Questions
from bot.kernel.models import Lang, User
from bot.kernel.ports import Clock
from bot.kernel.render import subtopic_name, topic_name
from bot.kernel.replies import Attachment, Reply
from bot.kernel.store_ports import AttemptsPort, CardsPort, InterviewsPort

log = logging.getLogger(__name__)
PROMPT_CHARS = {"en": 90, "zh": 50}  # a Chinese character is about as wide as two Latin ones
NONE = "–"
TOP_COMPANIES = 5  # each on its own line; the rest by name on one line


@group
@dataclass(frozen=True)
class History:
    """What /stats and the weekly summary read: a user's answers, cards and real interviews, their questions, the
    time, and the chart renderer (None: text only)."""

    attempts: AttemptsPort
    cards: CardsPort
    interviews: InterviewsPort
    questions: Questions
    clock: Clock
    charts: ChartRenderer | None


async def build_progress(history: History, user: User) -> ProgressData:
    """Everything /stats shows, computed now from the store."""
    attempts = await history.attempts.list_attempts(user.id)
    cards = await history.cards.list_cards(user.id)
    interviews = await history.interviews.list_interviews(user.id)
    items = await history.interviews.list_review_items(user.id)
    ids = {a.question_id for a in attempts} | {c.question_id for c in cards}
    questions = {qid: await history.questions.get(qid) for qid in sorted(ids)}
    return compute_progress(user, history.clock.now(), attempts, cards, questions, interviews, items)


def _score(value: float | None) -> str:
    return NONE if value is None else str(round(value))


def _percent(value: float | None) -> str:
    return NONE if value is None else f"{round(value * 100)}%"


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _counted(pairs: list[tuple[Subtopic, int]], lang: Lang) -> str:
    return listing(lang, (f"{subtopic_name(sub, lang)} ×{n}" for (_topic, sub), n in pairs))


def interview_counts(lang: Lang, interviews: int, questions: int) -> str:
    """ "1 interview, 2 questions", leaving out a zero count (there is always one count that is not zero)."""
    parts = [tn(lang, "count.interview", interviews)] if interviews else []
    if questions or not interviews:
        parts.append(tn(lang, "count.question", questions))
    return listing(lang, parts)


def _summary_lines(data: ProgressData, lang: Lang) -> list[str]:
    lines = [
        t(lang, "stats.header"),
        t(
            lang,
            "stats.streak",
            streak=tn(lang, "count.day", data.streak),
            best=tn(lang, "count.day", data.best_streak),
        ),
        t(lang, "stats.reviews", total=data.total_reviews, week=data.week_reviews),
    ]
    if data.week_mean is not None or data.last_week_mean is not None:
        delta = ""
        if data.week_mean is not None and data.last_week_mean is not None:
            delta = t(lang, "stats.delta", delta=f"{round(data.week_mean) - round(data.last_week_mean):+d}")
        lines.append(
            t(lang, "stats.week_mean", this=_score(data.week_mean), last=_score(data.last_week_mean), delta=delta)
        )
    lines.append(t(lang, "stats.due", due_today=data.due_today, cards=data.cards, personal=data.personal_cards))
    if data.topic_means:
        lines.append(t(lang, "stats.by_topic"))
        for topic, mean, n in data.topic_means:
            answers = tn(lang, "count.answer", n)
            lines.append(t(lang, "stats.topic_line", topic=topic_name(topic, lang), mean=round(mean), answers=answers))
    return lines


def _weak_lines(weakest: list[Mastery], lang: Lang) -> list[str]:
    if not weakest:
        return []
    lines = [t(lang, "stats.weakest")]
    for m in weakest:
        name = subtopic_name(m.subtopic, lang)
        lines.append(t(lang, "stats.weak_line", subtopic=name, recall=_percent(m.recall), score=_score(m.mean_score)))
        if m.suggestion is not None:
            lines.append(t(lang, "stats.try", prompt=shorten(m.suggestion.prompt.get(lang), PROMPT_CHARS[lang])))
    return lines


def _interview_lines(data: ProgressData, lang: Lang) -> list[str]:
    ins = data.insights
    if not ins.interviews and not ins.questions:
        return []
    lines = [t(lang, "stats.interviews", counts=interview_counts(lang, ins.interviews, ins.questions))]
    if ins.topics:
        items = listing(lang, (f"{topic_name(topic, lang)} ×{n}" for topic, n in ins.topics))
        lines.append(t(lang, "stats.asked_topics", items=items))
    if ins.subtopics:
        lines.append(t(lang, "stats.asked_most", items=_counted(ins.subtopics, lang)))
    lines.extend(_company_lines(ins, lang))
    if ins.moves:
        lines.append(t(lang, "stats.moves"))
        for m in ins.moves:
            name = subtopic_name(m.subtopic, lang)
            if m.answers_since == 0:
                lines.append(t(lang, "stats.move_none", subtopic=name))
            else:
                lines.append(
                    t(lang, "stats.move_line", subtopic=name, before=_score(m.before), since=_score(m.since),
                      answers=tn(lang, "count.answer", m.answers_since))
                )  # fmt: skip
    return lines


def _company_name(c: CompanyAsked, lang: Lang) -> str:
    return shorten(company_name(c.company, lang), 40)


def _company_lines(ins: InterviewInsights, lang: Lang) -> list[str]:
    """The most asked companies one a line, then every other one by name: none is left out."""
    lines = []
    for c in ins.companies[:TOP_COMPANIES]:
        subs = t(lang, "stats.paren", text=_counted(c.subtopics, lang)) if c.subtopics else ""
        counts = interview_counts(lang, c.interviews, c.questions)
        lines.append(t(lang, "stats.company_line", company=_company_name(c, lang), counts=counts, subtopics=subs))
    rest = ins.companies[TOP_COMPANIES:]
    if rest:
        names = listing(lang, (_company_name(c, lang) for c in rest))
        lines.append(tn(lang, "count.company_more", len(rest), names=names))
    if len(ins.companies) > 1:  # two spellings of one company the alias table does not know: /company merges them
        lines.append(t(lang, "stats.company_merge_hint"))
    return lines


def progress_text(data: ProgressData, lang: Lang) -> str:
    """The short text beside the chart: streaks, this week, weakest subtopics, real interviews."""
    return "\n".join([*_summary_lines(data, lang), *_weak_lines(data.weakest, lang), *_interview_lines(data, lang)])


async def chart_attachment(charts: ChartRenderer | None, data: ProgressData, lang: Lang) -> Attachment | None:
    """The chart as a PNG, or None without a renderer, without reviews, or when drawing fails."""
    if charts is None or data.total_reviews == 0:
        return None
    try:
        png = await asyncio.to_thread(charts.render, data, lang)
    except Exception:
        log.exception("progress chart failed; sending the text alone")
        return None
    return Attachment(f"progress-{data.today.isoformat()}.png", png, "image/png")


async def progress_reply(history: History, user: User, kind: str = "stats") -> Reply | None:
    """Text and chart in one Reply (the text can serve as the photo's caption); None for a user with no history."""
    data = await build_progress(history, user)
    if data.empty:
        return None
    text = progress_text(data, user.language)
    return Reply(text, image=await chart_attachment(history.charts, data, user.language), kind=kind)
