"""The answer notebook's pages (/notes): the questions with saved versions, one question's versions side by
side (date, score, company, best mark, key points covered / partly / missed), one version in full, and the
Markdown export (one section per question, best version first). Rendering only: bot/features/notebook/notebook.py reads
the store and checks ownership."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.features.career.models import NoteEntry
from bot.features.mock.report import clause_cut
from bot.features.review.companies import company_name
from bot.kernel import actions
from bot.kernel.i18n import listing, t, tn
from bot.kernel.models import KeyPoint, Lang, Question, User
from bot.kernel.replies import Attachment, Button, Reply
from bot.kernel.timeutil import fmt_local

PROMPT_CHARS = {"en": 70, "zh": 36}  # a question in the list: about one line
POINT_CHARS = {"en": 60, "zh": 30}  # a key point's name in the side-by-side view
EXCERPT_CHARS = {"en": 220, "zh": 110}  # a version's text in the side-by-side view
LIST_SHOWN = 20  # questions listed by /notes; /notes <words> finds the others
LIST_BUTTONS = 10  # ...of which the first ones get a button
MD_MIME = "text/markdown"


@dataclass(frozen=True)
class Group:
    """One question's versions: the question (None when it left the bank) and its entries by version."""

    question_id: str
    question: Question | None
    notes: list[NoteEntry]

    def best_score(self) -> int | None:
        """The best LLM score; offline checks give none (bot/kernel/verdicts.py: an estimate is not a score)."""
        scores = [n.score for n in self.notes if n.score is not None and n.grader != "offline"]
        return max(scores) if scores else None

    def best_checked(self) -> NoteEntry | None:
        """The offline-checked version that found the most key points."""
        checked = [n for n in self.notes if n.grader == "offline" and n.score is not None]
        return max(checked, key=lambda n: (len(n.hit) + len(n.partial), n.version), default=None)

    def last_saved(self) -> datetime:
        return max(n.created_at for n in self.notes)


def grouped(notes: Sequence[NoteEntry], questions: dict[str, Question | None]) -> list[Group]:
    """The user's entries by question, the question saved to most recently first (the order /notes N counts in)."""
    by_q: dict[str, list[NoteEntry]] = {}
    for n in sorted(notes, key=lambda n: (n.question_id, n.version)):
        by_q.setdefault(n.question_id, []).append(n)
    groups = [Group(qid, questions.get(qid), entries) for qid, entries in by_q.items()]
    return sorted(groups, key=lambda g: (g.last_saved(), g.question_id), reverse=True)


