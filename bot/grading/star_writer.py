"""The mock interview's STAR rewrite of a case answer, written by the LLM from the candidate's own facts
(missing parts left as bracketed prompts, never invented). Its own bounded schema and the grader's
deadline: a slow or broken provider gives no rewrite (the debrief keeps the offline STAR check), never
a hang."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.grading.delimiters import escape_answer, escape_block
from bot.grading.prompts import LANGUAGE_NAMES, fill
from bot.kernel.models import Lang

if TYPE_CHECKING:
    from bot.grading.llm import LLMGrader

log = logging.getLogger(__name__)
PARTS = ("situation", "task", "action", "result")
STAR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": list(PARTS),
    "properties": {p: {"type": "string", "minLength": 5, "maxLength": 600} for p in PARTS},
}


class LLMStarWriter:
    def __init__(self, grader: LLMGrader) -> None:
        self.grader = grader

    async def rewrite(self, question: str, answer: str, lang: Lang) -> tuple[dict[str, str] | None, int]:
        """({situation, task, action, result}, tokens), or (None, 0) when the LLM cannot give one now."""
        prompt = fill(self.grader.prompts.star_rewrite, language_name=LANGUAGE_NAMES[lang])
        prompt = prompt.replace("{question}", escape_block(question, "case_question"))
        prompt = prompt.replace("{answer}", escape_answer(answer, "candidate_answer"))
        data, tokens = await self.grader.ask(prompt, STAR_SCHEMA, lang, "star")
        if data is None:
            return None, 0
        return {p: " ".join(str(data[p]).split()) for p in PARTS}, tokens
