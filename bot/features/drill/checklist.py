"""The replies of a graded answer: the offline checklist the user rates from, or the LLM grade they may disagree with.

Offline (bot/kernel/verdicts.py) the reply shows what the estimate found, point by point with the sentence that
matched, any mistake it spotted, the reference answer and a suggested rating one tap away; never a score or a
correctness figure. An LLM grade shows its score and dimensions (only those the question type weighs), a
"Disagree" button, and asks to confirm a borderline rating.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.kernel import actions, verdicts
from bot.kernel.i18n import t
from bot.kernel.models import Attempt, Grade, KeyPoint, Lang, Question, Rating
from bot.kernel.render import grade_text, point_label, rating_buttons
from bot.kernel.replies import Button, Reply
from bot.kernel.scoring import rating_from_score

MAX_TICKS = 4  # "I said ..." buttons: the heaviest points not found, at most this many
TICK_LABEL_CHARS = {"en": 40, "zh": 16}


def weights(q: Question) -> dict[str, float]:
    return {k.id: k.weight for k in q.rubric.key_points}


def _point_lines(grade: Grade, q: Question, lang: Lang, ticked: Collection[str]) -> list[str]:
    points = {k.id: k for k in q.rubric.key_points}
    lines = []
    for result in grade.key_points:
        point = points.get(result.id)
        name = point_label(point, lang) if point else result.id
        quote = " ".join(result.evidence.split())
        if result.id in ticked and result.verdict != "hit":
            lines.append(t(lang, "check.ticked", point=name))
        elif result.verdict == "missed":
            lines.append(t(lang, "check.missed", point=name))
        else:
            key = f"check.{result.verdict}" + ("" if quote else ".bare")
            lines.append(t(lang, key, point=name, quote=quote))
    return lines


def checklist_text(grade: Grade, q: Question, lang: Lang, ticked: Collection[str] = ()) -> str:
    """What the offline estimate found, with no score: the points, the mistakes it saw, its advice."""
    if grade.key_points:
        found = sum(1 for k in grade.key_points if k.verdict != "missed" or k.id in ticked)
        lines = [t(lang, "check.header", found=found, total=len(grade.key_points))]
        lines += _point_lines(grade, q, lang, ticked)
    else:
        lines = [t(lang, "check.header.reference", share=grade.dimensions.get("coverage", grade.score))]
    if grade.mistakes:
        lines.append(t(lang, "check.mistakes"))
        lines.extend(f"  - {m}" for m in grade.mistakes)
    if grade.feedback:
        lines.append(t(lang, "grade.feedback", text=grade.feedback))
    if grade.follow_up:
        lines.append(t(lang, "grade.follow_up", text=grade.follow_up))
    return "\n".join(lines)


def _open_points(grade: Grade, q: Question, ticked: Collection[str]) -> list[tuple[int, KeyPoint]]:
    """(index in the grade, point) of the points not found and not ticked, heaviest first, at most MAX_TICKS."""
    points = {k.id: k for k in q.rubric.key_points}
    open_ = [
        (i, points[r.id])
        for i, r in enumerate(grade.key_points)
        if r.verdict != "hit" and r.id not in ticked and r.id in points
    ]
    return sorted(open_, key=lambda p: -p[1].weight)[:MAX_TICKS]


def rating_row(attempt_id: int, lang: Lang, first: Rating, label_key: str) -> list[Button]:
    """The four ratings, the suggested (or kept) one first with its mark: one tap accepts it."""
    rest = [
        b
        for b in rating_buttons(attempt_id, lang)
        if b.action != actions.Rate(attempt=attempt_id, rating=int(first)).encode()
    ]
    marked = Button(
        t(lang, label_key, rating=t(lang, f"rating.{int(first)}")),
        actions.Rate(attempt=attempt_id, rating=int(first)).encode(),
    )
    return [marked, *rest]


def rate_reply(attempt: Attempt, q: Question, lang: Lang, has_follow_up: bool) -> Reply:
    """The reference answer and the rating prompt under it, with the suggestion first and the "I said" ticks."""
    grade = attempt.grade
    assert grade is not None
    reference = q.reference_answer.get(lang).strip()
    head = t(lang, "reference", text=reference) + "\n\n" if reference else ""
    tail = [Button(t(lang, "btn.next"), actions.Next().encode())]
    if attempt.is_follow_up:
        return Reply(head + t(lang, "check.rate.follow_up"), [tail], kind="grade")
    suggestion = verdicts.suggested_rating(grade, weights(q), attempt.ticked)
    share = grade.dimensions.get("coverage", grade.score)
    if attempt.ticked:
        share = max(share, verdicts.checklist_share(grade, weights(q), attempt.ticked))
    why = t(lang, "check.why.mistake") if grade.mistakes else t(lang, "check.why.coverage", share=share)
    text = head + t(lang, "check.rate", rating=t(lang, f"rating.{int(suggestion)}"), why=why)
    ticks = _open_points(grade, q, attempt.ticked)
    if ticks:
        text += "\n" + t(lang, "check.tick_hint")
    limit = TICK_LABEL_CHARS[lang]
    tick_buttons = [
        Button(
            t(lang, "btn.tick", point=point_label(p, lang, limit)), actions.Tick(attempt=attempt.id, index=i).encode()
        )
        for i, p in ticks
    ]
    if has_follow_up:
        tail.insert(0, Button(t(lang, "btn.follow_up"), actions.FollowUp(attempt=attempt.id).encode()))
    tail.append(Button(t(lang, "notes.btn.save"), actions.Career(tool="notes", arg=f"save:{attempt.id}").encode()))
    # the rating first, then where to go next, then the corrections: at most 4 rows (Discord shows 5), and the
    # numbers the terminal gives the first two rows do not depend on how many points are open
    rows = [rating_row(attempt.id, lang, suggestion, "btn.accept"), tail]
    rows += [tick_buttons[i : i + 2] for i in range(0, len(tick_buttons), 2)]
    return Reply(
        text, rows, kind="grade", default_action=actions.Rate(attempt=attempt.id, rating=int(suggestion)).encode()
    )


def estimate_replies(attempt: Attempt, q: Question, lang: Lang, notice: str | None = None) -> list[Reply]:
    """An offline estimate's replies: the checklist, then the reference and the rating prompt."""
    grade = attempt.grade
    assert grade is not None
    text = checklist_text(grade, q, lang, attempt.ticked)
    if notice:
        text += "\n" + t(lang, notice)
    return [Reply(text, kind="grade"), rate_reply(attempt, q, lang, bool(grade.follow_up))]


