"""The shipped question bank, loaded once per test run and shared: a `Bank` is read-only (its questions are frozen
models; `all()` and the helpers below hand each caller a list of its own), so no test can change it for another.
A test that needs a changed bank builds its own `Bank` from these questions (`model_copy` for a changed one)."""

from __future__ import annotations

from functools import cache

from bot.config import Settings
from bot.kernel.bank import Bank
from bot.kernel.models import Question
from bot.shipped_bank import load_default_bank


@cache
def shipped_bank() -> Bank:
    """The bank as the bot loads it (`load_default_bank`: the content folder, the prompts checked) with /review's
    matcher, whose vectors come from the cache folder (computed once when it is cold)."""
    return load_default_bank(Settings(_env_file=None))  # type: ignore[call-arg]


def shipped_questions() -> list[Question]:
    """The shipped bank's questions in the order of its files (a new list at each call)."""
    return shipped_bank().all()


def shipped_by_id() -> dict[str, Question]:
    """The shipped bank's questions by id (a new dict at each call)."""
    return {q.id: q for q in shipped_bank().all()}
