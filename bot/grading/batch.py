"""`python -m bot grade`: grade a CSV of answers; extra columns pass through unchanged, in order.

Input columns: question, reference_answer, answer (optional key_points, ';'-separated).
Output: the input columns in order, then score, the five dimensions and grader.
With `--grader llm` (or `auto` when an LLM is configured) rows are graded concurrently by the
LLM; a row the LLM cannot grade falls back to the offline grade and says so in `grader`.
"""

from __future__ import annotations

import asyncio
import csv
import sys
from pathlib import Path

from tqdm import tqdm

from bot.core.models import DIMENSIONS, Grade, Lang
from bot.core.ports import Grader
from bot.grading.batch_question import question_from_row
from bot.grading.offline import OfflineGrader

REQUIRED = ("question", "reference_answer", "answer")
PROGRESS_FROM = 50


class BatchInputError(Exception):
    pass


def read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.DictReader(fh)
            if reader.fieldnames is None:
                raise BatchInputError(f"{path}: the file is empty (expected a header: {', '.join(REQUIRED)})")
            header = [h.strip() for h in reader.fieldnames]
            missing = [c for c in REQUIRED if c not in header]
            if missing:
                raise BatchInputError(f"{path}: missing column(s): {', '.join(missing)} (found: {', '.join(header)})")
            rows = []
            for row in reader:
                if None in row:
                    raise BatchInputError(f"{path}: line {reader.line_num}: more fields than the header has")
                rows.append({k.strip(): (v or "") for k, v in row.items()})
    except FileNotFoundError:
        raise BatchInputError(f"{path}: no such file") from None
    except UnicodeDecodeError as err:
        raise BatchInputError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    except csv.Error as err:
        raise BatchInputError(f"{path}: malformed CSV: {err}") from None
    return header, rows


async def grade_rows(
    rows: list[dict[str, str]], lang: Lang, grader: Grader | None = None, concurrency: int = 4, progress: bool = False
) -> list[dict[str, str]]:
    offline = OfflineGrader()
    primary = grader or offline
    gate = asyncio.Semaphore(max(1, concurrency))
    bar = tqdm(total=len(rows), disable=not progress, unit="answer", file=sys.stderr)

    async def one(i: int, row: dict[str, str]) -> dict[str, str]:
        key_points = [k.strip() for k in row.get("key_points", "").split(";") if k.strip()]
        q = question_from_row(row["question"], row["reference_answer"], key_points or None, qid=f"row-{i + 1}")
        async with gate:
            try:
                grade: Grade = await primary.grade(q, row["answer"], lang)
            except Exception:
                grade = offline.grade_sync(q, row["answer"], lang)
        bar.update(1)
        result = dict(row)
        result["score"] = str(grade.score)
        for d in DIMENSIONS:
            result[d] = str(grade.dimensions.get(d, 0))
        result["grader"] = grade.grader
        return result

    try:
        return list(await asyncio.gather(*(one(i, row) for i, row in enumerate(rows))))
    finally:
        bar.close()


def run_batch(
    input_path: Path, output_path: Path, lang: Lang = "en", grader: Grader | None = None, concurrency: int = 4
) -> int:
    try:
        header, rows = read_rows(input_path)
    except BatchInputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    graded = asyncio.run(grade_rows(rows, lang, grader, concurrency, progress=len(rows) >= PROGRESS_FROM))
    added = [c for c in ("score", *DIMENSIONS, "grader") if c not in header]
    with output_path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=[*header, *added])
        writer.writeheader()
        writer.writerows(graded)
    print(f"graded {len(graded)} answers -> {output_path}", file=sys.stderr)
    return 0
