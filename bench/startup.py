"""Benchmark: how long a start takes, as a user meets it (issue 37). Not a test: figures depend on the machine.

Each figure is the median of N runs, each a fresh `python -m bot` (or pytest) subprocess:

- `help`: `printf '/help\\n' | python -m bot chat` until it exits (target 2 s), and until its first output,
  the echoed `> /help` that the terminal writes once the bot is up (`prompt_s`);
- `first_grade`: `/drill` then an answer piped in (the way tests/platforms/console/test_notes_terminal.py scripts a session,
  no `/start`), until the offline check's first line shows (target 4 s);
- `grade_5_rows`: `python -m bot grade` on 5 answers to bank questions, offline, until it exits (target 4 s);
- `collect`: `python -m pytest --collect-only -q` in the repository (target 5 s).

Cold: an empty cache folder (CACHE_DIR) and a new database, as the first start after an install or an edit
of the bank. Warm: the cache filled and the database there, as every later start. The children write their
bytecode to a folder of the bench's own (PYTHONPYCACHEPREFIX; an installed package has its .pyc files), made
before the timed runs; `--no-bytecode` measures with none (PYTHONDONTWRITEBYTECODE=1). `cpu_s` is the
children's user + system time: steadier than wall time on a shared machine, whose load average is reported.

    .venv/bin/python bench/startup.py [--runs 5] [--quick] [--no-bytecode]

`--quick` runs each once: the cold `help` (which also compiles the bytecode), then every warm figure. The last
line printed is one JSON object: figures, targets and the verdict (`ok` when every warm median meets its target,
`missed` when one does not, `failed` when a run failed).
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(ROOT)

from bench.report import final_line, verdict_of  # noqa: E402

TARGETS = {"help_s": 2.0, "first_grade_s": 4.0, "grade_5_rows_s": 4.0, "collect_s": 5.0}
ANSWER = (
    "First I check the data and the batch that produced the NaN: NaN/Inf inputs, out-of-range token ids. "
    "Then I log per-layer gradient norms, lower the learning rate and clip the global norm at 1.0."
)
GRADE_ROWS = (
    ("stab-nan-debug-001", "I find the first step where the loss is NaN, replay that batch and check grad norms."),
    ("stab-spike-001", "Skip the bad batches, lower the learning rate and restart from the last good checkpoint."),
    ("pipe-accum-basics-001", "Gradient accumulation sums gradients over micro-batches before one optimizer step."),
    ("stab-ckpt-001", "Save the optimizer state, the scheduler, the data position and the RNG states."),
    ("stab-attn-001", "Attention logits grow large; QK-norm or a smaller init keeps the softmax from saturating."),
)
TIMEOUT_S = 600


@dataclass
class Run:
    wall_s: float
    cpu_s: float
    first_output_s: float | None
    marker_s: float | None
    returncode: int
    stdout: str


def settings_names() -> set[str]:
    """The bot's settings, kept out of the children's environment (a developer's token or URL must not leak in)."""
    from bot.config import Settings

    return {name.upper() for name in Settings.model_fields} | {"OPENAI_API_KEY", "ENV_FILE"}


def child_env(cache: Path, bytecode: Path | None) -> dict[str, str]:
    names = settings_names()
    env = {k: v for k, v in os.environ.items() if k.split("__")[0].upper() not in names}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env |= {"ENV_FILE": "", "CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "WARNING"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    if bytecode is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    return env


def run(cmd: list[str], env: dict[str, str], cwd: Path, stdin: str = "", marker: str | None = None) -> Run:
    """Run `cmd` with `stdin`, timing its first output, the first appearance of `marker` and its exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(stdin.encode())
    proc.stdin.close()
    out = b""
    first = seen = None
    fd = proc.stdout.fileno()
    while chunk := os.read(fd, 65536):
        now = time.perf_counter() - t0
        first = now if first is None else first
        out += chunk
        if marker is not None and seen is None and marker.encode() in out:
            seen = now
    err = proc.stderr.read() if proc.stderr is not None else b""
    proc.wait(timeout=TIMEOUT_S)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        print(f"  {' '.join(cmd[-3:])}: exit {proc.returncode}: {err.decode(errors='replace')[-500:]}", file=sys.stderr)
    return Run(wall, cpu, first, seen, proc.returncode, out.decode(errors="replace"))


class Session:
    """One mode (cold or warm) of the bench: its folders and the commands it times."""

    def __init__(self, tmp: Path, bytecode: Path | None) -> None:
        self.tmp = tmp
        self.bytecode = bytecode
        self.runs = 0
        self.csv = tmp / "answers.csv"
        with self.csv.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["question_id", "answer"])
            writer.writerows(GRADE_ROWS)

    def fresh(self, cold: bool) -> tuple[dict[str, str], str]:
        """The environment and database URL of the next run: cold ones get their own empty cache and database."""
        self.runs += 1
        name = f"cold-{self.runs}" if cold else "warm"
        url = f"sqlite+aiosqlite:///{self.tmp / f'{name}.db'}"
        return child_env(self.tmp / f"cache-{name}", self.bytecode) | {"DATABASE_URL": url}, name

    def help(self, cold: bool) -> Run:
        env, _ = self.fresh(cold)
        return run([sys.executable, "-m", "bot", "chat"], env, self.tmp, "/help\n")

    def first_grade(self, cold: bool) -> Run:
        env, _ = self.fresh(cold)
        cmd = [sys.executable, "-m", "bot", "chat", "--user", f"bench-{self.runs}"]
        return run(cmd, env, self.tmp, f"/drill\n{ANSWER}\n", marker="Offline check")  # the offline checklist

    def grade_rows(self, cold: bool) -> Run:
        env, _ = self.fresh(cold)
        out = self.tmp / "graded.csv"
        cmd = [
            sys.executable,
            "-m",
            "bot",
            "grade",
            "--input",
            str(self.csv),
            "--output",
            str(out),
            "--grader",
            "offline",
        ]
        return run(cmd, env, self.tmp)

    def collect(self, cold: bool) -> Run:
        env, _ = self.fresh(cold)
        return run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"], env, ROOT)


def median(values: list[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return round(statistics.median(got), 3) if got else None


def measure(session: Session, cold: bool, runs: int, only_help: bool = False) -> dict[str, float | None]:
    figures: dict[str, float | None] = {}
    scenarios = {"help": session.help} if only_help else {
        "help": session.help, "first_grade": session.first_grade, "grade_5_rows": session.grade_rows,
        "collect": session.collect,
    }  # fmt: skip
    for name, scenario in scenarios.items():
        done = [scenario(cold) for _ in range(runs)]
        if any(r.returncode != 0 for r in done):
            figures[f"{name}_failed"] = float(sum(r.returncode != 0 for r in done))
        if name == "first_grade":
            figures["first_grade_s"] = median([r.marker_s for r in done])
            figures["first_grade_exit_s"] = median([r.wall_s for r in done])
        else:
            figures[f"{name}_s"] = median([r.wall_s for r in done])
        if name == "help":
            figures["prompt_s"] = median([r.first_output_s for r in done])
        figures[f"{name}_cpu_s"] = median([r.cpu_s for r in done])
        mode = "cold" if cold else "warm"
        print(f"{mode:4} {name:12} " + " ".join(f"{k}={v}" for k, v in figures.items() if k.startswith(name)))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median); default 5")
    parser.add_argument("--quick", action="store_true", help="each once: the cold help, then the warm figures")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="children write no bytecode, as with PYTHONDONTWRITEBYTECODE"
    )
    args = parser.parse_args()
    runs = 1 if args.quick else max(1, args.runs)
    with tempfile.TemporaryDirectory(prefix="drill-startup-") as tmp:
        bytecode = None if args.no_bytecode else Path(tmp) / "bytecode"
        session = Session(Path(tmp), bytecode)
        if args.quick:  # the first run, which also compiles the bytecode, is the cold help
            cold = measure(session, True, 1, only_help=True)
        else:
            if bytecode is not None:  # compile the bot's, the tests' and the libraries' modules once, untimed
                session.help(cold=True)
                session.collect(cold=True)
            cold = measure(session, True, runs)
        fill, _ = session.fresh(False)  # fill the warm cache and database, untimed
        run([sys.executable, "-m", "bot", "chat", "--user", "fill"], fill, session.tmp, f"/drill\n{ANSWER}\n")
        warm = measure(session, False, runs)
    met = {k: warm.get(k) is not None and warm[k] <= target for k, target in TARGETS.items()}  # type: ignore[operator]
    failed = any(k.endswith("_failed") for k in (*cold, *warm))
    verdict = "failed" if failed else verdict_of(all(met.values()))
    context = {"quick": args.quick, "runs": runs, "bytecode": not args.no_bytecode,
               "load_average": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}  # fmt: skip
    print(final_line("startup", {"warm": warm, "cold": cold, "met": met}, TARGETS, verdict, **context))
    return 0


if __name__ == "__main__":
    sys.exit(main())
