"""Load and validate the question bank from content/<topic>/<id>.yaml.

The YAML is parsed by libyaml's C loader (`yaml.CSafeLoader`, 0.4 s for the bank where PyYAML's pure-Python
loader takes 6 s). The validated bank is kept in the user's cache folder (bot/content/cache.py) keyed by
the files and the code, so a start with nothing changed reads it back in about 50 ms.
"""

from __future__ import annotations

import logging
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from bot.content import cache
from bot.content.schema import QuestionFile
from bot.kernel.models import Question
from bot.text.tokens import char_ngrams

log = logging.getLogger(__name__)

DEFAULT_CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"
NEAR_DUPLICATE = 0.85
NO_LIBYAML = (
    "PyYAML has no libyaml (yaml.CSafeLoader is missing): the question bank is parsed by the pure-Python "
    "loader, about 15 times slower (6 s instead of 0.4 s when the cache is cold). Install a PyYAML wheel "
    "built with libyaml: pip install --force-reinstall --only-binary=:all: pyyaml"
)


def safe_loader(module: ModuleType | Any = yaml) -> type[yaml.SafeLoader]:
    """libyaml's C loader, or PyYAML's pure-Python one with a warning (once) that says why it is slow."""
    fast = getattr(module, "CSafeLoader", None)
    if fast is not None:
        return fast  # type: ignore[no-any-return]
    if not _said_slow.is_set():
        _said_slow.set()
        log.warning(NO_LIBYAML)
    return module.SafeLoader  # type: ignore[no-any-return]


_said_slow = threading.Event()


def read_yaml(text: str) -> Any:
    """`yaml.safe_load`, by the fastest safe loader there is."""
    return yaml.load(text, Loader=safe_loader())  # a SafeLoader, C or Python


@dataclass
class LoadResult:
    questions: list[Question] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class _Stored(BaseModel):
    """A LoadResult as the cache keeps it."""

    questions: list[Question]
    problems: list[str]


def _problems_from(path: Path, err: ValidationError) -> list[str]:
    out = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "(file)"
        out.append(f"{path}: {loc}: {e['msg']}")
    return out


def load_file(path: Path) -> tuple[Question | None, list[str]]:
    try:
        raw = read_yaml(path.read_text(encoding="utf-8"))
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


def load_bank(root: Path = DEFAULT_CONTENT_DIR, *, use_cache: bool = True) -> LoadResult:
    """The bank's questions and problems. With `use_cache`, read from this process's memory or the cache
    folder when the files and the code are those it was built from, else built and stored there."""
    if not use_cache:
        return read_bank(root)
    key = cache.key_of(cache.content_hash(root), cache.code_version(__name__))
    with _memo_lock:
        hit = _memo.get(key)
    if hit is None:
        stored = cache.cached("bank", key, lambda: _Stored(**vars(read_bank(root))), _dump, _Stored.model_validate_json)
        hit = LoadResult(stored.questions, stored.problems)
        with _memo_lock:
            _memo[key] = hit
            while len(_memo) > MEMO_SIZE:
                _memo.pop(next(iter(_memo)))
    return LoadResult(list(hit.questions), list(hit.problems))  # the caller's own lists (questions are frozen)


MEMO_SIZE = 4
_memo: dict[str, LoadResult] = {}
_memo_lock = threading.Lock()


def forget_loaded() -> None:
    """Drop the banks this process holds, so the next `load_bank` reads the cache folder (tests, tools)."""
    with _memo_lock:
        _memo.clear()


def _dump(stored: _Stored) -> bytes:
    return stored.model_dump_json().encode()


class _Grams:
    """A prompt's n-gram counts with their norm worked out once: `text.tokens.cosine`, equal to the last bit,
    without computing both norms again for each of the bank's 10,000 pairs (2.5 s of a cold start before)."""

    __slots__ = ("counts", "norm")

    def __init__(self, counts: dict[str, float]) -> None:
        self.counts = counts
        self.norm = math.sqrt(sum(v * v for v in counts.values()))

    def cosine(self, other: _Grams) -> float:
        a, b = self.counts, other.counts
        if not a or not b:
            return 0.0
        dot = sum(a[k] * b[k] for k in a.keys() & b.keys())  # counts are whole numbers: exact in any order
        return dot / (self.norm * other.norm) if self.norm and other.norm else 0.0


def read_bank(root: Path = DEFAULT_CONTENT_DIR) -> LoadResult:
    """Parse and validate every file of the bank (no cache)."""
    result = LoadResult()
    seen: dict[str, Path] = {}
    for path in stray_files(root):
        result.problems.append(f"{path}: (file): not loaded: a question file goes in a <topic>/ folder of {root}")
    paths = [p for p in sorted(root.glob("*/*.yaml")) + sorted(root.glob("*/*.yml")) if not _hidden(p, root)]
    grams: list[tuple[Path, Question, _Grams, _Grams]] = []
    for path in paths:
        q, problems = load_file(path)
        result.problems.extend(problems)
        if q is None:
            continue
        if q.id in seen:
            result.problems.append(f"{path}: id: duplicate id '{q.id}' (also in {seen[q.id]})")
            continue
        seen[q.id] = path
        zh, en = _Grams(char_ngrams(q.prompt.zh, 2)), _Grams(char_ngrams(q.prompt.en.lower(), 3))
        for other_path, other, ozh, oen in grams:
            if en.cosine(oen) >= NEAR_DUPLICATE or zh.cosine(ozh) >= NEAR_DUPLICATE:
                result.problems.append(f"{path}: prompt: near-duplicate of '{other.id}' ({other_path.name})")
        grams.append((path, q, zh, en))
        result.questions.append(q)
    return result
