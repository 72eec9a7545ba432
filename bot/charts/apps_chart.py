"""The application board (/apps) as a PNG with matplotlib (Agg, headless): one column per stage (applied,
screen, technical, HR, then the closed applications), each a coloured heading over a stack of cards. The
labels come translated in the data (bot/features/apps/chart_data.BoardData), so Chinese needs only the bundled CJK
font."""

from __future__ import annotations

import io
import threading

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

from bot.charts.fonts import font_families
from bot.features.apps.chart_data import BoardData

HEADINGS = ("#3b75af", "#5b8fc7", "#ef8636", "#8e6bb8", "#7f8c8d")
"""One heading colour per column, in column order (the closed column last)."""
CARD, CARD_EDGE, CLOSED_CARD = "#f4f6f8", "#c9d1d9", "#e9ecef"
CARDS_SHOWN = 10  # per column; the rest counted under the last one
LINE = 0.17  # inches per line of a card


class MatplotlibAppsChart:
    """The AppsChartRenderer port: a `width` pixel wide PNG, as tall as its longest column needs."""

    def __init__(self, width: int = 1200, dpi: int = 100) -> None:
        self.width, self.dpi = width, dpi
        self._lock = threading.Lock()  # matplotlib's rcParams are not thread-safe

    def render_board(self, data: BoardData) -> bytes:
        with self._lock, matplotlib.rc_context({"font.family": font_families(), "font.size": 9}):
            tallest = max((self._height(col.cards[:CARDS_SHOWN]) for col in data.columns), default=0.0)
            height = max(3.0, 1.1 + tallest + 0.4)
            fig = Figure(figsize=(self.width / self.dpi, height), dpi=self.dpi)
            ax = fig.add_axes((0, 0, 1, 1))
            ax.set_xlim(0, len(data.columns) or 1)
            ax.set_ylim(height, 0)  # inches from the top
            ax.axis("off")
            ax.text(0.1, 0.35, data.title, fontsize=13, va="center", ha="left")
            for i, col in enumerate(data.columns):
                self._column(ax, i, col.heading, col.cards, col.closed, HEADINGS[i % len(HEADINGS)])
            if data.footer:
                ax.text(0.1, height - 0.2, data.footer, fontsize=8, color="#555555", va="center")
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=self.dpi, facecolor="white", pil_kwargs={"compress_level": 1})
            return buf.getvalue()

    @staticmethod
    def _height(cards: list[list[str]]) -> float:
        return sum(len(lines) * LINE + 0.2 for lines in cards) + (0.3 if cards else 0.0)

    def _column(self, ax, x: int, heading: str, cards: list[list[str]], closed: bool, colour: str) -> None:  # type: ignore[no-untyped-def]
        left, width = x + 0.04, 0.92
        ax.add_patch(FancyBboxPatch((left, 0.7), width, 0.35, boxstyle="round,pad=0,rounding_size=0.04",
                                    facecolor=colour, edgecolor="none"))  # fmt: skip
        ax.text(left + 0.04, 0.875, heading, color="white", fontsize=10, va="center", ha="left")
        y = 1.15
        for lines in cards[:CARDS_SHOWN]:
            h = len(lines) * LINE + 0.1
            ax.add_patch(FancyBboxPatch((left, y), width, h, boxstyle="round,pad=0,rounding_size=0.03",
                                        facecolor=CLOSED_CARD if closed else CARD, edgecolor=CARD_EDGE))  # fmt: skip
            for j, line in enumerate(lines):
                ax.text(left + 0.04, y + 0.05 + (j + 0.5) * LINE, _fit(line), va="center", ha="left",
                        fontsize=9.5 if j == 0 else 8,
                        color="#222222" if j == 0 else "#555555")  # fmt: skip
            y += h + 0.1
        if len(cards) > CARDS_SHOWN:
            ax.text(left + 0.04, y + 0.1, f"+{len(cards) - CARDS_SHOWN}", fontsize=9, color="#555555", va="center")


def _fit(text: str, limit: int = 26) -> str:
    """A card line cut to the column's width (a CJK character counts as two)."""
    width, out = 0, []
    for ch in text:
        width += 2 if ord(ch) > 0x2E80 else 1
        if width > limit:
            return "".join(out).rstrip() + "…"
        out.append(ch)
    return text
