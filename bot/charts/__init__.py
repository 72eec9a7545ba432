"""Charts drawn outside the core: the matplotlib implementations of the ChartRenderer and
MockChartRenderer ports."""

from bot.charts.apps_chart import MatplotlibAppsChart
from bot.charts.mock_chart import MatplotlibMockChart
from bot.charts.progress_chart import MatplotlibChartRenderer

__all__ = ["MatplotlibAppsChart", "MatplotlibChartRenderer", "MatplotlibMockChart"]
