"""Build a Question from one row of a batch-grading CSV (question, reference answer, key points).

The batch CLI (`python -m bot grade --input answers.csv`) and the SemEval benchmark build their
questions here, so both grade the same way: the prompt and the reference answer in both
languages, no keywords, type "concept", level "campus". Optional key points are plain texts
(their text is their only keyword source).

A batch row may instead name a bank question by `question_id`: it is then graded against that
question's own bilingual rubric, and its `question`, `reference_answer` and `key_points` cells
are not used (`row_question`).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.kernel.models import KeyPoint, Question, Rubric, Text

FREE_COLUMNS = ("question", "reference_answer")
"""What a row without a question_id needs besides its answer."""


class RowError(ValueError):
    """One row cannot be graded; the message goes to the row's `error` column."""


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


def row_question(row: Mapping[str, str], bank: Mapping[str, Question], qid: str = "batch") -> Question:
    """The question a batch row is graded against: the bank question its `question_id` names, else
    one built from its own cells. RowError for an unknown id or a blank required cell (`answer`
    always; `question` and `reference_answer` when there is no question_id)."""
    bank_id = (row.get("question_id") or "").strip()
    if bank_id:
        q = bank.get(bank_id)
        if q is None:
            raise RowError(f"unknown question_id {bank_id!r}")
        if not (row.get("answer") or "").strip():
            raise RowError("missing answer")
        return q
    missing = [c for c in (*FREE_COLUMNS, "answer") if not (row.get(c) or "").strip()]
    if missing:
        hint = " (or a question_id)" if any(c in FREE_COLUMNS for c in missing) else ""
        raise RowError(f"missing {', '.join(missing)}{hint}")
    key_points = [k.strip() for k in (row.get("key_points") or "").split(";") if k.strip()]
    return question_from_row(row["question"], row["reference_answer"], key_points or None, qid=qid)
