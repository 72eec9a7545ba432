"""The application board in words: the board by stage columns (and the same columns for the PNG), one
application with its history, notes and what its interviews asked, and the insights across applications."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from bot.features.apps.attach import Attached
from bot.features.apps.board import OPEN_COLUMNS, columns, days_since, display_number
from bot.features.apps.chart_data import BoardColumn, BoardData
from bot.features.apps.insights import AppsInsights, Asked
from bot.features.career.models import Application, Stage
from bot.features.review.companies import company_name
from bot.kernel.i18n import listing, t, tn
from bot.kernel.models import Lang, Reminder
from bot.kernel.render import subtopic_name, topic_name
from bot.kernel.timeutil import fmt_local, local_date

COLUMN_CARDS = 12  # cards listed per column in the text; the rest counted
SHOWN_ASKED = 10  # asked questions listed on one application
PROMPT_CHARS = {"en": 90, "zh": 50}


def stage_label(lang: Lang, stage: Stage | str, round_: int = 0) -> str:
    if stage == "technical" and round_ > 0:
        return t(lang, "apps.stage.round", n=round_)
    return t(lang, f"apps.stage.{stage}")


def paren(lang: Lang, text: str) -> str:
    return f"（{text}）" if lang == "zh" else f" ({text})"


def colon(lang: Lang) -> str:
    return "：" if lang == "zh" else ": "


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _counts(lang: Lang, found: Attached | None) -> str:
    if found is None or not (found.interviews or found.items):
        return ""
    parts = [tn(lang, "count.interview", len(found.interviews))] if found.interviews else []
    if found.items:
        parts.append(tn(lang, "count.question", len(found.items)))
    return listing(lang, parts)


def card_line(lang: Lang, app: Application, apps: Sequence[Application], found: Attached | None, now: datetime) -> str:
    """ "#2 ByteDance · LLM infra · technical round 2 · 3 days · 1 interview, 2 questions"."""
    parts = [f"#{display_number(app, apps)} {company_name(app.company, lang)}"]
    if app.role:
        parts.append(shorten(app.role, 40))
    parts.append(stage_label(lang, app.stage, app.round))
    parts.append(tn(lang, "count.day", days_since(app, now)))
    counted = _counts(lang, found)
    if counted:
        parts.append(counted)
    return " · ".join(parts)


def board_text(
    lang: Lang, apps: Sequence[Application], attached: Mapping[int, Attached], now: datetime, extra: str = ""
) -> str:
    """The board: each open stage a column of numbered cards, the closed ones summarised by stage."""
    if not apps:
        return t(lang, "apps.empty")
    cols = columns(apps)
    closed = cols["closed"]
    lines = [t(lang, "apps.board_title", open=len(apps) - len(closed), closed=len(closed))]
    for stage in OPEN_COLUMNS:
        cards = cols[stage]
        lines.append("")
        lines.append(t(lang, "apps.column", stage=stage_label(lang, stage), n=len(cards)))
        if not cards:
            lines.append("  –")
        for app in cards[:COLUMN_CARDS]:
            lines.append("  " + card_line(lang, app, apps, attached.get(app.id), now))
        if len(cards) > COLUMN_CARDS:
            lines.append("  " + t(lang, "apps.more", n=len(cards) - COLUMN_CARDS))
    if closed:
        lines.append("")
        by_stage = [(s, [a for a in closed if a.stage == s]) for s in ("offer", "rejected", "withdrawn")]
        summary = [
            f"{stage_label(lang, s)} {len(group)}"
            + paren(
                lang,
                listing(lang, (f"#{display_number(a, apps)} {company_name(a.company, lang)}" for a in group[:5]))
                + (" …" if len(group) > 5 else ""),
            )
            for s, group in by_stage
            if group
        ]
        lines.append(t(lang, "apps.closed", summary=listing(lang, summary)))
    if extra:
        lines += ["", extra]
    lines += ["", t(lang, "apps.board_hint")]
    return "\n".join(lines)


def board_data(lang: Lang, apps: Sequence[Application], attached: Mapping[int, Attached], now: datetime) -> BoardData:
    """The board's columns for the PNG: the four open stages, then the closed applications."""
    cols = columns(apps)
    out = []
    for key in (*OPEN_COLUMNS, "closed"):
        cards = []
        for app in cols[key]:
            head = f"#{display_number(app, apps)} {company_name(app.company, lang)}"
            second = [shorten(app.role, 24)] if app.role else []
            second.append(tn(lang, "count.day", days_since(app, now)))
            stage = stage_label(lang, app.stage, app.round) if key in ("technical", "closed") else ""
            counted = _counts(lang, attached.get(app.id))
            cards.append([head, " · ".join(second), *([stage] if stage else []), *([counted] if counted else [])])
        heading = t(lang, "apps.closed_column") if key == "closed" else stage_label(lang, key)
        out.append(BoardColumn(heading + paren(lang, str(len(cols[key]))).rstrip(), cards, closed=key == "closed"))
    open_count = len(apps) - len(cols["closed"])
    return BoardData(t(lang, "apps.board_title", open=open_count, closed=len(cols["closed"])), out)


