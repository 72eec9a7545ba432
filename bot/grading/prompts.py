"""Grader prompts from prompts/: a static prefix (system + guidance and a graded example for the question
type) first, so provider prompt caching applies, then the per-question part (rubric, reference answer,
follow-up choices), then the answer inside a delimiter whose tag name is new for every request."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bot.grading.delimiters import escape_answer
from bot.kernel.models import QUESTION_TYPES, Lang, Level, Question

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
EXAMPLE = "Example (graded):"  # in prompts/types/*.txt: the graded example, sent as its own turns
LANGUAGE_NAMES = {"zh": "Chinese (简体中文)", "en": "English"}


PLACEHOLDERS = {  # every template's placeholders, exactly: a typo ({mistake}) would reach the LLM as text
    "question.txt": frozenset(
        [
            "answer",
            "difficulty",
            "follow_up_block",
            "key_points",
            "language_name",
            "level",
            "mistakes",
            "prompt",
            "qtype",
            "reference_block",
            "specifics",
            "tag",
        ]
    ),
    "repair.txt": frozenset(("error",)),
    "review_rubric.txt": frozenset(("language_name", "question")),
    "star_rewrite.txt": frozenset(("answer", "language_name", "question")),
    "jd_read.txt": frozenset(("job_description", "language_name", "subtopics")),
    "debrief_split.txt": frozenset(("notes",)),
    "system.txt": frozenset(),
    "tighten.txt": frozenset(("answer", "language_name", "question")),
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


@dataclass(frozen=True)
class PromptSet:
    version: str
    system: str
    types: dict[str, str]
    question: str
    repair: str
    review_rubric: str
    star_rewrite: str = ""  # the mock interview's STAR rewrite of a case answer (bot/grading/star_writer.py)
    jd_read: str = ""  # reading a job description for /jd (bot/grading/jd_reader.py)
    debrief_split: str = ""  # interview notes split into the questions asked (bot/grading/debrief_splitter.py)
    tighten: str = ""  # the notebook's two-minute version of an answer (bot/grading/tightener.py)

    def static_prefix(self, qtype: str) -> str:
        return self.system.strip() + "\n\n" + self.types[qtype].split(EXAMPLE, 1)[0].strip()

    def example_turns(self, qtype: str) -> list[dict[str, str]]:
        """The type's graded example as a user turn and the assistant's compact reply: a model copies the
        layout of a reply it has "given" far more faithfully than one described in the instructions."""
        if EXAMPLE not in self.types[qtype]:
            return []
        example = self.types[qtype].split(EXAMPLE, 1)[1].strip()
        request, reply = example.rsplit("\nReply:", 1)
        return [
            {"role": "user", "content": "Example (graded):\n" + request.strip()},
            {"role": "assistant", "content": reply.strip()},
        ]

    @staticmethod
    def reference_block(q: Question, lang: Lang, send: bool = True) -> str:
        """The reference answer: judges grade far better on questions they could not answer themselves
        when they see one (it costs about 300-450 prompt tokens; `send=False` leaves it out)."""
        reference = q.reference_answer.get(lang).strip()
        if not reference or not (send or not q.rubric.key_points):
            return ""
        return f"Reference answer (full marks):\n{reference}\n\n"

    @staticmethod
    def follow_up_block(q: Question, lang: Lang) -> str:
        if q.follow_ups:
            choices = "\n".join(f"- f{i + 1}: {f.get(lang)}" for i, f in enumerate(q.follow_ups))
            return (
                "Follow-up questions: in follow_up give the id of the one that presses hardest on the weakest "
                f"part of this answer.\n{choices}"
            )
        return (
            "follow_up: write one question that presses on the weakest part of this answer; follow_up_points: "
            "2-3 short points a good reply makes; follow_up_reference: a 2-3 sentence model reply."
        )

    def messages(
        self, q: Question, answer: str, lang: Lang, level: Level, tag: str, send_reference: bool = True
    ) -> list[dict[str, str]]:
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
            reference_block=self.reference_block(q, lang, send_reference),
            follow_up_block=self.follow_up_block(q, lang),
            tag=tag,
            answer=escape_answer(answer, tag),
        )
        return [
            {"role": "system", "content": self.static_prefix(q.type)},
            *self.example_turns(q.type),
            {"role": "user", "content": body},
        ]


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
        star_rewrite=read("star_rewrite.txt"),
        jd_read=read("jd_read.txt"),
        debrief_split=read("debrief_split.txt"),
        tighten=read("tighten.txt"),
    )
