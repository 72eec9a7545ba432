"""The deployment lock (requirements.lock) is current: made from today's pyproject.toml, and every
direct dependency is pinned there, with hashes, at a version pyproject.toml allows."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts.update_lock import HEADER, LOCK, ROOT, dependencies_digest

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)", re.MULTILINE)


def pins() -> dict[str, str]:
    return {canonicalize_name(name): version for name, version in PIN.findall(LOCK.read_text(encoding="utf-8"))}


def test_the_lock_was_made_from_todays_dependencies() -> None:
    first = LOCK.read_text(encoding="utf-8").splitlines()[0]
    assert first == HEADER + dependencies_digest(), "pyproject.toml changed: run scripts/update_lock.py"


def test_every_direct_dependency_is_pinned_with_hashes_within_its_range() -> None:
    locked = pins()
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    for line in dependencies:
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate({"sys_platform": "linux", "platform_machine": "x86_64"}):
            continue
        name = canonicalize_name(req.name)
        assert name in locked, f"{req.name} is not in requirements.lock"
        assert req.specifier.contains(locked[name], prereleases=True), f"{req.name}=={locked[name]} outside {req}"
    text = LOCK.read_text(encoding="utf-8")
    blocks = [block for block in re.split(r"\n(?=\S)", text) if PIN.match(block)]
    assert len(blocks) == len(locked) and all("--hash=sha256:" in block for block in blocks)


def test_the_digest_changes_with_any_dependency(tmp_path: Path) -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    changed = tmp_path / "pyproject.toml"
    changed.write_text(pyproject.replace('"fsrs>=6.1,<7"', '"fsrs>=6.2,<7"'), encoding="utf-8")
    assert dependencies_digest(changed) != dependencies_digest()
