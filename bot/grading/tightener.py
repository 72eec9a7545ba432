"""The answer notebook's "Tighten to 2 minutes": the LLM rewrites one of the user's answers to about two
minutes of speech (about 300 words; about 550 characters in Chinese) from the candidate's own facts (a
number that would help and is missing is left as a bracketed prompt, never invented). Its own bounded
schema and the grader's deadline: a slow or broken provider gives no proposal, never a hang."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.grading.delimiters import escape_answer, escape_block
from bot.grading.prompts import LANGUAGE_NAMES, fill
from bot.kernel.models import Lang

if TYPE_CHECKING:
    from bot.grading.llm import LLMGrader

log = logging.getLogger(__name__)
TIGHTEN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["answer"],
    "properties": {"answer": {"type": "string", "minLength": 20, "maxLength": 2400}},
}


class LLMTightener:
    def __init__(self, grader: LLMGrader) -> None:
        self.grader = grader

    async def tighten(self, question: str, answer: str, lang: Lang) -> tuple[str | None, int]:
        """(the two-minute answer, tokens), or (None, 0) when the LLM cannot give one now."""
        prompt = fill(self.grader.prompts.tighten, language_name=LANGUAGE_NAMES[lang])
        prompt = prompt.replace("{question}", escape_block(question, "question"))
        prompt = prompt.replace("{answer}", escape_answer(answer, "candidate_answer"))
        data, tokens = await self.grader.ask(prompt, TIGHTEN_SCHEMA, lang, "tighten")
        if data is None:
            return None, 0
        text = "\n".join(" ".join(line.split()) for line in str(data["answer"]).splitlines() if line.strip())
        return text, tokens
