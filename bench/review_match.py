"""How well /review and /debrief link a question asked in a real interview to the bank question it is.

Usage: python bench/review_match.py [--quick]

The set is tests/data/review_match_set.yaml (real-interview phrasings in English, Chinese and a mix, each with
the bank question it is, or null when the bank has none). Each is matched as /review matches it (the bank's
SemanticMatcher, `Bank.is_sure`: the sure bar and a margin over the runner-up):
- precision of automatic links: of the phrasings linked without asking, the share linked to the right question
  (any link of a null phrasing is wrong); target 0.95;
- recall: the share of in-bank phrasings linked to the right question without asking;
- offered: the share of in-bank phrasings not linked at once whose right question is among those offered to
  pick (at or above the unsure bar), so the user links it in one press;
- false offers: null phrasings for which some bank question is offered.
The older calibration set (tests/data/review_phrasings.yaml) is measured beside it. `--quick`: the first 12
phrasings of each set (the figures are not the real ones). The last line is one JSON object.
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
from bot.grading.question_match import SemanticMatcher
from bot.grading.semantic import default_embedder
from bot.grading.term_weights import bank_weights
from bot.kernel.bank import Bank
from bot.shipped_bank import use_shipped_weights

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SET = DATA / "review_match_set.yaml"
CALIBRATION = DATA / "review_phrasings.yaml"
TARGET_PRECISION = 0.95
QUICK_ROWS = 12


def evaluate(bank: Bank, rows: list[dict[str, Any]]) -> tuple[dict[str, float], list[str]]:
    """The figures, and a line for each wrong automatic link."""
    unsure = bank.bars()[1]
    linked = right = offered = not_linked = false_offers = 0
    wrong: list[str] = []
    for r in rows:
        ok = {r["expected"], *(r.get("also") or [])} - {None}
        cands = bank.candidates(str(r["text"]), 3)
        if bank.is_sure(cands, str(r["text"])):
            linked += 1
            if cands[0][0].id in ok:
                right += 1
            else:
                wrong.append(f"  {r['text']!r} -> {cands[0][0].id} {cands[0][1]:.3f} (expected {r['expected']})")
        elif ok:
            not_linked += 1
            offered += any(q.id in ok and s >= unsure for q, s in cands)
        if not ok and any(s >= unsure for _, s in cands):
            false_offers += 1
    inside = sum(1 for r in rows if r["expected"])
    outside = len(rows) - inside
    return {
        "rows": len(rows),
        "in_bank": inside,
        "links": linked,
        "precision": round(right / linked, 3) if linked else 1.0,
        "recall": round(right / inside, 3) if inside else 0.0,
        "offered": round(offered / not_linked, 3) if not_linked else 1.0,
        "false_offers": round(false_offers / outside, 3) if outside else 0.0,
    }, wrong


def main() -> int:
    quick = "--quick" in sys.argv
    sets = {"set": SET, "calibration": CALIBRATION}
    rows = {name: yaml.safe_load(path.read_text(encoding="utf-8")) for name, path in sets.items()}
    if quick:
        rows = {name: r[:QUICK_ROWS] + [x for x in r if not x["expected"]][:3] for name, r in rows.items()}
    questions = load_bank().questions
    embedder = default_embedder()
    assert embedder is not None
    bank = Bank(questions, SemanticMatcher(questions, embedder, bank_weights()))
    figures = {}
    for name, data in rows.items():
        figures[name], wrong = evaluate(bank, data)
        print(f"{name} ({sets[name].name}): {figures[name]}")
        for line in wrong:
            print(line)
    ok = figures["set"]["precision"] >= TARGET_PRECISION
    targets = {"set.precision": TARGET_PRECISION}
    print(final_line("review_match", figures, targets, verdict_of(ok), quick=quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
