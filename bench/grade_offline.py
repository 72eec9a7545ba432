"""Benchmark the offline grader: speed on the shipped bank, agreement with humans on SemEval-2013.

Usage: python bench/grade_offline.py [path/to/semeval2013_3way_2way.csv]

Speed: every shipped question is graded on its reference answer, a one-liner and a mid-length
partial answer (the first third of the reference), in both languages; median and p99 ms.
Agreement: for each SemEval-2013 test split, the ROC AUC of the score for label_2way == correct,
with each row graded the way the batch CLI grades it (`question_from_row`, lang "en"), next to a
plain word-overlap baseline (share of the reference's distinct words found in the answer).
The last line printed is one JSON object.
"""

from __future__ import annotations

import csv
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.content.loader import load_bank
from bot.core.models import LANGS, Lang, Question
from bot.core.text import words
from bot.grading.batch_question import question_from_row
from bot.grading.features import sentences
from bot.grading.offline import OfflineGrader
from bot.grading.rubric_match import prepare

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CSV = REPO.parent / "shared" / "data" / "semeval2013_3way_2way.csv"
TARGET_P99_MS = 10.0
TEST_SPLITS = (
    ("sciEntsBank", "test-unseen-answers"),
    ("sciEntsBank", "test-unseen-questions"),
    ("sciEntsBank", "test-unseen-domains"),
    ("beetle", "test-unseen-answers"),
    ("beetle", "test-unseen-questions"),
)
ONE_LINER: dict[Lang, str] = {
    "en": "I would lower the learning rate and check the data.",
    "zh": "我会调小学习率，再检查一下数据。",
}


def roc_auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Mann-Whitney U / (n_pos * n_neg), ties counted as one half (average ranks)."""
    if not positives or not negatives:
        return float("nan")
    ranked = sorted([(v, 1) for v in positives] + [(v, 0) for v in negatives])
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        avg_rank = (i + j + 1) / 2  # ranks are 1-based
        rank_sum += avg_rank * sum(label for _, label in ranked[i:j])
        i = j
    n_pos, n_neg = len(positives), len(negatives)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def word_overlap(reference: str, answer: str) -> float:
    ref = set(words(reference))
    return len(ref & set(words(answer))) / len(ref) if ref else 0.0


def partial_answer(reference: str, lang: Lang) -> str:
    parts = sentences(reference)
    head = parts[: max(1, len(parts) // 3)]
    return ("" if lang == "zh" else " ").join(head)


def time_bank(grader: OfflineGrader, questions: list[Question]) -> tuple[list[float], list[float]]:
    """(ms per answer, ms per question preparation, i.e. the extra cost of a question's first grade)."""
    timings: list[float] = []
    prep: list[float] = []
    for q in questions:
        t0 = time.perf_counter()
        prepare(q)
        prep.append((time.perf_counter() - t0) * 1000)
        grader.grade_sync(q, "warm-up", "en")  # prepares and caches the question
        for lang in LANGS:
            ref = q.reference_answer.get(lang)
            for answer in (ref, ONE_LINER[lang], partial_answer(ref, lang)):
                t0 = time.perf_counter()
                grader.grade_sync(q, answer, lang)
                timings.append((time.perf_counter() - t0) * 1000)
    return timings, prep


def semeval_auc(
    grader: OfflineGrader, rows: list[dict[str, str]]
) -> tuple[dict[str, float], dict[str, float], dict[str, int]]:
    questions: dict[tuple[str, str], Question] = {}

    def score(row: dict[str, str]) -> float:
        key = (row["question"], row["reference_answer"])
        if key not in questions:
            questions[key] = question_from_row(row["question"], row["reference_answer"])
        return grader.grade_sync(questions[key], row["student_answer"], "en").score

    def baseline(row: dict[str, str]) -> float:
        return word_overlap(row["reference_answer"], row["student_answer"])

    ours: dict[str, float] = {}
    base: dict[str, float] = {}
    sizes: dict[str, int] = {}
    for corpus, split in TEST_SPLITS:
        subset = [r for r in rows if r["corpus"] == corpus and r["split"] == split]
        name = f"{corpus}/{split}"
        sizes[name] = len(subset)
        for out, fn in ((ours, score), (base, baseline)):
            out[name] = round(_auc(subset, fn), 4)
    return ours, base, sizes


def _auc(rows: list[dict[str, str]], fn: Callable[[dict[str, str]], float]) -> float:
    pos = [fn(r) for r in rows if r["label_2way"] == "correct"]
    neg = [fn(r) for r in rows if r["label_2way"] != "correct"]
    return roc_auc(pos, neg)


def main(argv: list[str]) -> int:
    csv_path = Path(argv[1]) if len(argv) > 1 else DEFAULT_CSV
    grader = OfflineGrader()
    questions = load_bank().questions
    timings, prep = time_bank(grader, questions)
    median = statistics.median(timings)
    p99 = statistics.quantiles(timings, n=100)[98] if len(timings) >= 2 else timings[0]
    print(f"speed: {len(timings)} answers over {len(questions)} questions: median {median:.2f} ms, p99 {p99:.2f} ms")
    print(f"one-off preparation of a question (its first grade): median {statistics.median(prep):.2f} ms")
    result: dict[str, object] = {
        "bench": "grade_offline",
        "answers": len(timings),
        "median_ms": round(median, 3),
        "p99_ms": round(p99, 3),
        "target_p99_ms": TARGET_P99_MS,
        "prepare_median_ms": round(statistics.median(prep), 3),
    }
    ok = p99 < TARGET_P99_MS
    if not csv_path.is_file():
        print(f"SemEval CSV not found at {csv_path}: AUC not measured (pass the path as the first argument)")
        result.update(auc=None, baseline_auc=None, error=f"missing {csv_path}")
        ok = False
    else:
        with csv_path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        ours, base, sizes = semeval_auc(grader, rows)
        print(f"{'split':42} {'rows':>5} {'offline':>8} {'baseline':>8}")
        for name in ours:
            print(f"{name:42} {sizes[name]:>5} {ours[name]:>8.4f} {base[name]:>8.4f}")
        ok = ok and all(ours[n] > base[n] for n in ours)
        result.update(auc=ours, baseline_auc=base)
    result["ok"] = ok
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
