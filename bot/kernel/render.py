"""Plain-text rendering of questions, grades and buttons, in the user's language."""

from __future__ import annotations

import re

from bot.kernel import actions
from bot.kernel.i18n import MESSAGES, listing, t
from bot.kernel.models import DIMENSIONS, Grade, KeyPoint, Lang, Question, Rating
from bot.kernel.replies import Button
from bot.kernel.scoring import weights_for

_HEAD = re.compile(r"[:：]")
_CLAUSE_END = re.compile(r"[,，;；(（]")
_DANGLING = re.compile(r"(?:\s(?:and|or|to|of|with|the|a|an|for|by)|[和与及或并])$", re.IGNORECASE)
LABEL_CHARS = {"en": 90, "zh": 40}


def point_label(point: KeyPoint, lang: Lang, limit: int | None = None) -> str:
    """A key point's name for a checklist line or a button: its text up to the colon when that names it, else
    the whole text when short, else its text cut at a clause or word boundary with "…" (never mid-word, never
    ending on "and" or "和")."""
    text = " ".join((point.text.get(lang) or point.text.en or point.id).split())
    limit = limit or LABEL_CHARS[lang]
    head = _HEAD.split(text, maxsplit=1)[0].strip()
    if head != text and (4 if lang == "zh" else 8) <= len(head) <= limit:  # not a bare "Lesson:" or "经验："
        return head
    if len(text) <= limit:
        return text
    cut = text[:limit]
    clauses = [m.start() for m in _CLAUSE_END.finditer(cut) if m.start() >= limit // 3]
    if clauses:
        cut = cut[: clauses[-1]]
    elif lang == "en" and " " in cut:
        cut = cut[: cut.rindex(" ")]
    cut = cut.rstrip(" ,，;；:：")
    while _DANGLING.search(cut):
        cut = _DANGLING.sub("", cut).rstrip(" ,，;；:：")
    return cut + "…"


def topic_name(topic: str, lang: Lang) -> str:
    key = f"topic.{topic}"
    return t(lang, key) if topic in ("stability", "pipeline") else t(lang, "topic.other")


def subtopic_name(subtopic: str, lang: Lang) -> str:
    """The subtopic's display name. Every bank subtopic has one (tests/content/test_content.py); one the catalogue
    does not know (a rubric the AI wrote may name its own) is shown as words, not as an id."""
    key = f"subtopic.{subtopic}"
    return t(lang, key) if key in MESSAGES else subtopic.replace("-", " ").replace("_", " ")


def qtype_name(qtype: str, lang: Lang) -> str:
    key = f"qtype.{qtype}"
    return t(lang, key) if key in MESSAGES else qtype


ASKED_PROMPT_CHARS = 90  # the bank question named beside the user's own wording


def question_text(q: Question, lang: Lang, tag: str, asked: str | None = None) -> str:
    """The question's header and prompt (`tag` names its tag: "new", "due", "personal"; "" shows none, as the study
    server's question of the day does); with `asked` (the user's wording from a real interview), that wording
    instead, and the bank question whose rubric grades it named beside it."""
    prompt = q.prompt.get(lang)
    if asked:
        bank = " ".join(prompt.split())
        bank = bank if len(bank) <= ASKED_PROMPT_CHARS else bank[: ASKED_PROMPT_CHARS - 1].rstrip() + "…"
        prompt = t(lang, "question.asked_as", asked=asked, qid=q.id, prompt=bank)
    return t(
        lang,
        "question",
        topic=topic_name(q.topic, lang),
        subtopic=subtopic_name(q.subtopic, lang),
        qtype=qtype_name(q.type, lang),
        difficulty=q.difficulty,
        qid=q.id,
        tag=t(lang, f"tag.{tag}") if tag else "",
        prompt=prompt,
    )


def grade_text(grade: Grade, q: Question, lang: Lang, rating: Rating, next_due: str) -> str:
    """An LLM grade in words (an offline estimate is a checklist: bot/features/drill/checklist.py). Only the
    dimensions the question type weighs are shown: a concept question asks for no case, so no "evidence 0"."""
    lines = [t(lang, "grade.header.llm", score=grade.score, rating=t(lang, f"rating.{int(rating)}"))]
    weighed = weights_for(q.type, q.rubric.dimension_weights)
    dims = (
        t(lang, "grade.dimension", name=t(lang, f"dim.{d}"), score=grade.dimensions[d])
        for d in DIMENSIONS
        if d in grade.dimensions and weighed.get(d, 0) > 0
    )
    lines.append(t(lang, "grade.dimensions", items=listing(lang, dims)))
    points = {k.id: k for k in q.rubric.key_points}
    for verdict in ("hit", "partial", "missed"):
        names = [
            points[k.id].text.get(lang) if k.id in points else k.id for k in grade.key_points if k.verdict == verdict
        ]
        if names:
            lines.append(t(lang, f"grade.{verdict}"))
            lines.extend(f"  - {n}" for n in names)
    if grade.mistakes:
        lines.append(t(lang, "grade.mistakes"))
        lines.extend(f"  - {m}" for m in grade.mistakes)
    if grade.feedback:
        lines.append(t(lang, "grade.feedback", text=grade.feedback))
    if grade.follow_up:
        lines.append(t(lang, "grade.follow_up", text=grade.follow_up))
    lines.append(t(lang, "grade.next_due", due=next_due))
    return "\n".join(lines)


def rating_buttons(attempt_id: int, lang: Lang) -> list[Button]:
    return [
        Button(t(lang, f"rating.{r.value}"), actions.Rate(attempt=attempt_id, rating=r.value).encode()) for r in Rating
    ]


def grade_buttons(attempt_id: int, lang: Lang, has_follow_up: bool) -> list[list[Button]]:
    first = [Button(t(lang, "btn.reference"), actions.Reference(attempt=attempt_id).encode())]
    if has_follow_up:
        first.append(Button(t(lang, "btn.follow_up"), actions.FollowUp(attempt=attempt_id).encode()))
    first.append(Button(t(lang, "btn.next"), actions.Next().encode()))
    return [
        first,
        rating_buttons(attempt_id, lang),
        [Button(t(lang, "notes.btn.save"), actions.Career(tool="notes", arg=f"save:{attempt_id}").encode())],
    ]
