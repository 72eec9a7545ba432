"""Benchmark the offline grader: adversarial probes, agreement with humans, speed.

Usage: python bench/grade_offline.py [path/to/semeval2013_3way_2way.csv] [--grades FILE] [--speed-only] [--quick]

`--grades FILE` writes every grade the bench computes, one JSON line each in a fixed order (what was
graded, the score, dimensions, verdicts, mistakes, feedback), so two versions of the grader can be
diffed row by row; `--speed-only` measures the speed alone (for before/after timing runs); `--quick` runs
everything but SemEval on the bank's first 8 questions and the dev set's first 10 answers (seconds; the
figures are not the real ones).

- Adversarial table over the whole bank, both languages (`bot.grading.probes`): each question's
  own keyword salad (goal <= 25), its listed mistakes stated as claims (<= 35), its reference
  answer with every clause's stance flipped (<= 30), the reference itself (>= 85) and a vague
  one-liner (<= 35): the share of questions on target and the worst case.
- The hand-labelled development set (tests/data/grading_dev.yaml): Spearman and mean absolute
  error against the scores a fair interviewer gave, overall and per kind.
- SemEval-2013: for each test split, the ROC AUC of the score for label_2way == correct, each row
  graded the way the batch CLI grades it, next to a plain word-overlap baseline and to the AUCs the
  previous grader reached.
- Speed: every shipped question graded on its reference answer, a one-liner and a mid-length
  partial answer, in both languages: median and p99 ms per answer, wall clock (target p99 < 50 ms
  with the embedding model) and CPU time (steadier on a shared machine), the one-off cost of
  loading the model and of the start-up as a whole.
The last line printed is one JSON object: the figures, the targets and the verdict (`ok`).
"""

from __future__ import annotations

import csv
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml
from pydantic import BaseModel

# import the project from the repository root, not from bench/ (nor an installed copy of it)
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.report import final_line, verdict_of
from bot.content.loader import load_bank
from bot.grading.batch_question import question_from_row
from bot.grading.features import split_sentences as sentences
from bot.grading.offline import OfflineGrader
from bot.grading.probes import PROBES
from bot.grading.rubric_match import prepare
from bot.grading.semantic import UseEmbedder
from bot.kernel.models import LANGS, Lang, Level, Question
from bot.shipped_bank import use_shipped_weights
from bot.text.tokens import words

use_shipped_weights()  # the graders' term weights: the shipped bank's (bot/shipped_bank.py)

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CSV = REPO.parent / "shared" / "data" / "semeval2013_3way_2way.csv"
TARGET_P99_MS = 50.0
PREVIOUS_AUC = {  # the grader before sentence embeddings and stance-aware matching
    "sciEntsBank/test-unseen-answers": 0.766,
    "sciEntsBank/test-unseen-questions": 0.803,
    "sciEntsBank/test-unseen-domains": 0.794,
    "beetle/test-unseen-answers": 0.844,
    "beetle/test-unseen-questions": 0.696,
}
DEV_SET = REPO / "tests" / "data" / "grading_dev.yaml"
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


class Recorder:
    """Every grade the bench asks for, in order, for `--grades` (the timing loop is not recorded)."""

    def __init__(self, grader: OfflineGrader) -> None:
        self.rows: list[dict[str, object]] = []
        self._grade = grader.grade_sync

        def grade_sync(question: Question, answer: str, lang: Lang, level: Level = "engineer") -> BaseModel:
            grade = self._grade(question, answer, lang, level)
            if self.on:
                row = grade.model_dump(exclude={"grader", "estimate", "prompt_version", "tokens"})
                self.rows.append({"question": question.id, "lang": lang, "answer": answer[:60], **row})
            return grade

        self.on = True
        grader.grade_sync = grade_sync  # type: ignore[method-assign]

    def write(self, path: Path) -> None:
        with path.open("w", encoding="utf-8") as fh:
            for row in self.rows:
                fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


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


CPU_MS: list[float] = []  # the same gradings' CPU time: steadier than wall time on a busy machine


