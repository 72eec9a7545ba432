"""The bank's derived data on disk, so a start reads it instead of computing it again.

Validating the bank's YAML, the offline grader's term weights and /review's matcher data take seconds to
compute and change only when the content files or the code that computes them change. Each is kept as one
file in the user's cache folder, named by a key that hashes the content files (their paths and bytes, and
the bank folder's own path: problems name it), the package version and the source of the modules that
compute it (followed through their `bot.` imports); an edit to either gives a new key, and the data is
rebuilt. A file that is missing, unreadable, corrupt or written for another key is ignored and rebuilt.

The folder: CACHE_DIR (the setting, or the environment variable), else `$XDG_CACHE_HOME/drill-bot`, else
`~/.cache/drill-bot`; never inside the package (such a folder is refused, and nothing is cached).

The format is JSON, a header line then the data: pydantic reads the bank's questions from JSON in 45 ms
(a pickle of the same plain data, validated again, takes 110 ms), and reading a file cannot run code, so a
cache folder that someone else could write to risks no more than wrong data (and files not owned by the
user, or writable by others, are not read at all). Writes are atomic: a temporary file in the same folder,
then a rename, so a reader sees the old file or the new one, never half of one. Each kind keeps its
`KEEP` most recently used files; older ones (another bank, an older version) are removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

log = logging.getLogger(__name__)

PACKAGE = Path(__file__).resolve().parents[1]  # bot/
APP_FOLDER = "drill-bot"
ENV = "CACHE_DIR"
KEEP = 16  # files of one kind: the banks and versions in use (tests load many small banks)
FORMAT = 1  # bump when the header or the layout changes
# libraries whose version can change what the derived data is (parsing, validation, segmentation, stemming)
LIBRARIES = ("pyyaml", "pydantic", "jieba", "snowballstemmer")

T = TypeVar("T")
_configured: Path | None = None
_warned: set[str] = set()


def configure(folder: Path | None) -> None:
    """Use `folder` (the CACHE_DIR setting) from now on; None: the environment's or the default."""
    global _configured
    _configured = folder


def folder() -> Path | None:
    """The cache folder, or None when the chosen one is inside the package (refused, with a warning)."""
    chosen = _configured or _from_env(ENV)
    if chosen is None:
        xdg = _from_env("XDG_CACHE_HOME")  # the XDG spec: a relative value is to be ignored
        base = xdg if xdg is not None and xdg.is_absolute() else Path.home() / ".cache"
        chosen = base / APP_FOLDER
    chosen = chosen.expanduser().resolve()
    if chosen == PACKAGE or PACKAGE in chosen.parents:
        _warn_once(
            "inside", "cache folder %s is inside the package %s: nothing is cached (set CACHE_DIR)", chosen, PACKAGE
        )
        return None
    return chosen


def _from_env(name: str) -> Path | None:
    value = os.environ.get(name, "").strip()
    return Path(value) if value else None


def _warn_once(topic: str, message: str, *args: object) -> None:
    if topic not in _warned:
        _warned.add(topic)
        log.warning(message, *args)


# --- keys ------------------------------------------------------------------------------------------


def bank_files(root: Path) -> list[Path]:
    """The YAML files under the bank folder that the loader reads or reports (hidden folders aside)."""
    found = [*root.rglob("*.yaml"), *root.rglob("*.yml")]
    return sorted(p for p in found if not any(part.startswith(".") for part in p.relative_to(root).parts))


