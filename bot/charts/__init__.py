"""Charts drawn outside the core: the matplotlib implementation of the ChartRenderer port."""

from bot.charts.progress_chart import MatplotlibChartRenderer

__all__ = ["MatplotlibChartRenderer"]
