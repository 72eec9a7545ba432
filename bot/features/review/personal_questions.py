"""A question of the user's own (from /review, or written for a job description by /jd): a rubric from the
LLM rubric writer when there is one and the budget allows, else a self-rated question with no rubric."""

from __future__ import annotations

from datetime import datetime

from bot.features.deps import Deps
from bot.kernel import llm_budget
from bot.kernel.models import Question, Rubric, Text, User


async def personal_question(
    text: str, topic: str, subtopic: str, deps: Deps, user: User, now: datetime, *, refile: bool = True
) -> Question:
    """The question for `text`, not stored yet (id "pending"). A written rubric keeps its own subtopic when
    it is one of the bank's; otherwise (and with `refile`) it is filed under `topic` / `subtopic`."""
    written = None
    if deps.rubric_writer is not None and await llm_budget.refusal(deps, user, now) is None:
        written, tokens = await deps.rubric_writer.write(text, user.language, user.level)
        await llm_budget.spend(deps, user.id, "rubric", tokens, now)
    if written is not None and refile and written.subtopic not in deps.bank.subtopics():
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
