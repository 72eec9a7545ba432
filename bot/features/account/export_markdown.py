"""/export's readable file: the user's own answers as Markdown, in their language, grouped by question
(the question, then each answer with its date and score, oldest first; a follow-up answer with the follow-up
question it answered), beside the JSON that holds everything.

When it is larger than the platform takes from a bot it comes in parts, each under the limit, split between
answers (a question that goes on in the next part is named again there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from bot.features.mock.models import MockSession
from bot.kernel import verdicts
from bot.kernel.i18n import t, tn
from bot.kernel.models import Attempt, Question, User
from bot.kernel.replies import Attachment
from bot.kernel.scoring import rating_from_score
from bot.kernel.timeutil import fmt_local

MD_MIME = "text/markdown"
FILL = 0.95  # each part this far under the limit: the title line is added to every part


def _quoted(text: str) -> str:
    lines = text.strip().splitlines() or [""]
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


def _outcome(a: Attempt, user: User) -> str:
    lang = user.language
    if a.status == "revealed":
        return t(lang, "export.md.revealed")
    if a.grade is not None and verdicts.is_estimate(a.grade):  # no score: the user's rating, or none yet
        found = sum(1 for k in a.grade.key_points if k.verdict != "missed" or k.id in a.ticked)
        rated = a.rating_by == "user" and a.rating in (1, 2, 3, 4)
        mine = t(lang, "export.md.your_rating", rating=t(lang, f"rating.{a.rating}")) if rated else ""
        return t(lang, "export.md.checked", found=found, total=len(a.grade.key_points),
                 rating=mine or t(lang, "export.md.not_rated"))  # fmt: skip
    if a.grade is not None:
        graders = int(rating_from_score(a.grade.score))
        if a.rating_by == "user" and a.rating in (1, 2, 3, 4) and a.rating != graders:  # both kept: both shown
            return t(lang, "export.md.disagreed", score=a.grade.score, grader=t(lang, f"rating.{graders}"),
                     rating=t(lang, f"rating.{a.rating}"))  # fmt: skip
        rating = t(lang, f"rating.{a.rating}") if a.rating in (1, 2, 3, 4) else "-"
        return t(lang, "export.md.score", score=a.grade.score, rating=rating)
    if a.status == "self" and a.rating in (1, 2, 3, 4):
        return t(lang, "export.md.self_rated", rating=t(lang, f"rating.{a.rating}"))
    return t(lang, "export.md.ungraded")


def entry(a: Attempt, user: User, asked: str | None = None) -> str:
    """One answer: a heading with its local date, whether it answered a follow-up, and its outcome; the follow-up
    question it answered (`asked`, else the one stored with it); then the answer."""
    lang = user.language
    head = fmt_local(a.created_at, user.timezone)
    question = ""
    if a.is_follow_up:
        head += " · " + t(lang, "export.md.follow_up")
        text = " ".join((a.follow_up_question or asked or "").split())
        question = t(lang, "export.md.follow_up_question", text=text or t(lang, "export.md.follow_up_unknown"))
        question += "\n\n"
    body = _quoted(a.answer) if a.answer.strip() else t(lang, "export.md.no_answer")
    return f"### {head} · {_outcome(a, user)}\n\n{question}{body}\n"


def asked_follow_ups(attempts: Sequence[Attempt], mocks: Sequence[MockSession] = ()) -> dict[int, str]:
    """The follow-up question each follow-up answer answered, for answers stored before the question was kept with
    them: a mock's follow-ups name their answer; a drill's is the follow-up of the latest main answer on the same
    card before it (the "answer the follow-up" button of an older answer can make this one wrong)."""
    asked: dict[int, str] = {}
    for mock in mocks:
        for item in mock.items:
            asked |= {fu.attempt_id: fu.text for fu in item.follow_ups if fu.attempt_id is not None}
    last_main: dict[int | None, Attempt] = {}
    for a in sorted(attempts, key=lambda a: (a.created_at, a.id)):
        if not a.is_follow_up:
            last_main[a.card_id] = a
        elif a.follow_up_question or a.id in asked:
            continue  # stored with it, or named by its mock
        elif (parent := last_main.get(a.card_id)) and parent.grade and parent.grade.follow_up:
            asked[a.id] = parent.grade.follow_up
    return asked


def heading(question_id: str, q: Question | None, user: User, continued: bool = False) -> str:
    prompt = " ".join(q.prompt.get(user.language).split()) if q else question_id
    more = " " + t(user.language, "export.md.continued") if continued else ""
    return f"## {prompt}{more}\n\n`{question_id}`\n"


def sections(
    attempts: Sequence[Attempt], question: Callable[[str], Question | None], user: User,
    asked: dict[int, str] | None = None,
) -> list[tuple[str, list[str]]]:  # fmt: skip
    """(question id, answer entries) per question, questions in the order first answered, answers oldest first."""
    grouped: dict[str, list[Attempt]] = {}
    for a in sorted(attempts, key=lambda a: (a.created_at, a.id)):
        grouped.setdefault(a.question_id, []).append(a)
    asked = asked or {}
    return [(qid, [entry(a, user, asked.get(a.id)) for a in group]) for qid, group in grouped.items()]


def render(
    attempts: Sequence[Attempt],
    question: Callable[[str], Question | None],
    user: User,
    now: datetime,
    stem: str,
    limit: int | None,
    mocks: Sequence[MockSession] = (),
) -> list[Attachment]:
    """The Markdown file(s): one when it fits `limit` bytes (or there is none), else parts that each fit."""
    grouped = sections(attempts, question, user, asked_follow_ups(attempts, mocks))
    lang = user.language
    answers, questions = tn(lang, "count.answer", len(attempts)), tn(lang, "count.question", len(grouped))
    title = t(lang, "export.md.title", date=fmt_local(now, user.timezone), answers=answers, questions=questions)
    budget = int(limit * FILL) - len(title.encode("utf-8")) - 16 if limit else None
    parts: list[list[str]] = []
    current: list[str] = []
    size, named = 0, None  # bytes in the current part, the question last named in it
    for qid, entries in grouped:
        q = question(qid)
        for i, text in enumerate(entries):
            chunk = text if named == qid else heading(qid, q, user, continued=i > 0) + "\n" + text
            if budget is not None and current and size + len(chunk.encode("utf-8")) > budget:
                parts.append(current)
                current, size = [], 0
                chunk = heading(qid, q, user, continued=i > 0) + "\n" + text
            current.append(chunk)
            size += len(chunk.encode("utf-8")) + 1
            named = qid
    parts.append(current)
    if len(parts) == 1:
        return [Attachment(f"{stem}.md", _join(title, parts[0]), MD_MIME)]
    n = len(parts)
    return [
        Attachment(f"{stem}-part{k}of{n}.md", _join(f"{title} ({k}/{n})", part), MD_MIME)
        for k, part in enumerate(parts, 1)
    ]


def _join(title: str, blocks: list[str]) -> bytes:
    return ("\n".join([f"# {title}\n", *blocks])).encode("utf-8")
