"""`python -m bot content probe [ID ...]`: how the offline grader scores each question's adversarial probes.

For authors: after editing a question, its reference answer must still score >= 85 in both
languages and its keyword salad, listed mistakes, negated reference and a vague one-liner must
stay under their ceilings (`bot.grading.probes`). Exit status 1 when any probe misses its goal.

The report is grading's (the offline grader and its probes); the command line loads the bank and hands it the
questions, so the bank (bot/content) does not import grading.
"""

from __future__ import annotations

from bot.grading.offline import OfflineGrader
from bot.grading.probes import PROBES
from bot.kernel.follow_ups import follow_up_question
from bot.kernel.models import LANGS, Question


def probe_rows(questions: list[Question], grader: OfflineGrader | None = None) -> list[tuple[str, str, int, bool]]:
    """(question id, probe/lang, score, on target) for every question and probe."""
    grader = grader or OfflineGrader()
    rows = []
    for q in questions:
        for name, (build, goal, kind) in PROBES.items():
            for lang in LANGS:
                grade = grader.grade_sync(q, build(q, lang), lang)
                rows.append(
                    (q.id, f"{name}/{lang}", grade.score, grade.score <= goal if kind == "max" else grade.score >= goal)
                )
                if name == "reference":  # the reference makes none of the listed mistakes and hits every point
                    rows.append((q.id, f"reference_mistakes/{lang}", len(grade.mistakes), not grade.mistakes))
                    short = [k.id for k in grade.key_points if k.verdict != "hit"]
                    rows.append((q.id, f"reference_points/{lang}", len(short), not short))
        for i, f in enumerate(q.follow_ups):  # a follow-up's own reference answer makes all its own points
            if not f.key_points:
                continue
            fq = follow_up_question(q, None, f.en)
            for lang in LANGS:
                grade = grader.grade_sync(fq, fq.reference_answer.get(lang), lang)
                short = [k.id for k in grade.key_points if k.verdict != "hit"]
                rows.append((q.id, f"follow_up_{i + 1}_points/{lang}", len(short), not short))
    return rows


def print_probes(questions: list[Question], ids: list[str]) -> int:
    chosen = [q for q in questions if not ids or q.id in ids]
    missing = sorted(set(ids) - {q.id for q in chosen})
    for qid in missing:
        print(f"{qid}: no such question")
    misses = 0
    for qid, probe, score, ok in probe_rows(chosen):
        goal = next(
            (f"{'<=' if k == 'max' else '>='} {g}" for n, (_, g, k) in PROBES.items() if probe.startswith(n + "/")),
            "= 0",
        )
        misses += not ok
        print(f"{qid:40} {probe:26} {score:>4}  (goal {goal}){'' if ok else '  MISSED'}")
    print(f"{len(chosen)} questions probed, {misses} probes off target")
    return 1 if misses or missing else 0
