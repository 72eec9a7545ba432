"""Rules that keep the architecture honest, checked on every import (absolute, relative and `from bot import x`).

- The kernel (bot/kernel) imports the standard library, pydantic and fsrs, itself and bot/text: no platform,
  database, HTTP or LLM library, no other part of bot.
- A feature (bot/features/<name>) imports the same libraries, the kernel, bot/text and other features.
- bot/text imports the standard library only.

The kernel still imports some features by name (its handler table, the session's variants, the message catalogue's
merge, voice and push routing): those arrows are listed below and may only disappear. The house issue's later steps
(the command registry, per-feature ports and catalogues) remove them; remove each from the list as it goes.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"
THIRD_PARTY = {"pydantic", "fsrs"}
ALLOWED_INTERNAL = {
    "kernel": ("bot.kernel", "bot.text"),
    "features": ("bot.kernel", "bot.text", "bot.features"),
    "text": ("bot.text",),
}
THIRD_PARTY_BY_PART = {"kernel": THIRD_PARTY, "features": THIRD_PARTY, "text": set()}
# (kernel module, feature module) arrows that predate the feature packages; the list only shrinks
KERNEL_TO_FEATURE = {
    ("i18n", "bot.features.apps.messages"),
    ("i18n", "bot.features.career.messages"),
    ("i18n", "bot.features.debrief.messages"),
    ("i18n", "bot.features.jd.messages"),
    ("i18n", "bot.features.mock.messages"),
    ("i18n", "bot.features.notebook.messages"),
    ("i18n", "bot.features.review.messages"),
    ("ports", "bot.features.apps.board"),
    ("ports", "bot.features.mock.chart_data"),
    ("ports", "bot.features.stats.progress"),
    ("push_rules", "bot.features.apps.data"),
    ("push_rules", "bot.features.drill.drill"),
    ("push_rules", "bot.features.stats.report"),
    ("service", "bot.features.account.account"),
    ("service", "bot.features.career.router"),
    ("service", "bot.features.drill.drill"),
    ("service", "bot.features.drill.regrade"),
    ("service", "bot.features.mock.mock"),
    ("service", "bot.features.onboarding.onboarding"),
    ("service", "bot.features.review.company_merge"),
    ("service", "bot.features.review.flows"),
    ("service", "bot.features.review.interviews"),
    ("service", "bot.features.study_server.study_server"),
    ("store_ports", "bot.features.career.models"),
    ("store_ports", "bot.features.mock.models"),
    ("voice", "bot.features.career.router"),
    ("voice", "bot.features.drill.drill"),
    ("voice", "bot.features.drill.speaking"),
    ("voice", "bot.features.mock.turn"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved; `from pkg import name` names pkg.name too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.add(module)
            if module.startswith("bot"):
                names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


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
            if part == "kernel":
                bad = {n for n in bad if not n.startswith("bot.features.")}
            if bad:
                offenders[str(path.relative_to(BOT))] = sorted(bad)
    assert offenders == {}


def test_the_kernel_imports_no_feature_beyond_the_shrinking_list() -> None:
    arrows = set()
    for path in (BOT / "kernel").glob("*.py"):
        arrows |= kernel_feature_arrows(path)
    assert arrows - KERNEL_TO_FEATURE == set(), "a new import from the kernel into a feature"
    assert KERNEL_TO_FEATURE - arrows == set(), "an arrow is gone: take it off KERNEL_TO_FEATURE"


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
