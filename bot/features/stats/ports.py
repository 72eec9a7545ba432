"""/stats' port: the renderer of the progress chart (bot/charts/progress_chart.py). A handler names it `charts`."""

from __future__ import annotations

from typing import Protocol

from bot.features.stats.chart_data import ProgressData
from bot.kernel.models import Lang


class ChartRenderer(Protocol):
    """Draws the /stats progress chart as a PNG (labels in `lang`). Synchronous: called in a worker thread."""

    def render(self, data: ProgressData, lang: Lang) -> bytes: ...
