"""How well /jd reads a job description offline (bot/features/jd/match.py): the bank subtopics it finds in the
hand-written JDs of tests/data/jds/ against those a reader expects there (`expected_subtopics`).

Usage: python bench/jd_match.py [-v] [--quick]

Micro precision and recall over all JDs (each found subtopic a reader expects is a true positive), and per
JD with what was missed and what was extra (-v also shows the skills read and those the bank does not
cover). `--quick` reads the first 4 JDs only (the figures are not the real ones). The last line is one JSON object.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.report import final_line, verdict_of
from bot.content.loader import load_bank
from bot.features.jd.match import JdMatcher
from bot.kernel.bank import Bank

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "jds"
TARGET_PRECISION = 0.8
TARGET_RECALL = 0.8


def load_jds(folder: Path = DATA) -> list[dict[str, Any]]:
    return [
        {"name": path.stem, **yaml.safe_load(path.read_text(encoding="utf-8"))}
        for path in sorted(folder.glob("*.yaml"))
    ]


def evaluate(matcher: JdMatcher, jds: list[dict[str, Any]], verbose: bool = False) -> dict[str, Any]:
    tp = fp = fn = 0
    for jd in jds:
        found = matcher.match(jd["text"])
        expected, got = set(jd["expected_subtopics"]), set(found.subtopics)
        tp, fp, fn = tp + len(expected & got), fp + len(got - expected), fn + len(expected - got)
        print(f"{jd['name']:16} missed={sorted(expected - got)} extra={sorted(got - expected)}")
        if verbose:
            print(
                f"{'':16} subtopics={found.subtopics}\n{'':16} skills={found.skills}\n{'':16} uncovered={found.uncovered}"
            )
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {"jds": len(jds), "precision": round(precision, 3), "recall": round(recall, 3), "tp": tp, "fp": fp, "fn": fn}


def main() -> int:
    quick = "--quick" in sys.argv
    jds = load_jds()[: 4 if quick else None]
    result = evaluate(JdMatcher(Bank(load_bank().questions).all()), jds, "-v" in sys.argv)
    ok = result["precision"] >= TARGET_PRECISION and result["recall"] >= TARGET_RECALL
    targets = {"precision": TARGET_PRECISION, "recall": TARGET_RECALL}
    print(final_line("jd_match", result, targets, verdict_of(ok), quick=quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
