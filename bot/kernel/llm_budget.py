"""One budget for every LLM call a user causes (gradings, second checks, rubrics for /review): a number of calls
per platform identity over the last 24 hours, and a number of tokens per UTC day over all users. Past either, the
offline grader answers (and /review keeps the question for self-rating) with a message saying why.

Both count what a user of the same account deleted by /forget used (bot/kernel/identity.py), and neither moves
with the user's timezone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.kernel.identity import ROLLING_DAY
from bot.kernel.limits import Limits
from bot.kernel.models import User
from bot.kernel.store_ports import LLMBudgetPort
from bot.kernel.timeutil import start_of_local_day


@dataclass(frozen=True)
class Budget:
    """The budget over the usage ledgers and the limits (the grading chain's LlmBudget port): a handler names it
    `budget`."""

    store: LLMBudgetPort
    limits: Limits

    async def refusal(self, user: User, now: datetime) -> str | None:
        """None when the user may make one more LLM call now, else the i18n key saying why not."""
        used = await self.store.count_llm_calls_since(user.id, now - ROLLING_DAY)
        if used >= self.limits.llm_daily_limit:
            return "llm_limit"
        budget = self.limits.llm_daily_tokens
        if budget and await self.store.llm_tokens_since(start_of_local_day(now, "UTC")) >= budget:
            return "llm_budget"
        return None

    async def spend(self, user_id: int | None, kind: str, tokens: int, now: datetime) -> None:
        await self.store.record_llm_call(user_id, kind, tokens, now)
