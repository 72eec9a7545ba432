"""`python -m bot grade`: columns kept in order, scores added, malformed input refused with exit 2."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def grade(tmp_path: Path, content: bytes) -> tuple[subprocess.CompletedProcess[str], Path]:
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_bytes(content)
    cmd = [sys.executable, "-m", "bot", "grade", "--input", str(src), "--output", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120), out


def test_grades_and_keeps_other_columns(tmp_path: Path) -> None:
    rows = [
        ["id", "question", "reference_answer", "answer", "label"],
        ["a1", "Why does a battery go flat?", "The chemical energy in the battery is used up.",
         "Its chemical energy is used up over time.", "correct"],
        ["a2", "Why does a battery go flat?", "The chemical energy in the battery is used up.",
         "Because it is blue.", "incorrect"],
    ]  # fmt: skip
    with (tmp_path / "src.csv").open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    result, out = grade(tmp_path, (tmp_path / "src.csv").read_bytes())
    assert result.returncode == 0, result.stderr
    with out.open(encoding="utf-8") as fh:
        graded = list(csv.DictReader(fh))
    assert list(graded[0].keys())[:5] == rows[0]
    assert [r["id"] for r in graded] == ["a1", "a2"] and graded[1]["label"] == "incorrect"
    assert {"score", "coverage", "structure", "specificity", "evidence", "correctness", "grader"} <= set(graded[0])
    assert int(graded[0]["score"]) > int(graded[1]["score"])
    assert graded[0]["grader"] == "offline"


def test_missing_column_empty_file_and_bad_encoding_exit_2(tmp_path: Path) -> None:
    result, _ = grade(tmp_path, b"question,answer\nq,a\n")
    assert result.returncode == 2 and "missing column(s): reference_answer" in result.stderr
    result, _ = grade(tmp_path, b"")
    assert result.returncode == 2 and "empty" in result.stderr
    result, _ = grade(tmp_path, "question,reference_answer,answer\nq,r,\xe9t\xe9\n".encode("latin-1"))
    assert result.returncode == 2 and "not UTF-8" in result.stderr
    result, _ = grade(tmp_path, b"question,reference_answer,answer\nq,r,a,extra\n")
    assert result.returncode == 2 and "more fields" in result.stderr
