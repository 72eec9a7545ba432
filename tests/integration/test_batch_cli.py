"""`python -m bot grade`: columns kept in order, scores added, malformed input refused with exit 2;
bank questions by question_id, per-row errors (exit 1) and visible fallbacks to the offline grade."""

from __future__ import annotations

import csv
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.grading.batch import BatchInputError, fallback_reason, read_rows, run_batch
from bot.kernel.models import Grade, Lang, Level, Question
from tests.bot_env import bot_env
from tests.fakes import FakeGrader
from tests.shipped import shipped_by_id

ROOT = Path(__file__).resolve().parents[2]
NAN_ID = "stab-nan-debug-001"
BATTERY_Q = "Why does a battery go flat?"
BATTERY_REF = "The chemical energy in the battery is used up."
SECRET = "sk-test-do-not-print-4f9c2a7e1b"


def grade(
    tmp_path: Path, content: bytes, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], Path]:
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_bytes(content)
    cmd = [sys.executable, "-m", "bot", "grade", "--input", str(src), "--output", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120, env=env or bot_env()), out


def test_grades_and_keeps_other_columns(tmp_path: Path) -> None:
    rows = [
        ["id", "question", "reference_answer", "answer", "label"],
        ["a1", "Why does a battery go flat?", "The chemical energy in the battery is used up.",
         "Its chemical energy is used up over time.", "correct"],
        ["a2", "Why does a battery go flat?", "The chemical energy in the battery is used up.",
         "Because it is blue.", "incorrect"],
    ]  # fmt: skip
    with (tmp_path / "src.csv").open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    result, out = grade(tmp_path, (tmp_path / "src.csv").read_bytes())
    assert result.returncode == 0, result.stderr
    with out.open(encoding="utf-8") as fh:
        graded = list(csv.DictReader(fh))
    assert list(graded[0].keys())[:5] == rows[0]
    assert [r["id"] for r in graded] == ["a1", "a2"] and graded[1]["label"] == "incorrect"
    assert {"score", "coverage", "structure", "specificity", "evidence", "correctness", "grader"} <= set(graded[0])
    assert int(graded[0]["score"]) > int(graded[1]["score"])
    assert graded[0]["grader"] == "offline"


def test_missing_column_empty_file_and_bad_encoding_exit_2(tmp_path: Path) -> None:
    result, _ = grade(tmp_path, b"question,answer\nq,a\n")
    assert result.returncode == 2 and "missing column(s): reference_answer" in result.stderr
    result, _ = grade(tmp_path, b"")
    assert result.returncode == 2 and "empty" in result.stderr
    result, _ = grade(tmp_path, "question,reference_answer,answer\nq,r,\xe9t\xe9\n".encode("latin-1"))
    assert result.returncode == 2 and "not UTF-8" in result.stderr
    result, _ = grade(tmp_path, b"question,reference_answer,answer\nq,r,a,extra\n")
    assert result.returncode == 2 and "more fields" in result.stderr


def write_csv(path: Path, rows: list[list[str]]) -> bytes:
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path.read_bytes()


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def nan_reference() -> str:
    bank = shipped_by_id()
    return bank[NAN_ID].reference_answer.en


def test_question_id_row_is_graded_against_the_bank_rubric(tmp_path: Path) -> None:
    # blank question and reference_answer: only the bank question can make the reference answer score high
    content = write_csv(
        tmp_path / "src.csv",
        [["question_id", "question", "reference_answer", "answer"], [NAN_ID, "", "", nan_reference()],
         [NAN_ID, "", "", "I would restart the job and hope."]],
    )  # fmt: skip
    result, out = grade(tmp_path, content)
    assert result.returncode == 0, result.stderr
    graded = read_csv(out)
    assert int(graded[0]["score"]) >= 85 and int(graded[1]["score"]) < 40
    assert [g["error"] for g in graded] == ["", ""] and [g["fallback_reason"] for g in graded] == ["", ""]
    assert graded[0]["grader"] == "offline"


def test_question_id_alone_replaces_question_and_reference_columns(tmp_path: Path) -> None:
    content = write_csv(tmp_path / "src.csv", [["question_id", "answer"], [NAN_ID, nan_reference()]])
    result, out = grade(tmp_path, content)
    assert result.returncode == 0, result.stderr
    assert int(read_csv(out)[0]["score"]) >= 85


