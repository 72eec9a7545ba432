"""/apps' ports: its store (bot/storage/career.py, tests/fakes.py) and the renderer of its board
(bot/charts/apps_chart.py). A handler names them `applications` and `apps_charts`."""

from __future__ import annotations

from typing import Protocol

from bot.features.apps.chart_data import BoardData
from bot.features.career.models import Application


class ApplicationsPort(Protocol):
    """The application board (/apps)."""

    async def add_application(self, app: Application) -> Application:
        """Stored, with the id it got."""
        ...

    async def get_application(self, app_id: int) -> Application | None: ...
    async def list_applications(self, user_id: int) -> list[Application]:
        """Oldest first (by creation time, then id)."""
        ...

    async def save_application(self, app: Application) -> None:
        """Update company, role, stage, notes and history (never its owner or creation time)."""
        ...

    async def delete_application(self, user_id: int, app_id: int) -> bool: ...
    async def count_applications(self, user_id: int) -> int: ...


class AppsChartRenderer(Protocol):
    """Draws the application board (/apps) as a PNG, one column per stage. Synchronous: called in a worker thread."""

    def render_board(self, data: BoardData) -> bytes: ...
