"""Shared by the benches that compare the bot with a library's floor in alternating rounds."""

from __future__ import annotations

import statistics
from typing import Any


def medians(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the rounds: a flag holds only if it held in every round; a figure that is not a
    number (a count by method, a label) or is missing in a round is the first round's."""
    out: dict[str, Any] = {}
    for key, first in rounds[0].items():
        values = [r.get(key) for r in rounds]
        if isinstance(first, bool):
            out[key] = all(values)
        elif all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            out[key] = statistics.median(values)
        else:
            out[key] = first
    return out
