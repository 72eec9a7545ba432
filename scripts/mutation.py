"""Mutation testing of the rule modules: do the tests notice when a rule is changed?

    .venv/bin/pip install mutmut && .venv/bin/python scripts/mutation.py [GROUP ...]

Each group is a set of rule modules and the fast tests that cover them (below). For each group the
repository's tracked files are copied to a temporary folder, `[tool.mutmut]` is written there for
that group only, and mutmut runs in the copy (the working tree is never touched; other groups'
settings never leak in). It prints each module's mutation score and its surviving mutants, and as
its last line one JSON object with the figures, the target (85% killed) and the verdict. It is
not part of CI: a full run takes tens of minutes on two cores. `--list` shows the groups (and fails when a
group names a module or a test file that is not there).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.85
GROUPS: dict[str, tuple[list[str], list[str]]] = {
    "scoring": (
        ["bot/kernel/scoring.py", "bot/kernel/srs.py"],
        ["tests/unit/test_rules.py", "tests/unit/test_service.py", "tests/unit/test_progress.py"],
    ),
    "push_rules": (
        ["bot/kernel/push_rules.py", "bot/features/drill/pushes.py", "bot/features/review/pushes.py"],
        ["tests/unit/test_rules.py", "tests/unit/test_push_rules.py"],
    ),
    # each command declared once and each button's payload (the house issue's step 2)
    "registry": (
        ["bot/kernel/registry.py", "bot/kernel/actions.py", "bot/kernel/parsing.py"],
        [
            "tests/unit/test_registry.py",
            "tests/unit/test_actions.py",
            "tests/platforms/console/test_commands_words.py",
            "tests/unit/test_rules.py",
        ],
    ),
    "regrade": (
        ["bot/features/drill/regrade.py"],
        [
            "tests/unit/test_regrade.py",
            "tests/unit/test_mock.py",
            "tests/integration/test_regrade_after_forget.py",
            "tests/integration/test_scale_background.py",
            "tests/integration/test_llm_chain.py",
            "tests/integration/test_llm_grader.py",
        ],
    ),
    "drill": (
        ["bot/features/drill/drill.py", "bot/features/drill/graded.py"],
        [
            "tests/unit/test_service.py",
            "tests/unit/test_flows.py",
            "tests/integration/test_two_processes.py",
            "tests/unit/test_drill_rules.py",
        ],
    ),
    "rate_limit": (["bot/kernel/rate_limit.py"], ["tests/unit/test_rate_limit.py"]),
    "study_server": (
        ["bot/features/study_server/study_server.py"],
        [
            "tests/unit/test_study_server.py",
            "tests/unit/test_board_periods.py",
            "tests/unit/test_study_server_rules.py",
        ],
    ),
    "personal_data": (
        ["bot/features/review/interviews.py", "bot/kernel/text_input.py", "bot/features/account/export_files.py"],
        [
            "tests/integration/test_personal_data.py",
            "tests/unit/test_service.py",
            "tests/content/test_review_matching.py",
        ],
    ),
    # the offline grader's rules (545 mutants) with the tests that take under a second: the ones that grade the
    # whole bank or 12,000 characters (two minutes a run) would take hours; test_offline_rules.py pins the same
    # rules on small inputs. The model is loaded once, in mutmut's parent process.
    "offline": (
        ["bot/grading/offline.py"],
        [
            "tests/unit/test_offline_rules.py",
            "tests/content/test_offline_grader.py",
            "tests/content/test_offline_claims.py",
            "-k",
            "not every_shipped_question and not every_reference_hits and not reference_answers_trigger_no "
            "and not every_bank_question_meets and not what_comes_after and not campus_hire "
            "and not feedback_never_cuts and not huge_answer",
            "-p",
            "tests.mutation_warmup",
        ],
    ),
    "pushes": (
        ["bot/storage/pushes.py", "bot/scheduling/dispatcher.py"],
        [
            "tests/integration/test_scheduler.py",
            "tests/contract/test_push_store.py",
            "tests/platforms/telegram/test_push_outcomes.py",
            "tests/platforms/discord/test_push_outcomes.py",
            # the two "process died mid-send" tests cancel a tick with a request in flight; under mutmut's
            # instrumentation that once hung the stats run for good (tests/contract/test_push_store.py covers the states)
            "-k",
            "not may_have_left",
        ],
    ),
    # the LLM grader's rules: numbers from verdicts, the reply's schema, the lenient reader, the providers' request
    # forms (issue #32 item 8), the budget
    "llm": (
        [
            "bot/grading/llm_verdicts.py",
            "bot/grading/llm_reply.py",
            "bot/grading/reply_reader.py",
            "bot/grading/providers.py",
            "bot/kernel/llm_budget.py",
        ],
        [
            "tests/unit/test_llm_reply.py",
            "tests/unit/test_reply_reader.py",
            "tests/integration/test_llm_providers.py",
            "tests/integration/test_llm_chain.py",
            "tests/integration/test_llm_grader.py",
        ],
    ),
    # honest verdicts: who rates (the estimate suggests, the user rates), borderline LLM grades, non-answers and
    # follow-up premises
    "verdicts": (
        ["bot/kernel/verdicts.py", "bot/kernel/non_answer.py", "bot/kernel/premise.py"],
        [
            "tests/unit/test_verdict_rules.py",
            "tests/integration/test_honest_verdicts.py",
            "tests/unit/test_export_markdown.py",
            "tests/unit/test_study_server.py",
        ],
    ),
    # the limits kept per platform account (issue #34): the identity key and the rolling 24 hours
    "limits": (
        ["bot/kernel/identity.py", "bot/kernel/llm_budget.py"],
        [
            "tests/integration/test_limits_survive_forget.py",
            "tests/integration/test_llm_chain.py",
            "tests/unit/test_rate_limit.py",
        ],
    ),
    # (bot/grading/addressing.py has no group: its patterns are compiled when bot/grading/injection.py is imported,
    # before mutmut's switch, and in mutmut's copy the detector finds nothing even unmutated, so a score there
    # would measure mutmut, not the tests; tests/unit/test_injection_structural.py pins its rules on held-out probes.)
    # which grader grades an answer, with hand-written graders
    "grading_chain": (
        ["bot/grading/chain.py"],
        ["tests/unit/test_grading_chain.py", "tests/integration/test_llm_chain.py"],
    ),
    # the career tools' rules (/jd focus and matching, /debrief splitting, /apps attachment and insights, /notes
    # versions) with their fast tests
    "focus": (["bot/features/jd/focus.py"], ["tests/unit/test_focus_rule.py", "tests/integration/test_focus_queue.py"]),
    "jd_match": (["bot/features/jd/match.py"], ["tests/unit/test_jd_match.py"]),
    "debrief_split": (["bot/features/debrief/split.py"], ["tests/unit/test_debrief_split.py"]),
    "apps": (
        ["bot/features/apps/attach.py", "bot/features/apps/insights.py", "bot/features/apps/data.py"],
        [
            "tests/unit/test_apps_attach.py",
            "tests/unit/test_apps_insights.py",
            "tests/unit/test_apps_board.py",
            "tests/integration/test_apps_reminders.py",
        ],
    ),
    "notes": (
        ["bot/features/notebook/versions.py"],
        ["tests/unit/test_notes_core.py", "tests/unit/test_notes_rules.py"],
    ),
    # handlers name what they use: binding by name, groups, tables bound with their router, unknown names at bind time
    "inject": (["bot/kernel/inject.py"], ["tests/unit/test_inject.py", "tests/unit/test_career_router.py"]),
    # SQLite: its engines (WAL, BEGIN IMMEDIATE, the file guard) and the store's write batches (plain writes and claims
    # gathered, order kept, a failing unit alone) and read queue
    "group_commit": (
        ["bot/storage/group_commit.py", "bot/storage/engine.py"],
        [
            "tests/contract/test_sqlite_engine.py",
            "tests/contract/test_engines.py",
            "tests/contract/test_write_batching.py",
            "tests/integration/test_faults.py",
            # a `bot run` child process cannot import mutmut's copy of the modules: its in-process twins cover them
            "-k",
            "not deleted_database_stops_the_running_bot",
        ],
    ),
    # Telegram's update processor: each chat in order, working slots given back while grading, a full chat's updates
    # skipped, the slots reserved for commands
    "telegram_processor": (
        ["bot/platforms/telegram/processor.py"],
        ["tests/platforms/telegram/test_concurrency.py"],
    ),
}
RESULT = re.compile(r"^\s*(([\w.]+)__mutmut_\d+): (\w+)", re.MULTILINE)


def missing_paths(groups: dict[str, tuple[list[str], list[str]]] = GROUPS) -> list[str]:
    """Each group's modules, test paths and plugins (`-p tests.mutation_warmup`) that are not in the repository, as
    "group: path": a test file moved or renamed fails `--list` and tests/unit/test_mutation_groups.py, not a run."""
    missing = []
    for name, (modules, tests) in groups.items():
        for before, arg in zip(["", *tests], tests, strict=False):
            if before in ("-k", "-m") or arg.startswith("-"):
                continue  # an option, or the expression it takes
            path = arg.replace(".", "/") + ".py" if before == "-p" else arg.split("::")[0]
            if not (ROOT / path).exists():
                missing.append(f"{name}: {arg}")
        missing += [f"{name}: {module}" for module in modules if not (ROOT / module).exists()]
    return missing


def copy_tree(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    for name in files.stdout.splitlines():
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def configure(dest: Path, modules: list[str], tests: list[str]) -> None:
    pyproject = (dest / "pyproject.toml").read_text(encoding="utf-8")
    pyproject = pyproject.split("[tool.mutmut]", 1)[0].rstrip() + "\n\n[tool.mutmut]\n"
    pyproject += f"source_paths = {json.dumps(['bot'])}\nonly_mutate = {json.dumps(modules)}\n"
    pyproject += f"also_copy = {json.dumps(['bot', 'content', 'prompts', 'tests', 'bench', 'scripts'])}\n"
    pyproject += f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
    (dest / "pyproject.toml").write_text(pyproject, encoding="utf-8")


def module_of(mutant: str) -> str:
    """'bot.kernel.srs.x_review' -> 'bot/kernel/srs.py' (mutmut names a mutant by module and function)."""
    parts = mutant.split(".")
    for cut in range(len(parts), 0, -1):
        candidate = "/".join(parts[:cut]) + ".py"
        if (ROOT / candidate).exists():
            return candidate
    return mutant


def run_group(name: str, workers: int) -> dict[str, dict[str, object]]:
    modules, tests = GROUPS[name]
    with tempfile.TemporaryDirectory(prefix=f"mutation-{name}-") as tmp:
        work = Path(tmp)
        copy_tree(work)
        configure(work, modules, tests)
        mutmut = str(Path(sys.executable).with_name("mutmut"))
        env = {k: v for k, v in os.environ.items() if k != "TEST_POSTGRES_URL"}  # SQLite only: faster
        run = subprocess.run(
            [mutmut, "run", "--max-children", str(workers)], cwd=work, env=env, capture_output=True, text=True
        )
        print(f"{name}: {run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-2000:]}")
        if run.returncode != 0:  # e.g. "Failed to run clean test": show the failing tests' output, not one line
            print(f"{name}: mutmut exited {run.returncode}:\n{run.stdout[-6000:]}\n{run.stderr[-3000:]}")
        listed = subprocess.run([mutmut, "results", "--all", "true"], cwd=work, env=env, capture_output=True, text=True)
        by_module: dict[str, Counter[str]] = {}
        survivors: dict[str, list[str]] = {}
        for mutant, function, status in RESULT.findall(listed.stdout):
            module = module_of(function)
            by_module.setdefault(module, Counter())[status] += 1
            if status == "survived":
                diff = subprocess.run([mutmut, "show", mutant], cwd=work, env=env, capture_output=True, text=True)
                changed = [ln for ln in diff.stdout.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
                survivors.setdefault(module, []).append(f"{mutant}: {' | '.join(changed)[:300]}")
    if not by_module:
        print(f"{name}: no results from mutmut: {listed.stdout[-1500:]} {listed.stderr[-1500:]}")
    report: dict[str, dict[str, object]] = {}
    for module, counts in sorted(by_module.items()):
        judged = counts["killed"] + counts["survived"] + counts["timeout"]
        if not judged:  # a module of data (a table, constants): nothing to mutate, nothing to score
            print(f"{module}: no mutants")
            continue
        score = (counts["killed"] + counts["timeout"]) / judged
        report[module] = {"score": round(score, 3), **dict(counts), "survivors": survivors.get(module, [])}
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help="groups to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the groups and exit")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    if args.list:
        for name, (modules, tests) in GROUPS.items():
            print(f"{name}: {', '.join(modules)}  <-  {', '.join(tests)}")
        missing = missing_paths()
        for line in missing:
            print(f"missing: {line}", file=sys.stderr)
        return 1 if missing else 0
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {unknown}; --list shows them")
    figures: dict[str, dict[str, object]] = {}
    for group in args.groups or list(GROUPS):
        for module, row in run_group(group, args.workers).items():
            figures[module] = row
            print(f"{module}: {row['score']:.1%} killed ({row.get('killed', 0)} killed, "
                  f"{row.get('survived', 0)} survived, {row.get('timeout', 0)} timed out)")  # fmt: skip
            for mutant in row["survivors"]:  # type: ignore[attr-defined]
                print(f"    survived: {mutant}")
    ok = bool(figures) and all(float(row["score"]) >= TARGET for row in figures.values())  # type: ignore[arg-type]
    print(
        json.dumps(
            {"bench": "mutation", "modules": {m: r["score"] for m, r in figures.items()}, "target": TARGET, "ok": ok}
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
