"""Every bench runs, so none can rot unseen (issue 37): each script in bench/ (a file with a `__main__` guard;
modules without one are helpers the scripts share) runs in its `--quick` mode in a subprocess, and its last
line must be one JSON object with its name, its figures, its targets and a verdict. Whether the verdict is ok
is not checked: quick sizes are not the real ones. Where a bench needs what this machine may not have, it is
skipped and says why: bench/replicas.py a PostgreSQL database (TEST_POSTGRES_URL, as .ci/run sets it), where
it must also report no order violation, duplicate grade or lost answer; bench/llm_real.py the llm-real extra."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot_env import bot_env

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
TIMEOUT_S = 900  # bench/llm_real.py grades on a 1.5B model on the CPU


def is_script(path: Path) -> bool:
    return 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")


def scripts() -> list[Path]:
    return sorted(p for p in BENCH.glob("*.py") if is_script(p))


def missing_for(script: Path) -> str | None:
    """Why this bench cannot run here, or None."""
    if script.stem == "replicas" and not os.environ.get("TEST_POSTGRES_URL", "").startswith("postgresql"):
        return "bench/replicas.py needs PostgreSQL: set TEST_POSTGRES_URL (as .ci/run does)"
    if script.stem == "llm_real":
        from bot.grading.local_server import LocalModelMissing, model_parts, server_binary

        try:
            server_binary()
            model_parts()
        except LocalModelMissing as err:
            return f"bench/llm_real.py needs the llm-real extra: {err}"
    return None


def test_the_scripts_are_found_and_the_helpers_left_out() -> None:
    names = {p.stem for p in scripts()}
    assert {"rounds", "store_floor", "report"}.isdisjoint(names)  # shared modules, not benches
    assert {"card_queue", "stats", "startup", "replicas", "llm_real", "telegram_load", "transcribe"} <= names
    assert len(names) >= 16


@pytest.mark.parametrize("script", scripts(), ids=lambda p: p.stem)
def test_each_bench_runs_quick_and_ends_with_figures_targets_and_a_verdict(script: Path, tmp_path: Path) -> None:
    reason = missing_for(script)
    if reason is not None:
        pytest.skip(reason)
    args = [sys.executable, str(script), "--quick"]
    if script.stem == "replicas":
        args += ["--database-url", os.environ["TEST_POSTGRES_URL"]]
    done = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, env=bot_env(), timeout=TIMEOUT_S)
    lines = done.stdout.strip().splitlines()
    assert lines, f"{script.name} printed nothing; stderr:\n{done.stderr[-3000:]}"
    assert done.returncode in (0, 1), done.stderr[-3000:]  # 1: a bench whose verdict is not ok, no crash
    last = json.loads(lines[-1])
    assert isinstance(last, dict) and {"bench", "figures", "targets", "verdict"} <= last.keys(), lines[-1]
    assert isinstance(last["figures"], dict) and last["figures"] and last["targets"]
    assert isinstance(last["verdict"], str) and last["verdict"] and last.get("quick") is True
    if script.stem == "replicas":
        figures = last["figures"]
        assert (figures["order_violations"], figures["duplicate_grades"], figures["lost_answers"]) == (0, 0, 0)
