"""Builders shared by the store contract tests: users, questions, attempts and review items at fixed times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.kernel import srs
from bot.kernel.models import DIMENSIONS, Attempt, Card, Grade, Question, ReviewItem, Rubric, Text, User
from bot.kernel.store_ports import Store

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


async def new_user(store: Store, external_id: str, platform: str = "telegram", **fields: Any) -> User:
    return await store.get_or_create_user(platform, external_id, User(id=0, created_at=NOW, **fields))


async def new_card(
    store: Store, user_id: int, question_id: str, due: datetime = NOW, personal: bool = False, created: datetime = NOW
) -> Card:
    return await store.create_card(user_id, question_id, srs.new_state(created), due, personal, created)


def graded(score: int) -> Grade:
    return Grade(score=score, dimensions=dict.fromkeys(DIMENSIONS, score), grader="offline")


def attempt(user_id: int, question_id: str = "pipe-q-001", card_id: int | None = None, **fields: Any) -> Attempt:
    values: dict[str, Any] = {"answer": "First I check the data.", "created_at": NOW, **fields}
    return Attempt(id=0, user_id=user_id, card_id=card_id, question_id=question_id, **values)


def personal_question(prompt: str = "Why RMSNorm?") -> Question:
    """A question as /review builds it before the store gives it its id."""
    return Question(
        id="pending",
        topic="stability",
        subtopic="nan-loss",
        type="open",
        level="engineer",
        difficulty=3,
        prompt=Text.same(prompt),
        rubric=Rubric(),
        reference_answer=Text.same(""),
        personal=True,
    )


def review_item(
    user_id: int, question_id: str = "pipe-zero-001", created_at: datetime = NOW, **fields: Any
) -> ReviewItem:
    values: dict[str, Any] = {"company": "Acme", "question_text": "q?", "matched_bank": True, "topic": "pipeline",
                              "subtopic": "test", **fields}  # fmt: skip
    return ReviewItem(id=0, user_id=user_id, question_id=question_id, created_at=created_at, **values)
