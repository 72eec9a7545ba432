"""How well `/review` finds the bank question a real interview asked (tests/data/review_phrasings.yaml).

Usage: python bench/review_match.py [--quick]

Each phrasing is matched by the SemanticMatcher: top-1 accuracy on the in-bank phrasings (a hit
when the best candidate is `expected` or in `also`), top-3 accuracy, how many in-bank phrasings
would be matched at once (score >= sure) / offered to confirm (>= unsure) / missed, and false
matches on the out-of-bank ones (score >= sure, or >= unsure for "offered"). The lexical fallback
(`Bank` without a matcher, the old behaviour) is measured beside it. `--quick`: the first 10 in-bank and 5
out-of-bank phrasings (the figures are not the real ones). The last line is one JSON object.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.report import final_line, verdict_of
from bot.content.loader import load_bank
from bot.grading.question_match import SURE, UNSURE, SemanticMatcher
from bot.grading.semantic import default_embedder
from bot.grading.term_weights import bank_weights
from bot.kernel.bank import MATCH_THRESHOLD, Bank

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "review_phrasings.yaml"
TARGET_TOP1 = 0.8
TARGET_FALSE_SURE = 0.1


def evaluate(bank: Bank, rows: list[dict[str, object]], sure: float, unsure: float) -> dict[str, float]:
    inside = [r for r in rows if r["expected"]]
    outside = [r for r in rows if not r["expected"]]
    top1 = top3 = at_once = offered = 0
    for r in inside:
        ok = {r["expected"], *(r.get("also") or [])}
        cands = bank.candidates(str(r["text"]), 3)
        if cands and cands[0][0].id in ok:
            top1 += 1
            at_once += bank.is_sure(cands)
            offered += cands[0][1] >= unsure and not bank.is_sure(cands)
        top3 += any(q.id in ok for q, _ in cands)
    false_sure = sum(1 for r in outside if bank.is_sure(bank.candidates(str(r["text"]), 3)))
    false_offer = sum(1 for r in outside if bank.candidates(str(r["text"]), 1)[0][1] >= unsure)
    n_in, n_out = len(inside), len(outside)
    return {
        "in_bank": n_in,
        "out_of_bank": n_out,
        "top1": round(top1 / n_in, 3),
        "top3": round(top3 / n_in, 3),
        "matched_at_once": round(at_once / n_in, 3),
        "offered_to_confirm": round(offered / n_in, 3),
        "false_sure": round(false_sure / n_out, 3),
        "false_offered": round(false_offer / n_out, 3),
    }


def main() -> int:
    quick = "--quick" in sys.argv
    rows = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    if quick:
        rows = [r for r in rows if r["expected"]][:10] + [r for r in rows if not r["expected"]][:5]
    questions = load_bank().questions
    embedder = default_embedder()
    assert embedder is not None
    semantic = evaluate(Bank(questions, SemanticMatcher(questions, embedder, bank_weights())), rows, SURE, UNSURE)
    lexical = evaluate(Bank(questions), rows, MATCH_THRESHOLD, MATCH_THRESHOLD)
    print(f"semantic matcher: {semantic}")
    print(f"lexical fallback: {lexical}")
    ok = semantic["top1"] >= TARGET_TOP1 and semantic["false_sure"] <= TARGET_FALSE_SURE
    targets = {"semantic.top1": TARGET_TOP1, "semantic.false_sure": TARGET_FALSE_SURE}
    print(final_line("review_match", {"semantic": semantic, "lexical": lexical}, targets, verdict_of(ok), quick=quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
