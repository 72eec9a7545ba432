"""A new user runs a mock interview end to end in the terminal (`python -m bot chat`) with no tokens: the
real bank, the offline grader, an SQLite file; the debrief at the end and the round in /mock history."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.bot_env import bot_env
from tests.sqlite_template import sqlite_url

ANSWERS = [
    "First I check the data and the batch that produced the NaN, then the per-layer gradient norms.",
    "I would clip the global norm at 1.0 and warm up over the first 2000 steps.",
    "Save the optimizer state, the scheduler and the data loader position, then compare the loss after resuming.",
    "At my last job our team lost a node; I was responsible for the recovery. First I checked the checkpoints, "
    "then I resumed and compared the loss: as a result we lost only 40 minutes.",
    "I would monitor loss spikes and gradient norm percentiles.",
    "I would compare against a baseline run.",
    "I would roll back to the last good checkpoint.",
    "I am not sure.",
    "Another answer.",
]


def test_a_mock_interview_in_the_terminal_with_no_tokens(tmp_path: Path) -> None:
    script = "\n".join(["/mock", "/mock stability 3", *ANSWERS, "/mock history"])
    env = bot_env(DATABASE_URL=sqlite_url(tmp_path), LOG_LEVEL="WARNING")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "chat"], input=script, capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Suggested mock interview" in out and "[1] Start" in out
    assert "Question 1 of 3" in out and "Question 3 of 3" in out and "Follow-up · about 2 min" in out
    debrief = out[out.index("Debrief · training stability") :]
    assert "Overall:" in debrief and "By dimension: coverage" in debrief and "Missed:" in debrief
    assert "Top gaps, and what to drill next:" in debrief and "Reference in one sentence:" in debrief
    assert "Score:" not in out[: out.index("Debrief")]  # no grade before the debrief
    assert "training stability · 3/3 answered ·" in debrief  # /mock history after it
    [chart] = (tmp_path / "data" / "exports").glob("mock-*.png")  # the debrief's chart, saved by the terminal
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"(saved {Path('data') / 'exports' / chart.name})" in out
