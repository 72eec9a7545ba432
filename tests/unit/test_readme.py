"""README.md's tables render as one table each: no blank line splits one, and every row has the header's cells."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SEPARATOR = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$")
CELL_BAR = re.compile(r"(?<!\\)\|")  # `a \| b` inside a cell is not a cell boundary


def cells(line: str) -> int:
    return len(CELL_BAR.split(line.strip())) - 2  # the empty strings before the first and after the last bar


def table_problems(text: str) -> list[str]:
    lines = text.splitlines()
    problems, fenced, header = [], False, None
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        is_row = line.startswith("|")
        if is_row and n < len(lines) and SEPARATOR.match(lines[n]):
            header = cells(line)  # a header row: a table starts
        elif is_row and header is None:
            problems.append(f"line {n}: a table row outside any table (a blank line above it splits its table?)")
        elif is_row and header is not None and cells(line) != header and not SEPARATOR.match(line):
            problems.append(f"line {n}: {cells(line)} cells, the header has {header}")
        if not is_row:
            header = None
    return problems


def test_every_readme_table_is_one_table() -> None:
    assert table_problems(README.read_text(encoding="utf-8")) == []


def test_the_check_finds_a_split_table_and_a_short_row() -> None:
    """Control: the very mistakes it looks for are found."""
    split = "| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n"
    assert table_problems(split) == ["line 5: a table row outside any table (a blank line above it splits its table?)"]
    assert table_problems("| a | b |\n|---|---|\n| 1 |\n") == ["line 3: 1 cells, the header has 2"]
    assert table_problems("| a | b |\n|---|---|\n| `x \\| y` | 2 |\n\n```\n| not a table\n```\n") == []
