"""One budget for every LLM call a user causes (gradings, second checks, rubrics for /review): a number of calls
per platform identity over the last 24 hours, and a number of tokens per UTC day over all users. Past either, the
offline grader answers (and /review keeps the question for self-rating) with a message saying why.

Both count what a user of the same account deleted by /forget used (bot/kernel/identity.py), and neither moves
with the user's timezone."""

from __future__ import annotations

from datetime import datetime

from bot.kernel.deps import Deps
from bot.kernel.identity import ROLLING_DAY
from bot.kernel.models import User
from bot.kernel.timeutil import start_of_local_day


async def refusal(deps: Deps, user: User, now: datetime) -> str | None:
    """None when the user may make one more LLM call now, else the i18n key saying why not."""
    used = await deps.store.count_llm_calls_since(user.id, now - ROLLING_DAY)
    if used >= deps.limits.llm_daily_limit:
        return "llm_limit"
    budget = deps.limits.llm_daily_tokens
    if budget and await deps.store.llm_tokens_since(start_of_local_day(now, "UTC")) >= budget:
        return "llm_budget"
    return None


async def spend(deps: Deps, user_id: int | None, kind: str, tokens: int, now: datetime) -> None:
    await deps.store.record_llm_call(user_id, kind, tokens, now)