def test_unknown_question_id_is_an_error_row_and_exit_1_while_others_are_graded(tmp_path: Path) -> None:
    content = write_csv(
        tmp_path / "src.csv",
        [["id", "question_id", "question", "reference_answer", "answer"],
         ["a1", "xyz", "", "", "Some answer."],
         ["a2", NAN_ID, "", "", nan_reference()],
         ["a3", "", BATTERY_Q, BATTERY_REF, "Its chemical energy is used up over time."]],
    )  # fmt: skip
    result, out = grade(tmp_path, content)
    assert result.returncode == 1, result.stderr
    graded = read_csv(out)
    assert [g["id"] for g in graded] == ["a1", "a2", "a3"]
    assert graded[0]["error"] == "unknown question_id 'xyz'"
    assert graded[0]["score"] == "" and graded[0]["grader"] == ""
    assert int(graded[1]["score"]) >= 85 and graded[1]["error"] == ""
    assert graded[2]["score"] != "" and graded[2]["error"] == ""
    assert "WARNING" in result.stderr and "row 1" in result.stderr and "unknown question_id 'xyz'" in result.stderr
    assert "graded 2 answers" in result.stderr and "1 row not graded" in result.stderr


def test_mix_of_free_rows_and_question_id_rows(tmp_path: Path) -> None:
    wrong = "Because it is blue."
    rows = [
        {"question_id": "", "question": BATTERY_Q, "reference_answer": BATTERY_REF,
         "answer": "Its chemical energy is used up over time."},
        {"question_id": NAN_ID, "question": "", "reference_answer": "", "answer": nan_reference()},
        {"question_id": "", "question": BATTERY_Q, "reference_answer": BATTERY_REF, "answer": wrong},
        # the bank rubric wins over the row's own question and reference answer
        {"question_id": NAN_ID, "question": BATTERY_Q, "reference_answer": BATTERY_REF,
         "answer": "The chemical energy in the battery is used up."},
        {"question_id": "", "question": "", "reference_answer": BATTERY_REF, "answer": "x"},
    ]  # fmt: skip
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    write_csv(src, [list(rows[0]), *[list(r.values()) for r in rows]])
    assert run_batch(src, out, "en", bank=shipped_by_id) == 1  # the last row has no question
    graded = read_csv(out)
    scores = [int(g["score"]) if g["score"] else None for g in graded]
    assert scores[0] is not None and scores[2] is not None and scores[0] > scores[2]
    assert scores[1] is not None and scores[1] >= 85
    assert scores[3] is not None and scores[3] < 40  # graded against the NaN rubric, not the battery one
    assert scores[4] is None and graded[4]["error"] == "missing question (or a question_id)"
    assert [g["error"] for g in graded[:4]] == ["", "", "", ""]


def test_header_needs_answer_and_question_columns_unless_question_id(tmp_path: Path) -> None:
    assert read_rows(_file(tmp_path, "question_id,answer\nx,a\n"))[0] == ["question_id", "answer"]
    with pytest.raises(BatchInputError, match=r"missing column\(s\): answer "):
        read_rows(_file(tmp_path, "question_id,question,reference_answer\nx,q,r\n"))
    with pytest.raises(BatchInputError, match=r"missing column\(s\): question, reference_answer .*question_id"):
        read_rows(_file(tmp_path, "answer\na\n"))


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "h.csv"
    path.write_text(text, encoding="utf-8")
    return path


class TimingOutGrader:
    """A primary grader whose every call times out, as a slow LLM endpoint does."""

    id = "llm:fake-model"

    def __init__(self) -> None:
        self.calls = 0

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        self.calls += 1
        raise TimeoutError("Request timed out.")


class LeakyGrader:
    """Fails with a message that quotes the answer and an API key, as a careless SDK error might."""

    id = "llm:leaky"

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        raise RuntimeError(f"rejected {answer!r} with key sk-proj-abcdefghijklmnop1234")


