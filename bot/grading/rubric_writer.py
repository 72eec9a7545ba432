"""Rubrics for real interview questions that match no bank question, written by the LLM.

The reply has its own schema (every bound in it, as for gradings), and the call has the grader's
deadline: a slow or broken provider gives no rubric (the question is then self-rated), never a hang.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.grading.delimiters import escape_block
from bot.grading.prompts import LANGUAGE_NAMES, fill
from bot.kernel.models import QUESTION_TYPES, KeyPoint, Lang, Level, Question, Rubric, Text, TextList

if TYPE_CHECKING:
    from bot.grading.llm import LLMGrader

log = logging.getLogger(__name__)


def _strings(low: int, high: int, most: int, fewest: int = 0) -> dict[str, Any]:
    item = {"type": "string", "minLength": low, "maxLength": high}
    return {"type": "array", "minItems": fewest, "maxItems": most, "items": item}


POINT = {
    "type": "object", "additionalProperties": False, "required": ["id", "weight", "text", "keywords"],
    "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 40},
                   "weight": {"type": "integer", "minimum": 1, "maximum": 3},
                   "text": {"type": "string", "minLength": 5, "maxLength": 240},
                   "keywords": _strings(1, 40, 6, 1)},
}  # fmt: skip
RUBRIC_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "required": ["topic", "subtopic", "type", "key_points", "specifics", "mistakes", "reference_answer"],
    "properties": {
        "topic": {"type": "string", "enum": ["stability", "pipeline", "other"]},
        "subtopic": {"type": "string", "minLength": 2, "maxLength": 60},
        "type": {"type": "string", "enum": list(QUESTION_TYPES)},
        "key_points": {"type": "array", "minItems": 3, "maxItems": 6, "items": POINT},
        "specifics": _strings(1, 120, 6), "mistakes": _strings(3, 160, 4),
        "reference_answer": {"type": "string", "minLength": 80, "maxLength": 1800},
    },
}  # fmt: skip


class LLMRubricWriter:
    def __init__(self, grader: LLMGrader) -> None:
        self.grader = grader

    async def write(self, question_text: str, lang: Lang, level: Level) -> tuple[Question | None, int]:
        """(a personal question with a generated rubric, or None when the LLM cannot give one now; tokens)"""
        prompt = fill(self.grader.prompts.review_rubric, language_name=LANGUAGE_NAMES[lang])
        prompt = prompt.replace("{question}", escape_block(question_text, "interview_question"))
        data, tokens = await self.grader.ask(prompt, RUBRIC_SCHEMA, lang, "rubric")
        if data is None:
            return None, 0

        def both(items: list[str]) -> TextList:
            return TextList(zh=items, en=items)

        points, seen = [], set()
        for i, p in enumerate(data["key_points"]):
            pid = p["id"].strip() if p["id"].strip() not in seen else f"{p['id'].strip()}-{i + 1}"
            seen.add(pid)
            points.append(KeyPoint(id=pid, weight=p["weight"], text=Text.same(p["text"]), keywords=both(p["keywords"])))
        question = Question(
            id="pending",
            topic=data["topic"],
            subtopic=data["subtopic"],
            type=data["type"],
            level=level,
            difficulty=3,
            prompt=Text.same(question_text),
            rubric=Rubric(key_points=points, specifics=both(data["specifics"]), mistakes=both(data["mistakes"])),
            reference_answer=Text.same(data["reference_answer"]),
            personal=True,
            generated_rubric=True,
        )
        return question, tokens