def llm_buttons(attempt: Attempt, lang: Lang, has_follow_up: bool) -> list[list[Button]]:
    first = [Button(t(lang, "btn.reference"), actions.Reference(attempt=attempt.id).encode())]
    if has_follow_up:
        first.append(Button(t(lang, "btn.follow_up"), actions.FollowUp(attempt=attempt.id).encode()))
    first.append(Button(t(lang, "btn.next"), actions.Next().encode()))
    rows = [first]
    if not attempt.is_follow_up:
        rows.append([Button(t(lang, "btn.disagree"), actions.Disagree(attempt=attempt.id).encode())])
    rows.append([Button(t(lang, "notes.btn.save"), actions.Career(tool="notes", arg=f"save:{attempt.id}").encode())])
    return rows


def llm_reply(attempt: Attempt, q: Question, lang: Lang, due: str, notice: str | None = None) -> Reply:
    """An LLM grade: score and dimensions, "Disagree", and a confirmation asked on a borderline grade."""
    grade = attempt.grade
    assert grade is not None
    rating = rating_from_score(grade.score)
    text = grade_text(grade, q, lang, rating, due)
    if notice:
        text += "\n" + t(lang, notice)
    buttons = llm_buttons(attempt, lang, bool(grade.follow_up))
    if attempt.is_follow_up:
        text += "\n" + t(lang, "follow_up_done")
        return Reply(text, [[Button(t(lang, "btn.next"), actions.Next().encode())]], kind="grade")
    if verdicts.borderline(grade) and attempt.rating_by != "user":
        gap = abs(grade.score - grade.offline_score) if grade.offline_score is not None else 0
        why = (
            t(lang, "confirm.why.gap", score=grade.score, offline=grade.offline_score)
            if gap > verdicts.BORDERLINE_GAP
            else t(lang, "confirm.why.partial")
        )
        text += "\n" + t(lang, "grade.confirm", why=why, rating=t(lang, f"rating.{int(rating)}"))
        buttons.insert(1, rating_row(attempt.id, lang, rating, "btn.keep"))
        return Reply(
            text, buttons, kind="grade", default_action=actions.Rate(attempt=attempt.id, rating=int(rating)).encode()
        )
    return Reply(text, buttons, kind="grade")


def graded_replies(attempt: Attempt, q: Question, lang: Lang, due: str, notice: str | None = None) -> list[Reply]:
    """The replies for a graded attempt, by who graded it."""
    grade = attempt.grade
    assert grade is not None
    if verdicts.is_estimate(grade):
        return estimate_replies(attempt, q, lang, notice)
    return [llm_reply(attempt, q, lang, due, notice)]
