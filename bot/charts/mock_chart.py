"""The mock interview's debrief as a PNG with matplotlib (Agg, headless): each question's score against the
verdict bands (with the best follow-up answer beside it and the previous mock's score as a line), and the
dimension averages. A new figure per call (a debrief is drawn once per mock); the labels come translated
in the data, so Chinese needs only the bundled CJK font."""

from __future__ import annotations

import io
import threading

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure

from bot.charts.fonts import font_families
from bot.features.mock.chart_data import MockChartData

BLUE, ORANGE, GREY, RED = "#3b75af", "#ef8636", "#9aa5b1", "#c44e52"
BAND_COLOURS = ("#e3f1e0", "#eef6e9", "#fbf3e2", "#f9e4e2")  # strong hire ... no hire, light


class MatplotlibMockChart:
    """The MockChartRenderer port: a `width` x `height` pixel PNG."""

    def __init__(self, width: int = 1000, height: int = 520, dpi: int = 100) -> None:
        self.size, self.dpi = (width, height), dpi
        self._lock = threading.Lock()  # matplotlib's rcParams are not thread-safe

    def render_mock(self, data: MockChartData) -> bytes:
        with self._lock, matplotlib.rc_context({"font.family": font_families(), "font.size": 9}):
            fig = self.figure(data)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=self.dpi, facecolor="white", pil_kwargs={"compress_level": 1})
            return buf.getvalue()

    def figure(self, data: MockChartData) -> Figure:
        """The chart as a matplotlib Figure (`render_mock` saves it; a test reads what it says)."""
        with matplotlib.rc_context({"font.family": font_families(), "font.size": 9}):
            w, h = self.size
            fig = Figure(figsize=(w / self.dpi, h / self.dpi), dpi=self.dpi)
            grid = fig.add_gridspec(1, 2, width_ratios=(3, 2), left=0.06, right=0.97, top=0.84, bottom=0.1, wspace=0.5)
            scores, dims = fig.add_subplot(grid[0]), fig.add_subplot(grid[1])
            fig.suptitle(data.title, x=0.06, ha="left", fontsize=12)
            self._scores(scores, data)
            self._dimensions(dims, data)
            for ax in (scores, dims):
                ax.spines[["top", "right"]].set_visible(False)
            return fig

    @staticmethod
    def _scores(ax, data: MockChartData) -> None:  # type: ignore[no-untyped-def]
        n = len(data.questions)
        top = 100
        for (floor, label), colour in zip(data.bands, BAND_COLOURS, strict=False):
            ax.axhspan(floor, top, color=colour, zorder=0)
            ax.text(n - 0.3, (floor + top) / 2, label, ha="left", va="center", fontsize=7, color=GREY, clip_on=False)
            top = floor
        xs = list(range(n))
        main = [s or 0 for s in data.scores]
        ax.bar([x - 0.18 for x in xs], main, width=0.36, color=BLUE, zorder=2, label=data.scores_label)
        fu = [s or 0 for s in data.follow_up_best]
        ax.bar([x + 0.18 for x in xs], fu, width=0.36, color=ORANGE, zorder=2, label=data.follow_up_label)
        marks = data.marks or [""] * n
        for x, s, mark in zip(xs, data.scores, marks, strict=True):
            if mark:  # skipped, not answered, not graded yet: said on the chart, not drawn as a bare 0
                ax.bar(x - 0.18, 100, width=0.36, color="none", edgecolor=GREY, hatch="//", linewidth=0.6, zorder=1)
                ax.text(x - 0.18, 50, mark, ha="center", va="center", rotation=90, fontsize=8, color=GREY, zorder=3)
            else:
                ax.text(x - 0.18, (s or 0) + 1.5, "-" if s is None else str(s), ha="center", fontsize=8, zorder=3)
        if data.previous is not None:
            ax.axhline(data.previous, color=RED, linestyle="--", linewidth=1, zorder=3, label=data.previous_label)
        ax.set_xticks(xs, data.questions)
        ax.set_xlim(-0.6, n - 0.4)
        ax.set_ylim(0, 100)
        ax.set_title(data.scores_label, loc="left", fontsize=10)
        ax.legend(loc="lower left", bbox_to_anchor=(0, 1.06), ncols=3, frameon=False, fontsize=8, borderaxespad=0)

    @staticmethod
    def _dimensions(ax, data: MockChartData) -> None:  # type: ignore[no-untyped-def]
        labels = [label for label, _ in data.dimensions][::-1]
        values = [v for _, v in data.dimensions][::-1]
        ax.barh(range(len(values)), values, color=BLUE, height=0.6)
        for y, v in enumerate(values):
            ax.text(v + 1.5, y, str(v), va="center", fontsize=8)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlim(0, 100)
        ax.set_title(data.dimensions_label, loc="left", fontsize=10)
