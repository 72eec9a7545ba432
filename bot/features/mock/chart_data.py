"""What the mock interview's debrief chart shows, labelled in the user's language by the core, so the
renderer (bot/charts/mock_chart.py) only draws."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MockChartData:
    title: str  # e.g. "Debrief · training stability · 72/100 · hire"
    questions: list[str]  # "Q1" ... per asked question
    scores: list[int | None]  # main answer per question (None: not graded, skipped or not answered)
    follow_up_best: list[int | None]  # best follow-up answer per question (None: none)
    bands: list[tuple[int, str]]  # verdict bands: (floor, label), highest first
    dimensions: list[tuple[str, int]]  # (label, mean score)
    scores_label: str
    follow_up_label: str
    dimensions_label: str
    previous: int | None = None  # the previous mock's score, drawn as a line
    previous_label: str = ""
    marks: list[str] = field(default_factory=list)  # per question: "" when graded, else drawn ("skipped", ...)
