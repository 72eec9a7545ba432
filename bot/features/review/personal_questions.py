"""A question of the user's own (from /review, or written for a job description by /jd): a rubric from the
LLM rubric writer when there is one and the budget allows, else a self-rated question with no rubric."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.kernel.bank import Bank
from bot.kernel.inject import group
from bot.kernel.llm_budget import Budget
from bot.kernel.models import Question, Rubric, Text, User
from bot.kernel.ports import RubricWriter


@group
@dataclass(frozen=True)
class Rubrics:
    """What writes a personal question's rubric: the LLM rubric writer (None: none), the budget of LLM calls, and
    the bank (its subtopics)."""

    rubric_writer: RubricWriter | None
    budget: Budget
    bank: Bank


async def personal_question(
    text: str, topic: str, subtopic: str, rubrics: Rubrics, user: User, now: datetime, *, refile: bool = True
) -> Question:
    """The question for `text`, not stored yet (id "pending"). A written rubric keeps its own subtopic when
    it is one of the bank's; otherwise (and with `refile`) it is filed under `topic` / `subtopic`."""
    written = None
    writer = rubrics.rubric_writer
    if writer is not None and await rubrics.budget.refusal(user, now) is None:
        written, tokens = await writer.write(text, user.language, user.level)
        await rubrics.budget.spend(user.id, "rubric", tokens, now)
    if written is not None and refile and written.subtopic not in rubrics.bank.subtopics():
        written = written.model_copy(update={"topic": topic, "subtopic": subtopic})
    return written or Question(
        id="pending",
        topic=topic,
        subtopic=subtopic,
        type="open",
        level=user.level,
        difficulty=3,
        prompt=Text.same(text),
        rubric=Rubric(),
        reference_answer=Text.same(""),
        personal=True,
    )