def content_hash(root: Path) -> str:
    """The bank folder's path, and each YAML file's path in it and bytes."""
    h = hashlib.sha256(str(root.resolve()).encode())
    for path in bank_files(root):
        data = path.read_bytes()
        h.update(f"\0{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def version_of(distribution: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:  # a source tree never installed: the module hash still holds
        return "unknown"


@lru_cache(maxsize=16)
def code_version(*modules: str) -> str:
    """The package version, the versions of `LIBRARIES`, and a hash of the source of `modules` and of every
    `bot.` module they import (at any depth, also inside functions), with the packages' `__init__` files."""
    versions = [version_of(d) for d in ("llm-interview-drill-bot", *LIBRARIES)]
    h = hashlib.sha256("\0".join([str(FORMAT), *versions]).encode())
    for path in sorted(module_closure(modules)):
        h.update(f"\0{path.relative_to(PACKAGE).as_posix()}\0".encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def module_closure(modules: Iterable[str]) -> set[Path]:
    """The source files of `modules` and of the `bot.` modules they import, transitively."""
    seen: set[Path] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        path = module_file(name)
        if path is None or path in seen:
            continue
        seen.add(path)
        todo += _imported(path, name)
        todo += [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]  # parent packages
    return seen


def module_file(name: str) -> Path | None:
    parts = name.split(".")
    if parts[0] != "bot":
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


# `import bot.x`, `from bot.x import (a, b)`, `from .x import y`: a regular expression, not `ast` (a tenth of the
# time, which every start pays); a match inside a string or a comment only adds a file to the hash
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.+(?:\w[\w.]*)?|bot\b[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+(bot\.[\w.]+))",
    re.M,
)


def _imported(path: Path, name: str) -> list[str]:
    """The `bot.` modules a file imports (relative imports resolved; `from pkg import x` may name a module)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: list[str] = []
    for m in _IMPORT.finditer(path.read_text(encoding="utf-8")):
        if m[3]:
            out.append(m[3])
            continue
        module = m[1]
        if module.startswith("."):
            level = len(module) - len(module.lstrip("."))
            rest = module[level:]
            module = ".".join([*package[: len(package) - level + 1], *([rest] if rest else [])])
        names = m[2].strip("()").split("#")[0]
        out += [module, *(f"{module}.{n.split()[0]}" for n in names.replace("\n", ",").split(",") if n.strip())]
    return out


def key_of(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


# --- files -----------------------------------------------------------------------------------------


def _path(where: Path, kind: str, key: str) -> Path:
    return where / f"{kind}-{key[:40]}.cache"


def read(kind: str, key: str) -> bytes | None:
    """The data stored under (kind, key), or None: missing, unreadable, not ours, or another key's."""
    where = folder()
    if where is None:
        return None
    path = _path(where, kind, key)
    try:
        with path.open("rb") as f:
            if not _trusted(os.fstat(f.fileno())):
                _warn_once(
                    f"trust:{path}", "cache file %s is not the user's own, or others may write it: ignored", path
                )
                return None
            header = json.loads(f.readline())
            data = f.read()
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.info("cache file %s unreadable (%s): rebuilding it", path, exc)
        return None
    if not isinstance(header, dict) or header.get("key") != key or header.get("kind") != kind:
        log.info("cache file %s holds other data: rebuilding it", path)
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # most recently used: the last to be pruned
    return data


def _trusted(st: os.stat_result) -> bool:
    if not hasattr(os, "getuid"):  # Windows: the profile folder's permissions are the user's
        return True
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def write(kind: str, key: str, data: bytes) -> None:
    """Store `data` under (kind, key) atomically; a folder that cannot be written is logged once and skipped."""
    where = folder()
    if where is None:
        return
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        header = json.dumps({"kind": kind, "key": key, "format": FORMAT}).encode() + b"\n"
        fd, tmp = tempfile.mkstemp(dir=where, prefix=f".{kind}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(header)
                f.write(data)
            os.replace(tmp, _path(where, kind, key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        _warn_once(
            f"write:{where}", "cannot write the cache folder %s (%s): derived data is computed each start", where, exc
        )
        return
    _prune(where, kind)


def _prune(where: Path, kind: str) -> None:
    """Keep the `KEEP` most recently used files of `kind`."""
    try:
        files = [(p.stat().st_mtime, p) for p in where.glob(f"{kind}-*.cache")]
        for _, old in sorted(files, reverse=True)[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:  # another process pruned first
        pass


def cached(kind: str, key: str, build: Callable[[], T], dump: Callable[[T], bytes], load: Callable[[bytes], T]) -> T:
    """The value stored under (kind, key), else `build()` stored there. `load` raising ValueError, TypeError
    or KeyError (pydantic's ValidationError is a ValueError) marks the file corrupt: it is rebuilt."""
    data = read(kind, key)
    if data is not None:
        try:
            return load(data)
        except (ValueError, TypeError, KeyError) as exc:
            log.info("cache %s %s is corrupt (%s): rebuilding it", kind, key[:12], str(exc).splitlines()[0][:200])
    value = build()
    write(kind, key, dump(value))
    return value
