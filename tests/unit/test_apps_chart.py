"""The board PNG (bot/charts/apps_chart.py): a valid PNG with one coloured column heading per stage, drawn
left to right in stage order, Chinese labels without missing glyphs, and as tall as its longest column."""

from __future__ import annotations

import io
import warnings
from datetime import UTC, datetime, timedelta

from PIL import Image

from bot.charts import MatplotlibAppsChart
from bot.charts.apps_chart import HEADINGS
from bot.features.apps.chart_data import BoardColumn, BoardData
from bot.features.apps.view import board_data
from bot.features.career.models import Application, StageChange

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
HEADING_ROW = 88  # pixels from the top: the middle of the headings (0.875 in at 100 dpi)


def app(number: int, company: str, stage: str, round_: int = 0) -> Application:
    at = NOW - timedelta(days=number)
    return Application(id=number, user_id=1, company=company, role="大模型训练", stage=stage, round=round_,
                       number=number, history=[StageChange(stage=stage, round=round_, at=at)],  # type: ignore[arg-type]
                       created_at=at, updated_at=at)  # fmt: skip


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def heading_runs(png: bytes) -> list[tuple[int, int, int]]:
    """The heading colours met left to right along the heading row (a colour once until another one starts:
    the white heading text inside a heading does not split it)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    wanted = {hex_rgb(c) for c in HEADINGS}
    runs: list[tuple[int, int, int]] = []
    for x in range(image.width):
        pixel = image.getpixel((x, HEADING_ROW))
        colour = next((c for c in wanted if all(abs(a - b) <= 3 for a, b in zip(pixel, c, strict=True))), None)  # type: ignore[arg-type]
        if colour is not None and (not runs or runs[-1] != colour):
            runs.append(colour)
    return runs


def test_the_png_has_one_heading_per_stage_in_order() -> None:
    apps = [app(1, "字节跳动", "applied"), app(2, "Alibaba", "technical", 2), app(3, "百度", "rejected"),
            app(4, "Tencent", "hr"), app(5, "Kimi", "screen")]  # fmt: skip
    data = board_data("zh", apps, {}, NOW)
    assert [c.heading for c in data.columns] == [
        "已投递（1）",
        "简历筛选（1）",
        "技术面（1）",
        "HR 面（1）",
        "已结束（1）",
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = MatplotlibAppsChart().render_board(data)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [w for w in caught if "missing from" in str(w.message)]  # every CJK glyph found
    assert heading_runs(png) == [hex_rgb(c) for c in HEADINGS]
    image = Image.open(io.BytesIO(png))
    assert image.width == 1200 and len(image.convert("L").getcolors(maxcolors=65536) or []) > 20  # drawn, not blank


def test_a_longer_column_makes_a_taller_board() -> None:
    def board(cards: int) -> BoardData:
        column = BoardColumn("Applied", [[f"#{i} Company {i}", "role · 1 day"] for i in range(cards)])
        return BoardData("Board", [column, *(BoardColumn(h, []) for h in ("Screen", "Technical", "HR", "Closed"))])

    short, tall = (Image.open(io.BytesIO(MatplotlibAppsChart().render_board(board(n)))) for n in (1, 8))
    assert tall.height > short.height
    capped = Image.open(io.BytesIO(MatplotlibAppsChart().render_board(board(60))))
    assert capped.height == Image.open(io.BytesIO(MatplotlibAppsChart().render_board(board(10)))).height
