"""The answer notebook in the terminal (`python -m bot chat`) with no tokens: a graded answer saved by its
numbered button, the list, a version written by hand and graded offline, the side-by-side view, and the
Markdown export saved as a file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.bot_env import bot_env
from tests.sqlite_template import sqlite_url

FIRST = "First I check the data and the batch that produced the NaN, then the per-layer gradient norms."
SECOND = (
    "Most likely the optimizer state was not restored: Adam's m and v start from zero, so the first updates are "
    "far too large. The scheduler state and the data position matter too; I compare a resumed run step by step."
)


def test_the_notebook_in_the_terminal_with_no_tokens(tmp_path: Path) -> None:
    # the offline check's rating prompt: four ratings, then the follow-up, the next question and Save to notebook
    script = "\n".join(["/drill", FIRST, "7", "/notes", "1", "2", SECOND, "/notes 1", "/notes export"])
    env = bot_env(DATABASE_URL=sqlite_url(tmp_path), LOG_LEVEL="WARNING")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "chat"], input=script, capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "[7] Save to notebook" in out and "Score:" not in out
    assert 'Saved as version 1 of "After an interruption you resume from a checkpoint…' in out
    assert "Your answer notebook: 1 question, 1 version." in out and "[#1] Cancel" in out
    saved = out[out.index("> " + SECOND) :]
    assert "Saved as version 2" in saved and "Covered: Most likely the optimizer state" in saved
    side = out[out.index("> /notes 1") :]
    assert "v1 · " in side and "v2 · " in side and "from a drill" in side and "written by hand" in side
    [md] = (tmp_path / "data" / "exports").glob("notebook-*.md")
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# Answer notebook, ") and f"> {FIRST}" in text and text.count("\n### v") == 2
