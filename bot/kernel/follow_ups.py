"""The question a follow-up answer is graded against."""

from __future__ import annotations

from bot.kernel.models import Grade, KeyPoint, Question, Rubric, Text, TextList


def follow_up_question(parent: Question, grade: Grade | None, text: str) -> Question:
    """The question a follow-up answer is graded against: the bank's own follow-up with its own rubric
    when the follow-up asked is one of those; else the follow-up with the short rubric that the grading
    call produced (or the parent's rubric when there is none)."""
    own = next((f for f in parent.follow_ups if text in (f.zh, f.en) and f.key_points), None)
    if own is not None and own.reference_answer is not None:
        return parent.model_copy(
            update={
                "id": parent.id,
                "prompt": Text(zh=own.zh, en=own.en),
                "rubric": Rubric(key_points=own.key_points),
                "reference_answer": own.reference_answer,
                "follow_ups": [],
            }
        )
    if grade is None or not grade.follow_up_points:
        return parent.model_copy(update={"prompt": Text.same(text)})
    points = [
        KeyPoint(id=f"fu{i + 1}", weight=1, text=Text.same(p), keywords=TextList())
        for i, p in enumerate(grade.follow_up_points[:6])
    ]
    return parent.model_copy(
        update={
            "id": parent.id,
            "prompt": Text.same(text),
            "rubric": Rubric(key_points=points),
            "reference_answer": Text.same(grade.follow_up_reference),
            "follow_ups": [],
        }
    )
