"""`python -m bot grade`: grade a CSV of answers; extra columns pass through unchanged, in order.

Input columns: answer, and per row either a `question_id` of a bank question (graded against that
question's bilingual rubric) or question + reference_answer (optional key_points, ';'-separated).
Output: the input columns in order, then score, the five dimensions, grader, fallback_reason and
error. With `--grader llm` (or `auto` when an LLM is configured) rows are graded concurrently by the
LLM; a row the LLM cannot grade falls back to the offline grade, says so in `grader`, gives the
reason (exception class and a bounded, redacted message) in `fallback_reason` and is logged at
WARNING. A row that cannot be graded at all (an unknown question_id, a blank required cell) is
kept with an empty score and the reason in `error`; the exit status is then 1 (2: unreadable input).
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import logging
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from bot.grading.batch_question import FREE_COLUMNS, RowError, row_question
from bot.grading.offline import OfflineGrader
from bot.kernel.models import DIMENSIONS, Grade, Lang, Question
from bot.kernel.ports import Grader

log = logging.getLogger(__name__)

ALWAYS = ("answer",)
ADDED = ("score", *DIMENSIONS, "grader", "fallback_reason", "error")
PROGRESS_FROM = 50
REASON_CHARS = 120


class BatchInputError(Exception):
    pass


def read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.DictReader(fh)
            if reader.fieldnames is None:
                raise BatchInputError(
                    f"{path}: the file is empty (expected a header: answer, and question_id"
                    f" or {', '.join(FREE_COLUMNS)})"
                )
            header = [h.strip() for h in reader.fieldnames]
            needed = ALWAYS if "question_id" in header else (*FREE_COLUMNS, *ALWAYS)
            missing = [c for c in needed if c not in header]
            if missing:
                hint = "; question_id can stand for question and reference_answer" if "answer" not in missing else ""
                raise BatchInputError(
                    f"{path}: missing column(s): {', '.join(missing)} (found: {', '.join(header)}){hint}"
                )
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


def check_output(path: Path) -> None:
    """BatchInputError unless `path` can be written: its folder exists and it is not itself a folder."""
    folder = path.parent
    if not folder.is_dir():
        raise BatchInputError(f"{path}: the folder {folder} does not exist (create it, or choose another --output)")
    if path.is_dir():
        raise BatchInputError(f"{path}: is a folder; give a file name for --output")


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The exception and what it was raised from or during (`from None` hides, but keeps, the context)."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen and len(seen) < 6:
        seen.add(id(cur))
        yield cur
        cur = cur.__cause__ or cur.__context__


def _reported(exc: BaseException) -> BaseException:
    """GraderUnavailable("APITimeoutError") from None says less than the error it replaced."""
    inner = exc.__cause__ or exc.__context__
    if inner is not None and str(exc) in ("", type(inner).__name__):
        return inner
    return exc


_SECRETS = (
    (re.compile(r"(?i)\bbearer\s+\S+"), "Bearer ***"),
    (re.compile(r"(?i)\b((?:api[_-]?)?key\s*[=:]\s*)\S+"), r"\1***"),
    (re.compile(r"\b(?:sk|pk|rk)-[\w\-*.]{4,}"), "***"),
    (re.compile(r"[\w\-]{32,}"), "***"),
)


def _quotes(message: str, answer: str) -> bool:
    words = answer.split()
    if len(words) < 4:
        return False
    flat = " ".join(message.split())
    return any(" ".join(words[i : i + 4]) in flat for i in range(len(words) - 3))


def fallback_reason(exc: BaseException, answer: str) -> str:
    """A short, safe reason: the exception class and a bounded message with no key and no answer text.
    An HTTP error gives its status only (a provider's error body can echo the request)."""
    err = _reported(exc)
    status = getattr(err, "status_code", None)
    if isinstance(status, int):
        message = f"HTTP {status}"
    else:
        message = " ".join(str(err).split())
        if answer.strip():
            message = re.sub(rf"(?<!\w){re.escape(answer.strip())}(?!\w)", "<answer>", message)
        if _quotes(message, answer):
            message = "(message withheld: it quotes the answer)"
        for pattern, repl in _SECRETS:
            message = pattern.sub(repl, message)
        if len(message) > REASON_CHARS:
            message = message[: REASON_CHARS - 1].rstrip() + "…"
    name = type(err).__name__
    return f"{name}: {message}" if message else name


def fallback_kind(exc: BaseException) -> str:
    """The summary's bucket: timeout, rate limit, server error, connection, invalid output, HTTP n, or the class."""
    for e in _chain(exc):
        names = {type(e).__name__, str(e)}
        status = getattr(e, "status_code", None)
        if isinstance(e, TimeoutError) or any("Timeout" in n for n in names):
            return "timeout"
        if status == 429 or "RateLimitError" in names:
            return "rate limit"
        if (isinstance(status, int) and status >= 500) or "InternalServerError" in names:
            return "server error"
        if isinstance(e, ConnectionError) or "APIConnectionError" in names:
            return "connection"
        if type(e).__name__ == "InvalidOutput" or str(e).startswith("invalid output"):
            return "invalid output"
    status = getattr(_reported(exc), "status_code", None)
    return f"HTTP {status}" if isinstance(status, int) else type(_reported(exc)).__name__


@dataclass
class BatchResult:
    rows: list[dict[str, str]]
    by_grader: Counter[str] = field(default_factory=Counter)
    """Rows graded by the grader asked for, by grade.grader."""
    fallbacks: Counter[str] = field(default_factory=Counter)
    """Rows that fell back to the offline grade, by fallback_kind."""
    errors: int = 0

    @property
    def graded(self) -> int:
        return sum(self.by_grader.values()) + sum(self.fallbacks.values())

    def summary(self) -> str:
        n = self.graded
        text = f"graded {n} answer{'' if n == 1 else 's'}"
        parts = [f"{count} by {name}" for name, count in self.by_grader.most_common()]
        if self.fallbacks:
            kinds = ", ".join(f"{count} {kind}" for kind, count in self.fallbacks.most_common())
            parts.append(f"{sum(self.fallbacks.values())} fell back to offline ({kinds})")
        if parts:
            text += ": " + ", ".join(parts)
        if self.errors:
            text += f"; {self.errors} row{'' if self.errors == 1 else 's'} not graded (see the error column)"
        return text


def _empty(row: dict[str, str]) -> dict[str, str]:
    return {**row, **dict.fromkeys(ADDED, "")}


async def grade_rows(
    rows: list[dict[str, str]],
    lang: Lang,
    grader: Grader | None = None,
    concurrency: int = 4,
    progress: bool = False,
    bank: Callable[[], Mapping[str, Question]] | None = None,
) -> BatchResult:
    """`bank`: the bank's questions by id, asked for only when a row names one (None: no bank, and a row that
    names a question is an error)."""
    offline = OfflineGrader()
    primary = grader or offline
    primary_id = getattr(primary, "id", type(primary).__name__)
    questions = bank() if bank is not None and any((r.get("question_id") or "").strip() for r in rows) else {}
    gate = asyncio.Semaphore(max(1, concurrency))
    out = BatchResult(rows=[])
    bar = tqdm(total=len(rows), disable=not progress, unit="answer", file=sys.stderr)

    async def one(i: int, row: dict[str, str]) -> dict[str, str]:
        result = _empty(row)
        try:
            q = row_question(row, questions, qid=f"row-{i + 1}")
        except RowError as err:
            log.warning("row %d: not graded: %s", i + 1, err)
            out.errors += 1
            result["error"] = str(err)
            bar.update(1)
            return result
        answer = row["answer"]
        async with gate:
            try:
                grade: Grade = await primary.grade(q, answer, lang)
                out.by_grader[grade.grader] += 1
            except Exception as exc:
                reason = fallback_reason(exc, answer)
                if primary is offline:
                    log.warning("row %d: grader %s failed: %s", i + 1, primary_id, reason)
                    out.errors += 1
                    result["error"] = f"grading failed: {reason}"
                    bar.update(1)
                    return result
                log.warning("row %d: grader %s failed, graded offline instead: %s", i + 1, primary_id, reason)
                try:
                    grade = offline.grade_sync(q, answer, lang)
                except Exception as again:
                    log.warning("row %d: the offline grade failed too: %s", i + 1, fallback_reason(again, answer))
                    out.errors += 1
                    result["error"] = f"grading failed: {reason}; offline: {fallback_reason(again, answer)}"
                    bar.update(1)
                    return result
                out.fallbacks[fallback_kind(exc)] += 1
                result["fallback_reason"] = reason
        bar.update(1)
        result["score"] = str(grade.score)
        for d in DIMENSIONS:  # blank where the grader cannot judge (the offline estimate has no correctness)
            result[d] = str(grade.dimensions[d]) if d in grade.dimensions else ""
        result["grader"] = grade.grader
        return result

    # a progress bar and WARNING lines share stderr: route the log lines through tqdm.write
    redirect = logging_redirect_tqdm() if progress else contextlib.nullcontext()
    try:
        with redirect:
            out.rows = list(await asyncio.gather(*(one(i, row) for i, row in enumerate(rows))))
    finally:
        bar.close()
    return out


def run_batch(
    input_path: Path,
    output_path: Path,
    lang: Lang = "en",
    grader: Grader | None = None,
    concurrency: int = 4,
    bank: Callable[[], Mapping[str, Question]] | None = None,
) -> int:
    """0: every row graded; 1: some rows have an `error` (the others are graded and written); 2: bad input.
    `bank` as `grade_rows` takes it (the command line's: the shipped bank, bot/shipped_bank.py)."""
    try:
        header, rows = read_rows(input_path)
        check_output(output_path)  # before any grading: an LLM run is not paid for twice
    except BatchInputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    result = asyncio.run(grade_rows(rows, lang, grader, concurrency, progress=len(rows) >= PROGRESS_FROM, bank=bank))
    added = [c for c in ADDED if c not in header]
    try:
        with output_path.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=[*header, *added])
            writer.writeheader()
            writer.writerows(result.rows)
    except OSError as err:  # made unwritable while grading
        print(f"error: {output_path}: cannot write it ({err.strerror or err})", file=sys.stderr)
        return 2
    print(f"{result.summary()} -> {output_path}", file=sys.stderr)
    return 1 if result.errors else 0
