"""Interview notes or a transcript split into the questions asked, by the LLM (/debrief).

The notes go in numbered lines inside a delimiter; the reply names each question and the line range of the
candidate's answer, so the answer graded later is the user's own text, cut from their notes, never words
the model wrote. Its own bounded schema (built per request: line numbers up to the notes' last line) and
the grader's deadline: a slow or broken provider gives no split (the offline one is used), never a hang.

The debrief's own rules, how many questions it keeps and the labels that open the candidate's turn ("Me:", "答："),
are the feature's (bot/features/debrief/split.py): the composition root hands them to the splitter."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from bot.grading.delimiters import escape_answer
from bot.grading.prompts import fill
from bot.kernel.ports import DebriefSplit

if TYPE_CHECKING:
    from bot.grading.llm import LLMGrader

log = logging.getLogger(__name__)
TAG = "interview_notes"
MAX_QUESTION_CHARS = 300


def split_schema(lines: int, max_questions: int) -> dict[str, Any]:
    """The reply's schema for notes of `lines` numbered lines, at most `max_questions` questions."""
    line = {"type": "integer", "minimum": 0, "maximum": lines}
    item = {
        "type": "object", "additionalProperties": False, "required": ["question", "answer_from", "answer_to"],
        "properties": {"question": {"type": "string", "minLength": 3, "maxLength": MAX_QUESTION_CHARS},
                       "answer_from": line, "answer_to": line},
    }  # fmt: skip
    return {
        "type": "object", "additionalProperties": False, "required": ["questions"],
        "properties": {"questions": {"type": "array", "minItems": 0, "maxItems": max_questions, "items": item}},
    }  # fmt: skip


def numbered(text: str) -> list[str]:
    """The notes' non-blank lines, stripped: line N of the prompt is `numbered(text)[N - 1]`."""
    return [x.strip() for x in text.replace("\r\n", "\n").split("\n") if x.strip()]


def answer_between(lines: list[str], first: int, last: int, reply_turn: re.Pattern[str]) -> str:
    """The candidate's answer: lines `first`..`last` (1-based) of the notes, without the "Me:"-style labels
    `reply_turn` matches; "" for 0, or for a range that is not one."""
    if not 1 <= first <= last <= len(lines):
        return ""
    said = []
    for line in lines[first - 1 : last]:
        label = reply_turn.match(line)
        said.append(line[label.end() :] if label else line)
    return "\n".join(x for x in said if x.strip())


class LLMDebriefSplitter:
    def __init__(self, grader: LLMGrader, *, max_questions: int, reply_turn: re.Pattern[str]) -> None:
        """`max_questions`: the most the debrief keeps (the reply's bound); `reply_turn`: a label that opens the
        candidate's turn, left out of the answers."""
        self.grader = grader
        self.max_questions = max_questions
        self.reply_turn = reply_turn

    async def split(self, text: str) -> DebriefSplit | None:
        """The questions with the user's answers cut from their notes, or None when the LLM cannot now."""
        lines = numbered(text)
        if not lines:
            return None
        body = "\n".join(f"L{i}: {line}" for i, line in enumerate(lines, 1))
        prompt = fill(self.grader.prompts.debrief_split, notes=escape_answer(body, TAG))
        schema = split_schema(len(lines), self.max_questions)
        data, tokens = await self.grader.ask(prompt, schema, "en", "debrief")
        if data is None:
            return None
        found = [
            (" ".join(q["question"].split()), answer_between(lines, q["answer_from"], q["answer_to"], self.reply_turn))
            for q in data["questions"]
        ]
        return DebriefSplit([(q, a) for q, a in found if q], tokens)
