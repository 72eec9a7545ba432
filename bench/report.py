"""Shared by every bench: the last line it prints, one JSON object with its figures, targets and verdict.

`verdict` is "ok" when every target was met, "missed" when one was not, or a word of the bench's own
("skipped: ..." when it could not run here). tests/integration/test_benches.py runs each bench's `--quick` mode and
reads this line (not whether the verdict is ok: quick sizes are not the real ones).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def verdict_of(ok: bool) -> str:
    return "ok" if ok else "missed"


def final_line(bench: str, figures: Mapping[str, Any], targets: Mapping[str, Any], verdict: str, **context: Any) -> str:
    """The bench's last line: its name, its context (sizes, whether quick), figures, targets and verdict."""
    return json.dumps(
        {"bench": bench, **context, "figures": dict(figures), "targets": dict(targets), "verdict": verdict},
        ensure_ascii=False,
    )
