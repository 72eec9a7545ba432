"""Lint (ruff) the whole package and type-check the core (mypy --strict) as part of the test run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", "bot", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_core_is_clean() -> None:
    result = run("mypy", "bot/kernel", "bot/features", "bot/text", "bot/grading", "bot/content")
    assert result.returncode == 0, result.stdout + result.stderr
