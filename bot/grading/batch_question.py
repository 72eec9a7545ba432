"""Build a Question from one row of a batch-grading CSV (question, reference answer, key points).

The batch CLI (`python -m bot grade --input answers.csv`) and the SemEval benchmark build their
questions here, so both grade the same way: the prompt and the reference answer in both
languages, no keywords, type "concept", level "campus". Optional key points are plain texts
(their text is their only keyword source).
"""

from __future__ import annotations

from bot.core.models import KeyPoint, Question, Rubric, Text


def question_from_row(
    question: str, reference_answer: str, key_points: list[str] | None = None, qid: str = "batch"
) -> Question:
    """A reference-graded question; blank key points are dropped, each kept one weighs 1."""
    kps = [
        KeyPoint(id=f"kp{i}", weight=1.0, text=Text.same(text.strip()))
        for i, text in enumerate(key_points or [], start=1)
        if text.strip()
    ]
    return Question(
        id=qid,
        topic="batch",
        subtopic="batch",
        type="concept",
        level="campus",
        difficulty=1,
        prompt=Text.same(question.strip()),
        rubric=Rubric(key_points=kps),
        reference_answer=Text.same(reference_answer.strip()),
    )
