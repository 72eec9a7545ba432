"""The guilds port on SQL: study servers and their leaderboards."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.kernel.models import Guild
from bot.storage import tables as T
from bot.storage.base import SqlBase
from bot.storage.personal_data import PERSONAL_PREFIX


class SqlGuilds(SqlBase):
    """Mixed into SqlStore: the GuildsPort (bot/kernel/store_ports.py)."""

    async def save_guild(self, guild: Guild) -> None:
        values = guild.model_dump(exclude={"id"})
        try:

            async def _unit(conn: AsyncConnection) -> Any:
                updated = await conn.execute(T.guilds.update().where(T.guilds.c.id == guild.id).values(**values))
                if updated.rowcount == 0:
                    await conn.execute(T.guilds.insert().values(id=guild.id, **values))

            await self.engines.write(_unit)
        except IntegrityError:  # inserted concurrently: update that row instead

            async def _unit(conn: AsyncConnection) -> Any:
                await conn.execute(T.guilds.update().where(T.guilds.c.id == guild.id).values(**values))

            await self.engines.write(_unit)

    async def get_guild(self, guild_id: str) -> Guild | None:
        found = await self._one(sa.select(T.guilds).where(T.guilds.c.id == guild_id))
        return Guild.model_validate(found) if found else None

    async def list_guilds(self, enabled_only: bool = True) -> list[Guild]:
        query = sa.select(T.guilds).order_by(T.guilds.c.id)
        if enabled_only:
            query = query.where(T.guilds.c.enabled.is_(True))
        return [Guild.model_validate(r) for r in await self._all(query)]

    async def leaderboard(self, source: str, since: datetime, limit: int = 10) -> list[tuple[int, int, int]]:
        """Points are each member's best grade score per question, counted once; attempts without a
        score (self-rated, revealed, ungraded), follow-ups and personal questions do not count. A grade
        still flagged after its second look (or that could not have one) counts no more than its offline
        estimate: an inflated grade never reaches the board."""
        a = T.attempts.c
        score = a.grade["score"].as_integer()
        estimate = a.grade["offline_score"].as_integer()
        doubted = sa.and_(a.grade["flagged"].as_boolean() == sa.true(), estimate.is_not(None), estimate < score)
        counted = sa.case((doubted, estimate), else_=score)
        best = (
            sa.select(a.user_id, sa.func.max(counted).label("best"))
            .where(a.source == source, a.created_at >= since, a.is_follow_up.is_(False), score.is_not(None))
            .where(a.question_id.not_like(f"{PERSONAL_PREFIX}%"))
            .group_by(a.user_id, a.question_id)
            .subquery()
        )
        points = sa.func.sum(best.c.best).label("points")
        answers = sa.func.count().label("answers")
        rows = await self._all(
            sa.select(best.c.user_id, points, answers)
            .group_by(best.c.user_id)
            .order_by(points.desc(), answers.desc(), best.c.user_id)
            .limit(limit)
        )
        return [(int(r["user_id"]), int(r["points"]), int(r["answers"])) for r in rows]
