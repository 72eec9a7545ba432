"""Load and validate the question bank from content/<topic>/<id>.yaml."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import ValidationError

from bot.content.schema import QuestionFile
from bot.kernel.models import Question
from bot.text.tokens import char_ngrams, cosine

DEFAULT_CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"
NEAR_DUPLICATE = 0.85


@dataclass
class LoadResult:
    questions: list[Question] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _problems_from(path: Path, err: ValidationError) -> list[str]:
    out = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "(file)"
        out.append(f"{path}: {loc}: {e['msg']}")
    return out


def load_file(path: Path) -> tuple[Question | None, list[str]]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        return None, [f"{path}: (file): not valid YAML: {str(exc).splitlines()[0]}"]
    if not isinstance(raw, dict):
        return None, [f"{path}: (file): expected a mapping at the top level"]
    try:
        qf = QuestionFile.model_validate(raw)
    except ValidationError as err:
        return None, _problems_from(path, err)
    problems = []
    if path.stem != qf.id:
        problems.append(f"{path}: id: '{qf.id}' does not match the file name")
    if path.parent.name != qf.topic:
        problems.append(f"{path}: topic: '{qf.topic}' does not match the folder '{path.parent.name}'")
    return qf.to_question(), problems


class BankMissing(Exception):
    """The bank folder does not exist, or holds no question file: a bot with no questions is no bot."""


def check_present(root: Path) -> None:
    """Raise BankMissing, naming the folder, when it is not a folder or has no `<topic>/<id>.yaml` file."""
    if not root.is_dir():
        raise BankMissing(f"question bank: {root}: no such folder (set CONTENT_DIR, or --path, to the bank)")
    if not any(root.glob("*/*.yaml")) and not any(root.glob("*/*.yml")):
        raise BankMissing(f"question bank: {root}: no question files (expected <topic>/<id>.yaml)")


def stray_files(root: Path) -> list[Path]:
    """YAML files the loader does not read: at the top of the bank, or deeper than `<topic>/` (hidden folders aside)."""
    found = [*root.rglob("*.yaml"), *root.rglob("*.yml")]
    return sorted(p for p in found if len(p.relative_to(root).parts) != 2 and not _hidden(p, root))


def _hidden(path: Path, root: Path) -> bool:
    """Inside a hidden folder of the bank (.git, an editor's): not part of it."""
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def load_bank(root: Path = DEFAULT_CONTENT_DIR) -> LoadResult:
    result = LoadResult()
    seen: dict[str, Path] = {}
    for path in stray_files(root):
        result.problems.append(f"{path}: (file): not loaded: a question file goes in a <topic>/ folder of {root}")
    paths = [p for p in sorted(root.glob("*/*.yaml")) + sorted(root.glob("*/*.yml")) if not _hidden(p, root)]
    grams: list[tuple[Path, Question, dict[str, float], dict[str, float]]] = []
    for path in paths:
        q, problems = load_file(path)
        result.problems.extend(problems)
        if q is None:
            continue
        if q.id in seen:
            result.problems.append(f"{path}: id: duplicate id '{q.id}' (also in {seen[q.id]})")
            continue
        seen[q.id] = path
        zh, en = char_ngrams(q.prompt.zh, 2), char_ngrams(q.prompt.en.lower(), 3)
        for other_path, other, ozh, oen in grams:
            if cosine(en, oen) >= NEAR_DUPLICATE or cosine(zh, ozh) >= NEAR_DUPLICATE:
                result.problems.append(f"{path}: prompt: near-duplicate of '{other.id}' ({other_path.name})")
        grams.append((path, q, zh, en))
        result.questions.append(q)
    return result