def app_text(
    lang: Lang,
    app: Application,
    apps: Sequence[Application],
    found: Attached | None,
    reminders: Sequence[Reminder],
    tz: str,
    now: datetime,
) -> str:
    """One application: its stages with dates, notes, interviews, the questions they asked, reminders."""

    def day(at: datetime) -> str:
        return local_date(at, tz).isoformat()

    head = card_line(lang, app, apps, None, now)
    steps = [f"{stage_label(lang, c.stage, c.round)} {day(c.at)}" for c in sorted(app.history, key=lambda c: c.at)]
    lines = [head, t(lang, "apps.history", steps=" → ".join(steps) or stage_label(lang, app.stage, app.round))]
    notes = ([app.notes] if app.notes else []) + [f"{day(n.at)}{colon(lang)}{n.text}" for n in app.note_log]
    if notes:
        lines.append(t(lang, "apps.notes", n=len(notes)))
        lines += [f"- {shorten(n, 300)}" for n in notes[-10:]]
    if found is not None and found.interviews:
        lines.append(t(lang, "apps.interviews"))
        lines += [
            f"- {fmt_local(i.at, tz)}" + (f" · {shorten(i.role, 40)}" if i.role else "") for i in found.interviews
        ]
    if found is not None and found.items:
        lines.append(t(lang, "apps.asked", n=len(found.items)))
        for item in found.items[-SHOWN_ASKED:]:
            text = shorten(item.question_text, PROMPT_CHARS[lang])
            lines.append(f"- {text}{paren(lang, subtopic_name(item.subtopic, lang))}")
    for r in reminders:
        lines.append(t(lang, "apps.reminder_set", when=fmt_local(r.due_at, tz)))
    return "\n".join(lines)


def _asked_line(lang: Lang, rows: Sequence[Asked]) -> str:
    return listing(lang, (f"{subtopic_name(a.subtopic, lang)} ×{a.count}{paren(lang, _held(lang, a))}" for a in rows))


def _held(lang: Lang, asked: Asked) -> str:
    m = asked.mastery
    if m is None or (m.recall is None and m.mean_score is None):
        return t(lang, "apps.not_practised")
    value = m.recall if m.recall is not None else (m.mean_score or 0) / 100
    return t(lang, "apps.held", percent=round(value * 100))


def insights_text(lang: Lang, ins: AppsInsights, apps: Sequence[Application], prompt: Callable[[str], str]) -> str:
    """The insights: what was asked overall, by company and by stage, with mastery; then what to prepare."""
    if ins.empty:
        return t(lang, "apps.insights_empty")
    lines = [t(lang, "apps.insights_title", counts=_counts_line(lang, ins))]
    lines.append(
        t(lang, "apps.top_topics", topics=listing(lang, (f"{topic_name(k, lang)} ×{n}" for k, n in ins.topics)))
    )
    lines.append(t(lang, "apps.top_subtopics", subtopics=_asked_line(lang, ins.subtopics)))
    if ins.by_company:
        lines.append(t(lang, "apps.by_company"))
        lines += [
            f"- {company_name(name, lang)}{colon(lang)}{_asked_line(lang, rows)}" for name, rows in ins.by_company[:8]
        ]
    if ins.by_stage:
        lines.append(t(lang, "apps.by_stage"))
        lines += [f"- {stage_label(lang, s, r)}{colon(lang)}{_asked_line(lang, rows)}" for (s, r), rows in ins.by_stage]
    lines.append(prepare_text(lang, ins, apps, prompt))
    return "\n".join(line for line in lines if line)


def _counts_line(lang: Lang, ins: AppsInsights) -> str:
    parts = [tn(lang, "count.interview", ins.interviews)] if ins.interviews else []
    return listing(lang, [*parts, tn(lang, "count.question", ins.questions)])


def prepare_text(lang: Lang, ins: AppsInsights, apps: Sequence[Application], prompt: Callable[[str], str]) -> str:
    """ "Prepare these three for your next round at X", with the questions; "" when there is nothing to say."""
    p = ins.prepare
    if p is None or not p.questions:
        return ""
    where = f"#{display_number(p.app, apps)} {company_name(p.app.company, lang)}"
    key = "apps.prepare" if p.from_company else "apps.prepare_general"
    lines = ["", t(lang, key, company=where, subtopics=_asked_line(lang, p.subtopics))]
    lines += [f"{i + 1}. {shorten(prompt(qid), PROMPT_CHARS[lang] + 30)}" for i, qid in enumerate(p.questions)]
    return "\n".join(lines)


def insights_short(lang: Lang, ins: AppsInsights, apps: Sequence[Application]) -> str:
    """The few lines under the board: the most asked subtopics, and where the next round is."""
    if ins.empty:
        return ""
    lines = [t(lang, "apps.short_asked", subtopics=_asked_line(lang, ins.subtopics[:3]))]
    p = ins.prepare
    if p is not None and p.questions:
        where = f"#{display_number(p.app, apps)} {company_name(p.app.company, lang)}"
        lines.append(t(lang, "apps.short_prepare", company=where))
    return "\n".join(lines)