def time_bank(grader: OfflineGrader, questions: list[Question]) -> tuple[list[float], list[float]]:
    """(ms per answer, ms per question preparation, i.e. the extra cost of a question's first grade)."""
    timings: list[float] = []
    prep: list[float] = []
    CPU_MS.clear()
    for q in questions:
        t0 = time.perf_counter()
        prepare(q, grader.weights)
        prep.append((time.perf_counter() - t0) * 1000)
        grader.grade_sync(q, "warm-up", "en")  # prepares and caches the question
        for lang in LANGS:
            ref = q.reference_answer.get(lang)
            for answer in (ref, ONE_LINER[lang], partial_answer(ref, lang)):
                t0, c0 = time.perf_counter(), time.process_time()
                grader.grade_sync(q, answer, lang)
                timings.append((time.perf_counter() - t0) * 1000)
                CPU_MS.append((time.process_time() - c0) * 1000)
    return timings, prep


def p99(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else (values[0] if values else 0.0)


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


def adversarial(grader: OfflineGrader, questions: list[Question]) -> dict[str, dict[str, object]]:
    table: dict[str, dict[str, object]] = {}
    for name, (build, goal, kind) in PROBES.items():
        for lang in LANGS:
            scores = [(grader.grade_sync(q, build(q, lang), lang).score, q.id) for q in questions]
            on = [s for s, _ in scores if (s <= goal if kind == "max" else s >= goal)]
            worst = max(scores) if kind == "max" else min(scores)
            table[f"{name}/{lang}"] = {
                "goal": f"{'<=' if kind == 'max' else '>='} {goal}",
                "on_target": round(len(on) / len(scores), 3),
                "median": statistics.median(s for s, _ in scores),
                "worst": worst[0],
                "worst_id": worst[1],
            }
    return table


def ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    var = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return cov / var if var else float("nan")


def dev_set(grader: OfflineGrader, questions: list[Question], limit: int | None = None) -> dict[str, object]:
    if not DEV_SET.is_file():
        return {"error": f"missing {DEV_SET}"}
    rows = yaml.safe_load(DEV_SET.read_text(encoding="utf-8"))[:limit]
    by_id = {q.id: q for q in questions}
    ours, theirs, kinds = [], [], []
    for row in rows:
        q = by_id[row["question_id"]]
        ours.append(grader.grade_sync(q, row["answer"], row.get("rubric_lang", row["lang"])).score)
        theirs.append(float(row["score"]))
        kinds.append(row["kind"])
    per_kind = {}
    for kind in sorted(set(kinds)):
        idx = [i for i, k in enumerate(kinds) if k == kind]
        per_kind[kind] = {
            "n": len(idx),
            "mean_label": round(statistics.fmean(theirs[i] for i in idx), 1),
            "mean_offline": round(statistics.fmean(ours[i] for i in idx), 1),
        }
    mae = statistics.fmean(abs(x - y) for x, y in zip(ours, theirs, strict=True))
    return {"n": len(rows), "spearman": round(spearman(ours, theirs), 3), "mae": round(mae, 1), "per_kind": per_kind}


def main(argv: list[str]) -> int:
    rest = list(argv[1:])
    grades_to = None
    if "--grades" in rest:
        at = rest.index("--grades")
        grades_to = Path(rest[at + 1])
        del rest[at : at + 2]
    speed_only = "--speed-only" in rest
    quick = "--quick" in rest
    args = [a for a in rest if not a.startswith("--")]
    csv_path = Path(args[0]) if args else DEFAULT_CSV
    t0 = time.perf_counter()
    grader = OfflineGrader()
    bank = load_bank().questions
    questions = bank[:8] if quick else bank
    t_model = time.perf_counter()
    if isinstance(grader.embedder, UseEmbedder):
        grader.embedder.embed(["load the model"])
    model_ms = (time.perf_counter() - t_model) * 1000
    grader.grade_sync(questions[0], "warm up: load the model", "en")
    startup_ms = (time.perf_counter() - t0) * 1000
    recorder = Recorder(grader) if grades_to is not None else None
    table = {} if speed_only else adversarial(grader, questions)
    if table:
        print(f"adversarial probes over {len(questions)} questions (score 0-100):")
        print(f"{'probe':26} {'goal':>7} {'on target':>9} {'median':>7} {'worst':>6}  worst question")
    for name, row in table.items():
        print(
            f"{name:26} {row['goal']:>7} {row['on_target']:>9.0%} {row['median']:>7} {row['worst']:>6}  {row['worst_id']}"
        )
    dev = {} if speed_only else dev_set(grader, bank, 10 if quick else None)
    if dev:
        print(f"development set: {json.dumps(dev, ensure_ascii=False)}")
    if recorder is not None:
        recorder.on = False
    timings, prep = time_bank(grader, questions)
    if recorder is not None:
        recorder.on = True
        for q in questions:  # the timed answers' grades, recorded outside the timing loop
            for lang in LANGS:
                ref = q.reference_answer.get(lang)
                for answer in (ref, ONE_LINER[lang], partial_answer(ref, lang)):
                    grader.grade_sync(q, answer, lang)
    median, wall_p99 = statistics.median(timings), p99(timings)
    cpu_median, cpu_p99 = statistics.median(CPU_MS), p99(CPU_MS)
    print(
        f"speed: {len(timings)} answers over {len(questions)} questions: median {median:.2f} ms, p99 {wall_p99:.2f} ms"
    )
    print(f"CPU time per answer: median {cpu_median:.2f} ms, p99 {cpu_p99:.2f} ms")
    print(
        f"start-up (bank term weights, embedding model, first grade): {startup_ms:.0f} ms, of which the model {model_ms:.0f} ms"
    )
    print(f"one-off preparation of a question (its first grade): median {statistics.median(prep):.2f} ms")
    result: dict[str, object] = {
        "bench": "grade_offline",
        "answers": len(timings),
        "median_ms": round(median, 3),
        "p99_ms": round(wall_p99, 3),
        "cpu_median_ms": round(cpu_median, 3),
        "cpu_p99_ms": round(cpu_p99, 3),
        "target_p99_ms": TARGET_P99_MS,
        "model_load_ms": round(model_ms),
        "startup_ms": round(startup_ms),
        "prepare_median_ms": round(statistics.median(prep), 3),
    }
    ok = wall_p99 < TARGET_P99_MS
    if not speed_only:
        result.update(
            adversarial_on_target={k: v["on_target"] for k, v in table.items()},
            adversarial_worst={k: v["worst"] for k, v in table.items()},
            dev_spearman=dev.get("spearman"),
            dev_mae=dev.get("mae"),
        )
        ok = ok and all(v["on_target"] == 1.0 for v in table.values())
    if quick and not speed_only:
        print("SemEval AUCs: not measured in --quick")
        result.update(auc=None, baseline_auc=None)
    elif not speed_only and not csv_path.is_file():
        print(f"SemEval CSV not found at {csv_path}: AUC not measured (pass the path as the first argument)")
        result.update(auc=None, baseline_auc=None, error=f"missing {csv_path}")
        ok = False
    elif not speed_only:
        with csv_path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        ours, base, sizes = semeval_auc(grader, rows)
        print(f"{'split':42} {'rows':>5} {'offline':>8} {'baseline':>8} {'previous':>8}")
        for name in ours:
            print(f"{name:42} {sizes[name]:>5} {ours[name]:>8.4f} {base[name]:>8.4f} {PREVIOUS_AUC[name]:>8.3f}")
        ok = ok and all(ours[n] > base[n] for n in ours)
        result.update(auc=ours, baseline_auc=base, previous_auc=PREVIOUS_AUC)
    if recorder is not None and grades_to is not None:
        recorder.write(grades_to)
    result.pop("bench")
    targets = {
        "p99_ms": result.pop("target_p99_ms"),
        "adversarial_on_target": 1.0,
        "auc": "above the word-overlap baseline",
    }
    context = {"quick": quick, "speed_only": speed_only, "questions": len(questions), "answers": result.pop("answers")}
    print(final_line("grade_offline", result, targets, verdict_of(ok), **context))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
