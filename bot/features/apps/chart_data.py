"""What the application board's PNG (/apps) draws, already translated by the feature (bot/features/apps/view.py),
so the renderer (bot/charts/apps_chart.py) only draws: the one module of the feature the chart imports."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoardColumn:
    """One column of the PNG board: its translated heading and its cards' lines (number, company, role...)."""

    heading: str
    cards: list[list[str]]
    closed: bool = False


@dataclass(frozen=True)
class BoardData:
    """What the board PNG draws, already translated (the renderer knows no language)."""

    title: str
    columns: list[BoardColumn]
    footer: str = ""
