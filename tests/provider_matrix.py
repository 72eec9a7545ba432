"""The provider matrix: 12 answers to real bank questions, graded by the real LLMGrader through each provider's
fake (tests/fake_providers.py) over HTTP, counting repairs and fallbacks and checking that what the "model"
meant reached the grade. Shared by tests/integration/test_llm_providers.py and bench/llm_providers.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openai

from bot.content.loader import load_file
from bot.grading.llm import LLMGrader
from bot.grading.providers import Provider
from bot.kernel.models import Lang, Question
from bot.kernel.ports import GraderUnavailable
from tests.fake_openai import FakeOpenAI
from tests.fake_providers import fakes, model_reply

CONTENT = Path(__file__).resolve().parents[1] / "content"
QUESTIONS = (  # a fault, a concept, a comparison and a case question
    "stability/stab-nan-debug-001.yaml",
    "pipeline/pipe-accum-basics-001.yaml",
    "pipeline/pipe-accum-vs-ckpt-001.yaml",
    "pipeline/pipe-actckpt-case-001.yaml",
)
SETTINGS: dict[str, tuple[Provider, ...]] = {  # the fake -> the LLM__PROVIDER settings it is graded with
    "openai": ("auto", "openai"),
    "deepseek": ("auto", "deepseek"),
    "dashscope": ("auto", "dashscope"),
    "reasoning": ("auto", "deepseek"),  # deepseek-reasoner: JSON mode, reasoning in reasoning_content
    "ollama": ("auto", "ollama"),
    "vllm": ("auto", "vllm"),
    "llamacpp": ("auto", "llamacpp"),
}


@dataclass(frozen=True)
class Answer:
    question: Question
    lang: Lang
    text: str
    meant: dict[str, str]  # key-point id -> the verdict the model means
    mistakes: int  # listed mistakes the answer makes


def states(line: str, point: str) -> bool:
    """The fake model's reading: a line states a key point when it carries the point's rubric text."""
    return point.strip().casefold() in line.casefold()


def answer(q: Question, lang: Lang, covered: list[int], mistake: bool) -> Answer:
    points = q.rubric.key_points
    if lang == "zh":
        lines = ["我会按这个顺序来讲。"] + [
            f"在上一个项目里，{points[i].text.zh}，这是我先测量过再做调整的。" for i in covered
        ]
    else:
        lines = ["Here is how I would go about it."] + [
            f"In my last run, {points[i].text.en} - I measured this myself before changing anything else."
            for i in covered
        ]
    listed = q.rubric.mistakes.get(lang)
    if mistake and listed:
        lines.append(("另外，" if lang == "zh" else "Also, ") + listed[0])
    text = "\n".join(lines)
    meant = {k.id: "hit" if any(states(x, k.text.get(lang)) for x in lines) else "missed" for k in points}
    made = sum(any(states(x, m) for x in lines) for m in listed)
    return Answer(q, lang, text, meant, min(made, 3))


def answers() -> list[Answer]:
    """12 answers: per question, half its points with a listed mistake (English), all of them (Chinese), and one
    point to the same question without bank follow-ups (the model writes its own)."""
    out = []
    for path in QUESTIONS:
        q, problems = load_file(CONTENT / path)
        assert q is not None and not problems, path
        n = len(q.rubric.key_points)
        out.append(answer(q, "en", list(range(0, n, 2)), mistake=True))
        out.append(answer(q, "zh", list(range(n)), mistake=False))
        out.append(answer(q.model_copy(update={"follow_ups": []}), "en", [0], mistake=False))
    return out


@dataclass
class Outcome:
    fake: str
    setting: str
    gradings: int
    repairs: int
    fallbacks: int
    lenient: int  # replies read leniently (a string cut, a fence dropped ...)
    requests: int  # HTTP requests, the refused ones included
    format: str  # the output format the grader settled on
    meaning_kept: int  # gradings whose verdicts and correctness are what the model meant
    follow_ups: int  # gradings that offer a follow-up

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


async def run(fake: str, setting: Provider, items: list[Answer], kind: type[LLMGrader] = LLMGrader) -> Outcome:
    """Grade `items` through the fake `fake` with LLM__PROVIDER=`setting` (`kind`: the bench's exact reader)."""
    server = FakeOpenAI()
    server.provider = fakes()[fake]
    server.grade_fn = model_reply
    await server.start()
    client = openai.AsyncOpenAI(base_url=server.base_url, api_key="test-key", timeout=10, max_retries=0)
    try:
        grader = kind(client, f"fake-{fake}", provider=setting, deadline=30)
        kept = offered = 0
        for item in items:
            try:
                grade = await grader.grade(item.question, item.text, item.lang)
            except GraderUnavailable:
                continue
            verdicts = {k.id: k.verdict for k in grade.key_points}
            kept += verdicts == item.meant and grade.dimensions["correctness"] == 100 - 40 * item.mistakes
            offered += bool(grade.follow_up)
        return Outcome(
            fake, setting, grader.counts["gradings"], grader.counts["repairs"], grader.counts["fallbacks"],
            grader.counts["lenient"], len(server.chat_requests()), grader.format, kept, offered,
        )  # fmt: skip
    finally:
        await client.close()
        await server.stop()
