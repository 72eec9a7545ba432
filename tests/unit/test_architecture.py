"""Rules that keep the architecture honest, checked on every import (absolute, relative and `from bot import x`).

- The kernel (bot/kernel) imports the standard library, pydantic, fsrs and babel (its message engine reads the
  gettext catalogues), itself and bot/text: no platform, database, HTTP or LLM library, no other part of bot.
- A feature (bot/features/<name>) imports the standard library, pydantic and fsrs, the kernel, bot/text and other
  features.
- bot/text imports the standard library only.

The whole map (every part, the arrows it may draw, the libraries it may use) is architecture.toml; the debts it lists
may only disappear. No two parts import each other but through a debt, and no two modules import each other at all
(lazy imports inside functions included: a cycle is a cycle even when Python tolerates it).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

BOT = Path(__file__).resolve().parents[2] / "bot"
THIRD_PARTY = {"pydantic", "fsrs"}
ALLOWED_INTERNAL = {
    "kernel": ("bot.kernel", "bot.text"),
    "features": ("bot.kernel", "bot.text", "bot.features"),
    "text": ("bot.text",),
}
THIRD_PARTY_BY_PART = {"kernel": THIRD_PARTY | {"babel"}, "features": THIRD_PARTY, "text": set()}


def module_name(path: Path) -> str:
    return module_name_under(path, BOT)


def imported_modules(path: Path) -> set[str]:
    """Every module a file of bot/ imports, relative imports resolved; `from pkg import name` names pkg.name too."""
    return imported_modules_under(path, BOT)


def violations(path: Path, part: str) -> set[str]:
    bad = set()
    for name in imported_modules(path):
        top = name.split(".")[0]
        if top == "__future__" or top in sys.stdlib_module_names:
            continue
        if top == "bot":
            if name == "bot" or not name.startswith(ALLOWED_INTERNAL[part]):
                # `from bot.features.x import y` also names bot.features.x.y: judge the module, not the attribute
                bad.add(name)
            continue
        if top not in THIRD_PARTY_BY_PART[part]:
            bad.add(name)
    return bad


def kernel_feature_arrows(path: Path) -> set[tuple[str, str]]:
    return {
        (path.stem, ".".join(name.split(".")[:4]))
        for name in imported_modules(path)
        if name.startswith("bot.features.") and name.count(".") >= 3
    }


def test_each_part_imports_only_what_it_may() -> None:
    offenders = {}
    for part in ("kernel", "features", "text"):
        for path in (BOT / part).rglob("*.py"):
            bad = violations(path, part)
            if bad:
                offenders[str(path.relative_to(BOT))] = sorted(bad)
    assert offenders == {}


def test_the_kernel_imports_no_feature() -> None:
    arrows = set()
    for path in (BOT / "kernel").glob("*.py"):
        arrows |= kernel_feature_arrows(path)
    assert arrows == set(), "an import from the kernel into a feature: the feature's port belongs in its package"


def test_no_bot_core_left() -> None:
    assert not (BOT / "core").exists()


def test_the_rule_catches_what_it_should(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The control case: each of these in a kernel module is a violation."""
    fake_bot = tmp_path / "bot"
    kernel = fake_bot / "kernel"
    kernel.mkdir(parents=True)
    (fake_bot / "__init__.py").write_text("")
    (kernel / "__init__.py").write_text("")
    sample = kernel / "x.py"
    sample.write_text(
        "import telegram\n"
        "from sqlalchemy.ext import asyncio\n"
        "from bot import config\n"
        "from .. import storage\n"
        "import numpy\n"
        "from bot.features.mock import plan\n"
        "from . import models\n"
        "import json\n"
        "from pydantic import BaseModel\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "BOT", fake_bot)
    found = violations(sample, "kernel")
    assert {"telegram", "sqlalchemy.ext", "bot.config", "bot.storage", "numpy"} <= found
    assert "bot.kernel.models" not in found and "json" not in found and "pydantic" not in found
    assert kernel_feature_arrows(sample) == {("x", "bot.features.mock.plan")}
    assert violations(sample, "features") >= {"telegram", "bot.config", "bot.storage", "numpy"}
    assert "bot.features.mock.plan" not in violations(sample, "features")


# --- every part, from the checked-in description (architecture.toml) ----------------------------------------------

DESCRIPTION = BOT.parent / "architecture.toml"


def description() -> dict[str, Any]:
    return tomllib.loads(DESCRIPTION.read_text(encoding="utf-8"))


def part_of(module: str, parts: Collection[str]) -> str | None:
    """The part a module of bot belongs to: the longest described prefix (`bot.platforms.telegram.x` is
    platforms.telegram, `bot.features.mock.plan` is features, `bot.bootstrap` is bootstrap)."""
    names = module.split(".")[1:]
    if not names:
        return "bot" if "bot" in parts else None
    for n in range(len(names), 0, -1):
        candidate = ".".join(names[:n])
        if candidate in parts:
            return candidate
    return None


Arrows = dict[tuple[str, str], str]
"""(source part, target part) -> one file that makes the arrow."""
Imported = dict[tuple[str, str], dict[str, str]]
"""(source part, target part) -> each module of the target the source imports -> one file that imports it."""


def arrows_and_libraries(root: Path, parts: Collection[str]) -> tuple[Arrows, dict[str, set[str]], Imported]:
    """Every arrow between parts (with one module that makes it), every third-party package each part imports, and
    the modules each arrow imports."""
    arrows: Arrows = {}
    libraries: dict[str, set[str]] = {}
    imported: Imported = {}
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue  # Alembic's revision files import alembic and sqlalchemy only (storage's)
        source = part_of(module_name_under(path, root), parts)
        assert source is not None, f"{path} belongs to no part of {DESCRIPTION.name}"
        for name in imported_modules_under(path, root):
            top = name.split(".")[0]
            if top == "bot":
                if name == "bot":
                    continue  # `from bot import x`: the package; x is judged as bot.x
                target = part_of(name, parts)
                if target is not None and target != source:
                    arrows.setdefault((source, target), str(path.relative_to(root.parent)))
                    imported.setdefault((source, target), {}).setdefault(name, str(path.relative_to(root.parent)))
            elif top != "__future__" and top not in sys.stdlib_module_names:
                libraries.setdefault(source, set()).add(top)
    return arrows, libraries, imported


def within(module: str, pattern: str) -> bool:
    """`bot.features.mock.models` (or a name in it, `bot.features.mock.models.MockSession`) is within the pattern
    `features.*.models`: its first names are the pattern's, `*` standing for any one name."""
    names, wanted = module.split(".")[1:], pattern.split(".")
    return len(names) >= len(wanted) and all(w in ("*", n) for w, n in zip(wanted, names, strict=False))


def module_name_under(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules_under(path: Path, root: Path) -> set[str]:
    """Every module a file under `root` imports, relative imports resolved; `from pkg import name` names pkg.name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name_under(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base) if node.level else node.module or ""
            names.add(module)
            if module == "bot" or module.startswith("bot."):
                names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def problems(described: dict[str, Any], root: Path) -> list[str]:
    parts = described["parts"]
    debts = {tuple(x.strip() for x in a.split("->")) for a in described["debts"]["arrows"]}
    arrows, libraries, imported = arrows_and_libraries(root, parts)
    found = []
    for (source, target), where in sorted(arrows.items()):
        never = any(target == n or target.startswith(n + ".") for n in parts[source].get("never", []))
        if never:
            found.append(f"{source} -> {target} is never allowed ({where})")
        elif target not in parts[source]["may"] and (source, target) not in debts:
            found.append(f"{source} -> {target} is not described ({where})")
    for (source, target), modules in sorted(imported.items()):
        patterns = parts[source].get("only", {}).get(target)
        if patterns is None:
            continue  # any module of a part it may import
        for module, where in sorted(modules.items()):
            if not any(within(module, p) for p in patterns):
                found.append(f"{source} -> {module}: of {target}, only {' or '.join(patterns)} ({where})")
    for source, target in sorted(debts - set(arrows)):
        found.append(f"the debt {source} -> {target} is paid: take it off the list")
    for source, used in sorted(libraries.items()):
        for lib in sorted(used - set(parts[source]["libraries"])):
            found.append(f"{source} imports {lib}, not on its list")
    # no cycle between parts but through a debt
    graph: dict[str, set[str]] = {}
    for source, target in arrows:
        if (source, target) not in debts:
            graph.setdefault(source, set()).add(target)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(t == goal or (t not in seen and reaches(t, goal, seen | {t})) for t in graph.get(start, ()))

    found += [f"a cycle through {p}" for p in sorted(graph) if reaches(p, p, {p})]
    return found


def test_every_import_of_every_part_is_described() -> None:
    assert problems(description(), BOT) == []


def test_the_description_catches_what_it_should(tmp_path: Path) -> None:
    """Control: a made-up bot/ with one of each violation."""
    root = tmp_path / "bot"
    for folder, text in {
        "kernel/x.py": "from bot import config\nfrom ..storage import tables\nimport numpy\n",
        "storage/tables.py": "import sqlalchemy\n",
        "grading/a.py": "from bot.kernel import x\n",
        "config.py": "from bot.grading import a\n",
        "text/t.py": "from bot.config import y\n",
        # of features, storage may import only a feature's models and charts only its chart data
        "storage/mocks.py": "from bot.features.mock.models import MockSession\nfrom bot.features.mock.mock import start\n",
        "charts/c.py": "from bot.features.stats.chart_data import ProgressData\nfrom bot.features.stats import progress\n",
        "features/mock/models.py": "from bot.kernel import x\n",
    }.items():
        path = root / folder
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in [path.parent, *path.parent.parents]:
            if parent == tmp_path:
                break
            (parent / "__init__.py").touch()
        path.write_text(text)
    described = {
        "parts": {
            "kernel": {"may": ["text"], "libraries": [], "never": ["storage"]},
            "storage": {
                "may": ["kernel", "features"],
                "libraries": ["sqlalchemy"],
                "only": {"features": ["features.*.models"]},
            },
            "charts": {"may": ["kernel", "features"], "libraries": [], "only": {"features": ["features.*.chart_data"]}},
            "features": {"may": ["kernel"], "libraries": []},
            "grading": {"may": ["kernel"], "libraries": []},
            "config": {"may": ["kernel"], "libraries": []},
            "text": {"may": [], "libraries": []},
            "bot": {"may": [], "libraries": []},
        },
        "debts": {"arrows": ["config -> grading", "grading -> storage"]},
    }
    found = problems(described, root)
    assert "kernel -> config is not described (bot/kernel/x.py)" in found
    assert "kernel -> storage is never allowed (bot/kernel/x.py)" in found
    assert "kernel imports numpy, not on its list" in found
    assert "text -> config is not described (bot/text/t.py)" in found
    assert "the debt grading -> storage is paid: take it off the list" in found
    assert "storage imports sqlalchemy, not on its list" not in found
    assert not any("config -> grading" in f for f in found)  # a debt, still owed
    # a feature's handler module from storage, the feature's package or its rules from charts: not their kind
    assert "storage -> bot.features.mock.mock: of features, only features.*.models (bot/storage/mocks.py)" in found
    assert (
        "storage -> bot.features.mock.mock.start: of features, only features.*.models (bot/storage/mocks.py)" in found
    )
    assert "charts -> bot.features.stats: of features, only features.*.chart_data (bot/charts/c.py)" in found
    assert "charts -> bot.features.stats.progress: of features, only features.*.chart_data (bot/charts/c.py)" in found
    assert not any(" -> bot.features.mock.models" in f or " -> bot.features.stats.chart_data" in f for f in found)
    assert within("bot.features.mock.models.MockSession", "features.*.models")
    assert not within("bot.features.mock", "features.*.models")
    assert not within("bot.features.mock.modelsx", "features.*.models")


def module_cycles(root: Path) -> list[list[str]]:
    """The groups of modules under `root` that import each other (strongly connected, more than one module), every
    import counted: top-level, inside functions, under TYPE_CHECKING."""
    modules = {module_name_under(path, root): path for path in root.rglob("*.py")}
    graph = {
        name: sorted(m for m in imported_modules_under(path, root) if m in modules and m != name)
        for name, path in modules.items()
    }
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in graph[v]:
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(graph):
        if name not in order:
            visit(name)
    return found


def test_no_two_modules_import_each_other() -> None:
    assert module_cycles(BOT) == []


def test_the_cycle_check_finds_a_lazy_cycle_of_three(tmp_path: Path) -> None:
    """Control: a -> b -> c -> a, the last arrow a lazy import inside a function, is found; d importing a is not
    part of it."""
    root = tmp_path / "bot"
    (root / "pkg").mkdir(parents=True)
    for name, text in {
        "__init__.py": "",
        "pkg/__init__.py": "",
        "pkg/a.py": "from bot.pkg import b\n",
        "pkg/b.py": "from . import c\n",
        "pkg/c.py": "def f():\n    from bot.pkg.a import thing\n",
        "d.py": "from bot.pkg import a\n",
    }.items():
        (root / name).write_text(text)
    assert module_cycles(root) == [["bot.pkg.a", "bot.pkg.b", "bot.pkg.c"]]