def test_a_grader_that_times_out_falls_back_visibly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    write_csv(src, [["question", "reference_answer", "answer"],
                    [BATTERY_Q, BATTERY_REF, "Its chemical energy is used up over time."],
                    [BATTERY_Q, BATTERY_REF, "Because it is blue."]])  # fmt: skip
    fake = TimingOutGrader()
    with caplog.at_level(logging.WARNING, logger="bot.grading.batch"):
        assert run_batch(src, out, "en", fake) == 0
    assert fake.calls == 2
    graded = read_csv(out)
    assert [g["grader"] for g in graded] == ["offline", "offline"]
    assert [g["fallback_reason"] for g in graded] == ["TimeoutError: Request timed out."] * 2
    assert all(g["score"] and g["error"] == "" for g in graded)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and r.name == "bot.grading.batch"]
    assert len(warnings) == 2
    assert {"row 1", "row 2"} == {m.getMessage().split(":")[0] for m in warnings}
    assert all("llm:fake-model" in w.getMessage() and "TimeoutError" in w.getMessage() for w in warnings)
    err = capsys.readouterr().err
    assert "graded 2 answers: 2 fell back to offline (2 timeout)" in err


def test_primary_grader_rows_have_no_fallback_reason_and_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    write_csv(src, [["question", "reference_answer", "answer"], [BATTERY_Q, BATTERY_REF, "Chemical energy."]])
    assert run_batch(src, out, "en", FakeGrader(score=70)) == 0
    graded = read_csv(out)
    assert graded[0]["grader"] == "fake" and graded[0]["fallback_reason"] == "" and graded[0]["score"] == "70"
    assert "graded 1 answer: 1 by fake" in capsys.readouterr().err


def test_fallback_reason_never_carries_the_answer_or_a_key(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    answer = "my private answer about batteries and their chemistry"
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    write_csv(src, [["question", "reference_answer", "answer"], [BATTERY_Q, BATTERY_REF, answer]])
    with caplog.at_level(logging.WARNING, logger="bot.grading.batch"):
        assert run_batch(src, out, "en", LeakyGrader()) == 0
    reason = read_csv(out)[0]["fallback_reason"]
    assert reason.startswith("RuntimeError: ") and len(reason) <= 140
    for text in (reason, caplog.text):
        assert "private answer" not in text and "sk-proj" not in text and "abcdefghijklmnop" not in text
    long = fallback_reason(ValueError("x" * 10 + " " + "y" * 500), "")
    assert len(long) <= len("ValueError: ") + 120


def test_cli_logs_llm_fallbacks_to_stderr_without_the_key(tmp_path: Path) -> None:
    # nothing listens on port 9: every row is a connection error, graded offline
    env = {**bot_env(), "LLM_BASE_URL": "http://127.0.0.1:9/v1", "LLM_MODEL": "m", "LLM_API_KEY": SECRET,
           "LLM__RETRIES": "0", "LLM__TIMEOUT": "5"}  # fmt: skip
    content = write_csv(tmp_path / "src.csv", [["question_id", "answer"], [NAN_ID, nan_reference()]])
    result, out = grade(tmp_path, content, env)
    assert result.returncode == 0, result.stderr
    graded = read_csv(out)[0]
    assert graded["grader"] == "offline" and graded["fallback_reason"].startswith("APIConnectionError")
    assert "WARNING" in result.stderr and "row 1: grader llm:m failed" in result.stderr
    assert "graded 1 answer: 1 fell back to offline (1 connection)" in result.stderr
    assert SECRET not in result.stderr and SECRET not in out.read_text(encoding="utf-8")


def test_an_output_folder_that_does_not_exist_is_a_clear_error_before_any_grading(tmp_path: Path) -> None:
    write_csv(tmp_path / "in.csv", [["question", "reference_answer", "answer"], [BATTERY_Q, BATTERY_REF, "x"]])
    out = tmp_path / "missing" / "dir" / "graded.csv"
    cmd = [sys.executable, "-m", "bot", "grade", "--input", str(tmp_path / "in.csv"), "--output", str(out)]
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120, env=bot_env())
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"error: {out}: the folder {out.parent} does not exist" in result.stderr
    assert run_batch(tmp_path / "in.csv", tmp_path, "en") == 2  # a folder is no output file either
