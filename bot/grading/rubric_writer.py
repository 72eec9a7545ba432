"""Rubrics for real interview questions that match no bank question, written by the LLM."""

from __future__ import annotations

import json
import logging

from pydantic import BaseModel, Field, ValidationError

from bot.core.models import QUESTION_TYPES, KeyPoint, Lang, Level, Question, Rubric, Text, TextList
from bot.core.ports import GraderUnavailable
from bot.grading.llm import InvalidOutput, LLMGrader
from bot.grading.prompts import LANGUAGE_NAMES, fill

log = logging.getLogger(__name__)


class _Point(BaseModel):
    id: str = Field(min_length=1, max_length=40)
    weight: float = Field(default=1, gt=0, le=3)
    text: str = Field(min_length=1)
    keywords: list[str] = Field(default_factory=list)


class _Rubric(BaseModel):
    topic: str = "other"
    subtopic: str = "interview"
    type: str = "open"
    key_points: list[_Point] = Field(min_length=2, max_length=8)
    specifics: list[str] = Field(default_factory=list)
    mistakes: list[str] = Field(default_factory=list)
    reference_answer: str = Field(min_length=1)


class LLMRubricWriter:
    def __init__(self, grader: LLMGrader) -> None:
        self.grader = grader

    async def write(self, question_text: str, lang: Lang, level: Level) -> Question | None:
        """A personal question with a generated rubric, or None when the LLM cannot give one now."""
        prompt = fill(self.grader.prompts.review_rubric, language_name=LANGUAGE_NAMES[lang])
        prompt = prompt.replace("{question}", question_text.replace("</interview_question>", "</interview-question>"))
        try:
            raw, _tokens = await self.grader.complete([{"role": "user", "content": prompt}])
            data = _Rubric.model_validate(json.loads(raw.strip().strip("`").removeprefix("json")))
        except (GraderUnavailable, InvalidOutput, ValueError, ValidationError) as exc:
            log.info("rubric generation failed: %s", type(exc).__name__)
            return None

        def both(items: list[str]) -> TextList:
            return TextList(zh=items, en=items)

        points = [
            KeyPoint(id=p.id, weight=p.weight, text=Text.same(p.text), keywords=both(p.keywords[:8]))
            for p in data.key_points
        ]
        return Question(
            id="pending",
            topic=data.topic if data.topic in ("stability", "pipeline") else "other",
            subtopic=data.subtopic[:60] or "interview",
            type=data.type if data.type in QUESTION_TYPES else "open",
            level=level,
            difficulty=3,
            prompt=Text.same(question_text),
            rubric=Rubric(key_points=points, specifics=both(data.specifics), mistakes=both(data.mistakes)),
            reference_answer=Text.same(data.reference_answer),
            personal=True,
            generated_rubric=True,
        )
