"""Grader prompts from prompts/: a static prefix (system + guidance for the question type) first,
so provider prompt caching applies, then the per-question part with the answer in delimiters."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bot.core.models import QUESTION_TYPES, Lang, Level, Question

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
ANSWER_TAG = "candidate_answer"
LANGUAGE_NAMES = {"zh": "Chinese (简体中文)", "en": "English"}


PLACEHOLDERS = {  # every template's placeholders, exactly: a typo ({mistake}) would reach the LLM as text
    "question.txt": frozenset(
        [
            "answer",
            "difficulty",
            "key_points",
            "language_name",
            "level",
            "mistakes",
            "prompt",
            "qtype",
            "reference_block",
            "specifics",
        ]
    ),
    "repair.txt": frozenset(("error",)),
    "review_rubric.txt": frozenset(("language_name", "question")),
    "system.txt": frozenset(),
    **{f"types/{t}.txt": frozenset() for t in QUESTION_TYPES},
}
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class PromptError(ValueError):
    """A prompt file is missing or its placeholders differ from what the code fills in."""


def check_placeholders(name: str, text: str) -> None:
    found = frozenset(_PLACEHOLDER.findall(text))
    wanted = PLACEHOLDERS[name]
    if found != wanted:
        unknown, missing = sorted(found - wanted), sorted(wanted - found)
        raise PromptError(f"prompts/{name}: unknown placeholder(s) {unknown or '-'}, missing {missing or '-'}")


def fill(template: str, **values: object) -> str:
    """Replace {name} placeholders; other braces (JSON examples) are left alone."""
    for key, value in values.items():
        template = template.replace("{" + key + "}", str(value))
    return template


def escape_answer(answer: str) -> str:
    """Neutralise delimiter look-alikes so an answer cannot close its own block."""
    for tag in (f"<{ANSWER_TAG}>", f"</{ANSWER_TAG}>"):
        answer = answer.replace(tag, tag.replace("<", "‹").replace(">", "›"))
    lowered = answer.lower()
    if ANSWER_TAG in lowered:
        out, i = [], 0
        while (j := lowered.find(ANSWER_TAG, i)) != -1:
            out.append(answer[i:j] + "candidate-answer")
            i = j + len(ANSWER_TAG)
        answer = "".join(out) + answer[i:]
    return answer


@dataclass(frozen=True)
class PromptSet:
    version: str
    system: str
    types: dict[str, str]
    question: str
    repair: str
    review_rubric: str

    def static_prefix(self, qtype: str) -> str:
        return self.system.strip() + "\n\n" + self.types[qtype].strip()

    @staticmethod
    def reference_block(q: Question, lang: Lang) -> str:
        """The reference answer, only when there are no key points to distil it.

        Bank questions carry 4-8 key points and the expected specifics, which are the reference
        answer distilled; repeating the whole reference would add about 400 tokens per grading.
        """
        reference = q.reference_answer.get(lang).strip()
        if q.rubric.key_points or not reference:
            return ""
        return f"Reference answer (full marks):\n{reference}\n\n"

    def messages(self, q: Question, answer: str, lang: Lang, level: Level) -> list[dict[str, str]]:
        kps = "\n".join(f"- {k.id}, {k.weight:g}: {k.text.get(lang)}" for k in q.rubric.key_points) or "- (none)"
        body = fill(
            self.question,
            language_name=LANGUAGE_NAMES[lang],
            level=level,
            qtype=q.type,
            difficulty=q.difficulty,
            prompt=q.prompt.get(lang),
            key_points=kps,
            specifics="; ".join(q.rubric.specifics.get(lang)) or "(none listed)",
            mistakes="; ".join(q.rubric.mistakes.get(lang)) or "(none listed)",
            reference_block=self.reference_block(q, lang),
            answer=escape_answer(answer),
        )
        return [{"role": "system", "content": self.static_prefix(q.type)}, {"role": "user", "content": body}]


@lru_cache(maxsize=4)
def load_prompts(root: Path = PROMPTS_DIR) -> PromptSet:
    def read(name: str) -> str:
        try:
            text = (root / name).read_text(encoding="utf-8")
        except OSError as err:
            raise PromptError(f"prompts/{name}: cannot be read ({err.strerror})") from None
        if name in PLACEHOLDERS:
            check_placeholders(name, text)
        return text

    return PromptSet(
        version=read("VERSION").strip(),
        system=read("system.txt"),
        types={t: read(f"types/{t}.txt") for t in QUESTION_TYPES},
        question=read("question.txt"),
        repair=read("repair.txt"),
        review_rubric=read("review_rubric.txt"),
    )
