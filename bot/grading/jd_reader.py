"""Reading a job description for /jd with the LLM (the JdReader port): the skills it asks for, which of the
bank's subtopics they need, and up to 5 interview questions for that job.

Its own bounded schema, built per call (the subtopics an enum of those offered), the job description as data
inside its own delimiter (an instruction in it is ignored, and a look-alike of the closing tag is made
harmless), temperature 0 and the grader's deadline: a slow or broken provider, or a reply out of schema,
gives no reading (the core then matches the bank offline), never a hang. A provider that does not enforce
the schema (json_object mode) may still name a subtopic that was not offered, or ask more than 5 questions:
such a subtopic is dropped and the questions past the fifth are cut, rather than losing the whole reading.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.grading.delimiters import escape_answer
from bot.grading.prompts import LANGUAGE_NAMES, fill
from bot.kernel.models import Lang
from bot.kernel.ports import JdReading

if TYPE_CHECKING:
    from bot.grading.llm import LLMGrader

log = logging.getLogger(__name__)
TAG = "job_description"
MAX_SKILLS = 12
MAX_SUBTOPICS = 12
MAX_QUESTIONS = 5
MAX_JD_CHARS = 20_000  # the core's own limit on a pasted or sent job description (Limits.max_document_chars)
SKILL_CHARS = (2, 60)
QUESTION_CHARS: dict[Lang, tuple[int, int]] = {"en": (10, 240), "zh": (5, 120)}  # Chinese says it in fewer


def _strings(bounds: tuple[int, int], most: int) -> dict[str, Any]:
    item = {"type": "string", "minLength": bounds[0], "maxLength": bounds[1]}
    return {"type": "array", "maxItems": most, "items": item}


def jd_schema(subtopics: Sequence[str], lang: Lang, lenient: bool = False) -> dict[str, Any]:
    """The reply's schema: the subtopics an enum of those offered (none offered: none allowed). `lenient` is
    the check a reply gets (any short subtopic name, up to twice the questions), since a provider that does not
    enforce the schema may break those two bounds, which are then fixed in code (see `reading`)."""
    offered = list(dict.fromkeys(subtopics))
    if lenient:
        subs: dict[str, Any] = _strings((1, 80), 2 * MAX_SUBTOPICS)
    elif offered:
        subs = {
            "type": "array",
            "maxItems": min(MAX_SUBTOPICS, len(offered)),
            "items": {"type": "string", "enum": offered},
        }
    else:
        subs = {"type": "array", "maxItems": 0, "items": {"type": "string"}}
    questions = _strings(QUESTION_CHARS[lang], 2 * MAX_QUESTIONS if lenient else MAX_QUESTIONS)
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["skills", "subtopics", "questions"],
        "properties": {"skills": _strings(SKILL_CHARS, MAX_SKILLS), "subtopics": subs, "questions": questions},
    }


def _clean(items: list[str]) -> list[str]:
    """Whitespace collapsed, empty and repeated items dropped, order kept."""
    return list(dict.fromkeys(text for text in (" ".join(str(i).split()) for i in items) if text))


def reading(data: dict[str, Any], subtopics: Sequence[str], tokens: int) -> JdReading:
    """The reading from a reply valid under the lenient schema: subtopics not offered dropped (the order of
    the reply kept), questions past the fifth cut."""
    offered = set(subtopics)
    return JdReading(
        skills=_clean(data["skills"]),
        subtopics=[s for s in _clean(data["subtopics"]) if s in offered][:MAX_SUBTOPICS],
        questions=_clean(data["questions"])[:MAX_QUESTIONS],
        tokens=tokens,
    )


class LLMJdReader:
    def __init__(self, grader: LLMGrader) -> None:
        self.grader = grader

    def prompt(self, text: str, lang: Lang, subtopics: Sequence[str]) -> str:
        """The request: the instructions and the offered subtopics, then the job description, delimited."""
        offered = ", ".join(dict.fromkeys(subtopics)) or "(none)"
        prompt = fill(self.grader.prompts.jd_read, language_name=LANGUAGE_NAMES[lang], subtopics=offered)
        return prompt.replace("{job_description}", escape_answer(text[:MAX_JD_CHARS].strip(), TAG))

    async def read(self, text: str, lang: Lang, subtopics: Sequence[str]) -> JdReading | None:
        """The reading, or None when the LLM cannot give one now (failed, too slow, or out of schema)."""
        schema = jd_schema(subtopics, lang)
        data, tokens = await self.grader.ask(
            self.prompt(text, lang, subtopics), schema, lang, "jd", check=jd_schema(subtopics, lang, lenient=True),
            temperature=0,
        )  # fmt: skip
        if data is None:
            return None
        return reading(data, subtopics, tokens)
