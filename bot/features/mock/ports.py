"""The mock interview's ports: its store (MocksPort, implemented by bot/storage/mocks.py and tests/fakes.py) and
the renderer of its debrief chart (bot/charts/mock_chart.py). A handler names them `mocks` and `mock_charts`."""

from __future__ import annotations

from typing import Protocol

from bot.features.mock.chart_data import MockChartData
from bot.features.mock.models import MockSession


class MocksPort(Protocol):
    """Mock interviews (bot/features/mock/mock.py): at most one running per user; a restart reads it back."""

    async def create_mock(self, mock: MockSession) -> MockSession | None:
        """The mock stored, with the id it got; None (nothing stored) when the user already has one running."""
        ...

    async def get_mock(self, mock_id: int) -> MockSession | None: ...
    async def running_mock(self, user_id: int) -> MockSession | None: ...
    async def save_mock(self, mock: MockSession) -> None:
        """Update a stored mock (never its owner or creation time); one that is gone stays gone."""
        ...

    async def list_mocks(self, user_id: int) -> list[MockSession]:
        """Oldest first (by creation time, then id)."""
        ...


class MockChartRenderer(Protocol):
    """Draws a mock interview's debrief as a PNG (bot/features/mock/report.MockChartData). Synchronous: called in
    a worker thread."""

    def render_mock(self, data: MockChartData) -> bytes: ...