def short(text: str, lang: Lang, limit: int | None = None) -> str:
    """`text` on about one line: cut where a clause ends, else between words (a Chinese text, which has no
    spaces, between characters), with "…" when something was left out."""
    flat = " ".join(text.split())
    limit = limit or PROMPT_CHARS[lang]
    if len(flat) <= limit:
        return flat
    cut = clause_cut(flat, limit)
    if cut.endswith("…"):  # no clause ends early enough: go back to the last space instead of mid-word
        space = flat.rfind(" ", limit // 3, limit)
        cut = flat[:space] if space > 0 else flat[: limit - 1]
    return cut.rstrip(" ,，;；:：、") + "…"


def prompt_of(group_or_q: Question | None, question_id: str, lang: Lang) -> str:
    return group_or_q.prompt.get(lang) if group_or_q is not None else question_id


def point_names(q: Question | None, ids: Sequence[str], lang: Lang, full: bool = False) -> list[str]:
    """Key points by their short name in `lang` (`full`: their whole text); an id the rubric no longer has is
    left out."""
    points = {k.id: k for k in q.rubric.key_points} if q else {}
    return [points[i].text.get(lang) if full else point_name(points[i], lang) for i in ids if i in points]


def point_name(point: KeyPoint, lang: Lang) -> str:
    """A key point's short name: its text up to the first colon (when that says enough), on about half a line."""
    text = point.text.get(lang) or point.text.en
    head = re.split(r"[:：]", text, maxsplit=1)[0].strip()
    if len(head) < (6 if lang == "zh" else 16):  # "Caveat:", "Data first:": the name alone says too little
        head = text.strip()
    return short(head, lang, POINT_CHARS[lang])


def score_text(n: NoteEntry, lang: Lang) -> str:
    """A version's grade in words: an LLM score, or what the offline check found (never its estimate as a score)."""
    if n.score is None:
        return t(lang, "notes.ungraded")
    if n.grader == "offline":
        found, total = len(n.hit) + len(n.partial), len(n.hit) + len(n.partial) + len(n.missed)
        return t(lang, "notes.checked", found=found, total=total)
    return t(lang, "notes.score", score=n.score)


def version_head(n: NoteEntry, user: User) -> str:
    """ "v2 ★ · 2026-03-02 17:00 · 78/100 · for ByteDance · written by hand"."""
    lang = user.language
    parts = [t(lang, "notes.version", n=n.version) + (" ★" if n.best else "")]
    parts.append(fmt_local(n.created_at, user.timezone))
    parts.append(score_text(n, lang))
    if n.company:
        parts.append(t(lang, "notes.for_company", company=company_name(n.company, lang)))
    parts.append(t(lang, f"notes.origin.{n.origin}"))
    return " · ".join(parts)


def coverage(n: NoteEntry, q: Question | None, lang: Lang, full: bool = False) -> list[str]:
    """The key points this version covered, partly covered and missed, a line each (`full`: a heading line and
    the points' whole texts below it, for the Markdown file); none for a question without key points."""
    lines = []
    for verdict, ids in (("hit", n.hit), ("partial", n.partial), ("missed", n.missed)):
        names = point_names(q, ids, lang, full)
        if names and full:
            lines.append("\n".join([f"- {t(lang, f'notes.md.{verdict}')}", *(f"  - {name}" for name in names)]))
        elif names:
            lines.append(t(lang, f"notes.kp.{verdict}", points=listing(lang, names)))
    return lines


def list_page(groups: Sequence[Group], user: User) -> Reply:
    """/notes: the questions with saved versions, numbered (the numbers /notes N takes)."""
    lang = user.language
    if not groups:
        return Reply(t(lang, "notes.empty"))
    total = sum(len(g.notes) for g in groups)
    lines = [t(lang, "notes.list.title", questions=tn(lang, "count.question", len(groups)),
               versions=tn(lang, "count.version", total))]  # fmt: skip
    for i, g in enumerate(groups[:LIST_SHOWN], 1):
        best, checked = g.best_score(), g.best_checked()
        if best is not None:
            score = t(lang, "notes.list.best", score=best)
        elif checked is not None:
            found = len(checked.hit) + len(checked.partial)
            score = t(lang, "notes.list.best_checked", found=found, total=found + len(checked.missed))
        else:
            score = t(lang, "notes.ungraded")
        versions = tn(lang, "count.version", len(g.notes))
        lines.append(f"{i}. {short(prompt_of(g.question, g.question_id, lang), lang)} · {versions} · {score}")
    if len(groups) > LIST_SHOWN:
        lines.append(t(lang, "notes.list.more", n=len(groups) - LIST_SHOWN))
    lines.append(t(lang, "notes.list.hint"))
    numbers = [
        Button(str(i), actions.Career(tool="notes", arg=f"view:{g.notes[-1].id}").encode())
        for i, g in enumerate(groups[:LIST_BUTTONS], 1)
    ]
    buttons = [numbers[i : i + 5] for i in range(0, len(numbers), 5)]
    buttons.append([Button(t(lang, "notes.btn.export"), actions.Career(tool="notes", arg="export").encode())])
    return Reply("\n".join(lines), buttons)


def compare_page(group: Group, user: User) -> Reply:
    """One question's versions side by side: each one's date, score, company, best mark, an excerpt and the
    key points it covered, partly covered and missed; a button per version opens it, one writes a new one."""
    lang, q = user.language, group.question
    lines = [t(lang, "notes.compare.title", prompt=prompt_of(q, group.question_id, lang))]
    if not group.notes:
        lines.append(t(lang, "notes.compare.none"))
    for n in group.notes:
        lines += ["", version_head(n, user), "  " + short(n.text, lang, EXCERPT_CHARS[lang]), *coverage(n, q, lang)]
    if q is not None and group.notes and not q.rubric.key_points:
        lines += ["", t(lang, "notes.compare.no_points")]
    opens = [
        Button(f"v{n.version}" + (" ★" if n.best else ""), actions.Career(tool="notes", arg=f"open:{n.id}").encode())
        for n in group.notes
    ]
    buttons = [opens[i : i + 5] for i in range(0, len(opens), 5)]
    write = actions.Career(tool="notes", arg=f"write:{group.question_id}")
    if q is not None and write.fits():
        buttons.append([Button(t(lang, "notes.btn.write"), write.encode())])
    return Reply("\n".join(lines), buttons)


def version_page(n: NoteEntry, q: Question | None, user: User, star: bool, tighten: bool) -> Reply:
    """One version in full, with what can be done to it (the LLM's rewrites only when `star` / `tighten`)."""
    lang = user.language
    lines = [t(lang, "notes.open.title", prompt=short(prompt_of(q, n.question_id, lang), lang)), version_head(n, user)]
    lines += ["", n.text.strip(), "", *coverage(n, q, lang)]
    buttons = [
        [
            Button(t(lang, "notes.btn.best"), actions.Career(tool="notes", arg=f"best:{n.id}").encode()),
            Button(t(lang, "notes.btn.tag"), actions.Career(tool="notes", arg=f"tag:{n.id}").encode()),
            Button(t(lang, "notes.btn.delete"), actions.Career(tool="notes", arg=f"del:{n.id}").encode()),
        ]
    ]
    llm = [Button(t(lang, "notes.btn.star"), actions.Career(tool="notes", arg=f"star:{n.id}").encode())] if star else []
    llm += (
        [Button(t(lang, "notes.btn.tighten"), actions.Career(tool="notes", arg=f"tight:{n.id}").encode())]
        if tighten
        else []
    )
    if llm:
        buttons.append(llm)
    buttons.append([Button(t(lang, "notes.btn.all"), actions.Career(tool="notes", arg=f"view:{n.id}").encode())])
    return Reply("\n".join(lines), buttons)


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in (text.strip().splitlines() or [""]))


def export(groups: Sequence[Group], user: User, now: datetime) -> Attachment:
    """The notebook as Markdown in the user's language: one section per question, its best version first,
    then the others newest first, each with its date, score, company and key points."""
    lang = user.language
    total = sum(len(g.notes) for g in groups)
    title = t(lang, "notes.md.title", date=fmt_local(now, user.timezone),
              questions=tn(lang, "count.question", len(groups)), versions=tn(lang, "count.version", total))  # fmt: skip
    blocks = [f"# {title}\n"]
    for g in groups:
        blocks.append(f"## {' '.join(prompt_of(g.question, g.question_id, lang).split())}\n")
        for n in sorted(g.notes, key=lambda n: (not n.best, -n.version)):
            points = "".join(f"\n{block}" for block in coverage(n, g.question, lang, full=True))
            blocks.append(f"### {version_head(n, user)}\n\n{_quoted(n.text)}\n{points}\n")
    return Attachment(f"notebook-{now:%Y%m%d}.md", "\n".join(blocks).encode("utf-8"), MD_MIME)
