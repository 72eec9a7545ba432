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


LAYOUT_HEADING = "## How it is built"
ENTRY = re.compile(r"^( {0,8})([\w.-]+(?:/|\.py))(?:\s{2,}|$)")
"""A layout entry: a folder (`name/`) or module (`name.py`) at the start of a line indented 8 spaces at most (the
descriptions, and their continuation lines, start in a column further right)."""


def layout_entries(text: str) -> list[str]:
    """The paths the README's layout block names, each under the folder above it (by indentation)."""
    block = text.split(LAYOUT_HEADING, 1)[1].split("```", 2)[1]
    stack: list[tuple[int, str]] = []  # (indent, folder) of the folders open above the current line
    paths = []
    for line in block.splitlines():
        found = ENTRY.match(line)
        if found is None:
            continue
        indent, name = len(found.group(1)), found.group(2)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = "".join(folder for _, folder in stack) + name
        paths.append(path)
        if name.endswith("/"):
            stack.append((indent, name))
    return paths


def must_be_listed(root: Path) -> set[str]:
    """The parts a reader looks for: bot/'s modules and packages, each feature, the platforms' package and the
    test folders."""
    bot = root / "bot"
    wanted = {f"bot/{p.name}" for p in bot.glob("*.py") if p.name != "__init__.py"}
    wanted |= {f"bot/{p.name}/" for p in bot.iterdir() if (p / "__init__.py").exists() or p.name == "content"}
    wanted |= {f"bot/features/{p.name}/" for p in (bot / "features").iterdir() if (p / "__init__.py").exists()}
    wanted |= {f"tests/{p.name}/" for p in (root / "tests").iterdir() if p.is_dir() and any(p.rglob("test_*.py"))}
    return wanted


def layout_problems(text: str, root: Path) -> list[str]:
    listed = layout_entries(text)
    problems = [f"listed but not in the tree: {path}" for path in listed if not (root / path).exists()]
    problems += [f"in the tree but not listed: {path}" for path in sorted(must_be_listed(root) - set(listed))]
    return problems


def test_the_readme_layout_agrees_with_the_tree() -> None:
    assert layout_problems(README.read_text(encoding="utf-8"), README.parent) == []


def test_the_layout_check_finds_a_gone_path_and_a_missing_feature(tmp_path: Path) -> None:
    """Control: a listed module that is not there and a feature package the layout does not name are both found."""
    for folder in ("bot/kernel", "bot/features/drill", "bot/features/mock", "tests/unit"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "bot/kernel/service.py").write_text("")
    (tmp_path / "tests/unit/test_x.py").write_text("")
    layout = (
        f"{LAYOUT_HEADING}\n\n```\nbot/\n  kernel/           shared\n    service.py      dispatch\n"
        "    gone.py         a module since moved\n  features/         one per feature\n    drill/          /drill,"
        " mock/ named only in prose\ntests/\n  unit/             fast\n```\n"
    )
    assert layout_entries(layout) == [
        "bot/", "bot/kernel/", "bot/kernel/service.py", "bot/kernel/gone.py", "bot/features/", "bot/features/drill/",
        "tests/", "tests/unit/",
    ]  # fmt: skip
    assert layout_problems(layout, tmp_path) == [
        "listed but not in the tree: bot/kernel/gone.py",
        "in the tree but not listed: bot/features/mock/",
    ]
