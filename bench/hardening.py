"""Benchmark: the hardening probes of issue #34 (tests/data/hardening_probes.yaml) through the real bot.

Each probe is a text (or a file) a user could send, built to make a pattern backtrack or a document inflate; it goes
through the real app (bot/bootstrap.py's build_app: SQLite file, Alembic schema, the shipped bank, the real offline
grader in its thread, an LLM grader whose endpoint refuses the connection so its prompt is built and the offline
grade follows) along the path the probe names: a /drill answer, /jd text, /debrief notes, a word typed at
/debrief's list, a file sent to /jd. While it runs a ticker records how late the event loop wakes (a stall), and
the call's own time is measured.

The probes run in a child process, one after the other; a probe still running after `--cap` seconds is a freeze:
the child is killed, the probe reported as ">= cap", and a new child takes the remaining probes (a pattern that
backtracks cannot be interrupted inside its process). The figures: the worst loop stall and call time over all
probes, how many stalled the loop over 100 ms, and each probe's own.

    .venv/bin/python bench/hardening.py [--cap 60] [--only ID ...] [--quick]

`--quick`: each probe at its small size (`quick_times`), a 10 s cap (seconds; not the real figures).
Target: no stall over 100 ms from any probe. Not a test: figures depend on the machine. The last line is one JSON
object (bench/report.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# import the project from the repository root, not from bench/
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

PROBES = ROOT / "tests" / "data" / "hardening_probes.yaml"
STALL_MS = 100.0
REFUSED = "http://127.0.0.1:9/v1"  # the discard port: nothing listens, the connection is refused at once


def load_probes() -> list[dict[str, Any]]:
    import yaml

    probes: list[dict[str, Any]] = yaml.safe_load(PROBES.read_text(encoding="utf-8"))["probes"]
    return probes


def probe_text(spec: dict[str, Any], quick: bool) -> str:
    times = spec.get("quick_times", spec["times"]) if quick else spec["times"]
    return str(spec.get("prefix", "")) + str(spec["repeat"]) * int(times) + str(spec.get("suffix", ""))


def probe_file(spec: dict[str, Any], quick: bool) -> tuple[bytes, str]:
    if spec["kind"] == "shared_stream_pdf":
        from tests.pdf_builder import shared_stream_pdf

        operators = spec.get("quick_operators", spec["operators"]) if quick else spec["operators"]
        return shared_stream_pdf(int(spec["pages"]), int(operators)), "jd.pdf"
    size = spec.get("quick_bytes", spec["bytes"]) if quick else spec["bytes"]
    return b"LLM engineer" + b" \n" * (int(size) // 2) + b"PyTorch", "jd.txt"


# ---------------------------------------------------------------------------------------------------------------
# The child: one app (offline) and one app (an LLM set), the probes in turn


async def _apps(tmp: str) -> tuple[Any, Any]:
    from pydantic import SecretStr

    from bot.bootstrap import build_app
    from bot.config import LLMSettings, Settings

    plain = Settings(database_url=f"sqlite+aiosqlite:///{tmp}/offline.db", scheduler_enabled=False, _env_file=None)  # type: ignore[call-arg]
    offline = await build_app(plain, fuzz=False, worker_mode="thread")
    with_llm = Settings(database_url=f"sqlite+aiosqlite:///{tmp}/llm.db", scheduler_enabled=False, _env_file=None)  # type: ignore[call-arg]
    with_llm.llm = LLMSettings(base_url=REFUSED, api_key=SecretStr("bench"), model="bench", retries=0, timeout=2)
    llm = await build_app(with_llm, fuzz=False, worker_mode="thread")
    return offline, llm


async def _run_probe(probe: dict[str, Any], offline: Any, llm: Any, quick: bool, n: int) -> dict[str, Any]:
    from bench.loop_lag import LoopLag
    from bot.kernel import commands as c

    path = probe["path"]
    app = offline if path == "drill_offline" or path == "jd_file" else llm
    service = app.service
    uid = (await service.user_for("bench", f"{probe['id']}-{n}", "en")).id
    text = probe_text(probe["text"], quick) if "text" in probe else ""
    # the steps before the probe (not timed)
    if path in ("drill_offline", "drill_llm"):
        await service.handle_text(uid, "/drill")
    elif path == "debrief_notes":
        await service.handle_text(uid, "/debrief Acme")
    elif path == "debrief_list":
        await service.handle_text(uid, "/debrief Acme")
        await service.handle_text(uid, "1. How do you debug a NaN loss?\n2. What does ZeRO-3 shard?")
    elif path == "jd_file":
        await service.handle_text(uid, "/jd")
    data, name = probe_file(probe["file"], quick) if path == "jd_file" else (b"", "")  # built before the ticker
    lag = LoopLag(0.005).start()
    await asyncio.sleep(0.02)
    start = time.perf_counter()
    if path == "jd_text":
        replies = await service.handle_text(uid, "/jd " + text)
    elif path == "jd_file":
        replies = await service.handle(c.UploadDocument(uid, data, name))
    else:
        replies = await service.handle_text(uid, text)
    took = time.perf_counter() - start
    await asyncio.sleep(0.02)
    lags = await lag.stop()
    first = replies[0].text.split("\n")[0][:80] if replies else ""
    return {"id": probe["id"], "call_ms": round(took * 1000, 1), "stall_ms": lags["loop_lag_max_ms"], "reply": first}


async def _child(ids: list[str], quick: bool) -> None:
    logging.disable(logging.WARNING)
    probes = {p["id"]: p for p in load_probes()}
    with tempfile.TemporaryDirectory() as tmp:
        offline, llm = await _apps(tmp)
        try:
            for path in ("drill_offline", "drill_llm"):  # encoder, weights, prompts loaded
                await _run_probe({"id": "warm", "path": path, "text": {"repeat": "clip the gradients", "times": 1}},
                                 offline, llm, quick, -1)  # fmt: skip
            print(json.dumps({"ready": True}), flush=True)
            for n, pid in enumerate(ids):
                print(json.dumps({"start": pid}), flush=True)
                print(json.dumps(await _run_probe(probes[pid], offline, llm, quick, n)), flush=True)
        finally:
            await offline.close()
            await llm.close()


# ---------------------------------------------------------------------------------------------------------------
# The parent: children, the cap, the figures


def _pipe(out: Any, lines: Any) -> None:
    """The child's lines into a queue, then "" at its end (a thread: the parent waits with a timeout)."""
    for line in iter(out.readline, ""):
        lines.put(line)
    lines.put("")


