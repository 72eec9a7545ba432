"""LLM usage per UTC day: gradings and tokens (for `python -m bot usage`)."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from bot.storage import tables as T
from bot.storage.engine import Engines


async def usage_by_day(engines: Engines, days: int = 30, now: datetime | None = None) -> list[tuple[str, int, int]]:
    since = (now or datetime.now(UTC)) - timedelta(days=days)
    a = T.attempts.c
    query = sa.select(a.created_at, a.tokens).where(a.created_at >= since, a.grader.startswith("llm:"))
    per_day: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    async with engines.reader.connect() as conn:
        for created_at, tokens in (await conn.execute(query)).all():
            entry = per_day[created_at.date().isoformat()]
            entry[0] += 1
            entry[1] += int(tokens or 0)
    return [(day, n, tok) for day, (n, tok) in sorted(per_day.items())]
