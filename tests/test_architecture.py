"""Rules that keep the architecture honest: the core imports no platform, database or LLM library."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "bot" / "core"
FORBIDDEN = {
    "telegram",
    "discord",
    "sqlalchemy",
    "aiosqlite",
    "asyncpg",
    "openai",
    "httpx",
    "aiohttp",
    "apscheduler",
    "faster_whisper",
    "alembic",
    "yaml",
    "matplotlib",
}
ALLOWED_INTERNAL = ("bot.core",)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_imports_no_platform_database_or_llm_library() -> None:
    offenders = {}
    for path in CORE.rglob("*.py"):
        bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN}
        outside = {m for m in imported_modules(path) if m.startswith("bot.") and not m.startswith(ALLOWED_INTERNAL)}
        if bad or outside:
            offenders[path.name] = sorted(bad | outside)
    assert offenders == {}


def test_the_rule_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import telegram\nfrom sqlalchemy.ext import asyncio\n")
    assert {m.split(".")[0] for m in imported_modules(sample)} & FORBIDDEN == {"telegram", "sqlalchemy"}