def _run_all(ids: list[str], quick: bool, cap: float) -> list[dict[str, Any]]:
    import queue
    import threading

    results: list[dict[str, Any]] = []
    left = list(ids)
    while left:
        cmd = [sys.executable, __file__, "--child", *(["--quick"] if quick else []), "--only", *left]
        env = os.environ | {"PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert proc.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_pipe, args=(proc.stdout, lines), daemon=True).start()
        current: str | None = None
        wait = 600.0  # the start-up (migrations, the bank, the encoder)
        while True:
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                proc.kill()
                proc.wait()
                if current is None:
                    raise SystemExit("the bench's child did not answer") from None
                results.append({"id": current, "call_ms": None, "stall_ms": None, "froze": f">= {cap:.0f} s"})
                left.remove(current)
                print(f"{current}: still running after {cap:.0f} s: killed", file=sys.stderr, flush=True)
                break
            if not line:
                proc.wait()
                if current is not None:  # died mid-probe
                    results.append({"id": current, "call_ms": None, "stall_ms": None, "froze": "crashed"})
                    left.remove(current)
                elif left:
                    raise SystemExit("the bench's child ended early")
                break
            msg = json.loads(line)
            if "start" in msg:
                current, wait = msg["start"], cap
            elif "id" in msg:
                results.append(msg)
                left.remove(msg["id"])
                current, wait = None, 120.0
                print(f"{msg['id']}: call {msg['call_ms']} ms, stall {msg['stall_ms']} ms", file=sys.stderr, flush=True)
        proc.stdout.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cap", type=float, default=None)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(_child(args.only or [], args.quick))
        return
    from bench.report import final_line, verdict_of

    cap = args.cap or (10.0 if args.quick else 60.0)
    probes = load_probes()
    ids = args.only or [p["id"] for p in probes]
    results = _run_all(ids, args.quick, cap)
    order = {pid: i for i, pid in enumerate(ids)}
    results.sort(key=lambda r: order[r["id"]])
    froze = [r["id"] for r in results if r.get("froze")]
    stalls = [r["stall_ms"] for r in results if r.get("stall_ms") is not None]
    calls = [r["call_ms"] for r in results if r.get("call_ms") is not None]
    over = [r["id"] for r in results if r.get("froze") or (r["stall_ms"] or 0) > STALL_MS]
    for r in results:
        print(json.dumps(r, ensure_ascii=False))
    figures = {
        "probes": len(results),
        "stalls_over_100ms": len(over),
        "killed_at_cap": len(froze),
        "max_stall_ms": max(stalls, default=0.0) if not froze else f">= {cap * 1000:.0f}",
        "max_call_ms": max(calls, default=0.0) if not froze else f">= {cap * 1000:.0f}",
        "over_100ms": over,
        "by_probe": {r["id"]: r.get("froze") or r["stall_ms"] for r in results},
    }
    targets = {"stalls_over_100ms": 0}
    print(final_line("hardening", figures, targets, verdict_of(not over), quick=args.quick, cap_s=cap))


if __name__ == "__main__":
    main()
