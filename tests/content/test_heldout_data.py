"""The held-out agreement set (tests/data/heldout_answers.yaml) is well-formed, and the bench that reads it runs.

The file is measurement data (issue #32, item 9): these tests check its shape, never its scores against a grader.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.bot_env import bot_env
from tests.fake_openai import FakeOpenAI, Fault, answer_in, default_grade, request_text
from tests.shipped import shipped_by_id

ROOT = Path(__file__).resolve().parents[2]
HELDOUT = ROOT / "tests" / "data" / "heldout_answers.yaml"
DEV = ROOT / "tests" / "data" / "grading_dev.yaml"
FIELDS = {"question_id", "lang", "rubric_lang", "kind", "score", "why", "answer"}
KINDS = {
    "confidently_wrong",
    "correct_paraphrase",
    "case_story",
    "code_switched",
    "partial",
    "strong",
    "cross_language",
}
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    loaded = yaml.safe_load(HELDOUT.read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


@pytest.fixture(scope="module")
def bank() -> dict[str, Any]:
    return shipped_by_id()


def test_every_entry_has_valid_fields_and_a_bank_question(rows: list[dict[str, Any]], bank: dict[str, Any]) -> None:
    for i, row in enumerate(rows):
        where = f"entry {i} ({row.get('question_id')})"
        assert set(row) == FIELDS, where
        assert row["question_id"] in bank, where
        assert row["lang"] in ("en", "zh", "mixed"), where
        assert row["rubric_lang"] in ("en", "zh"), where
        assert row["kind"] in KINDS, where
        assert type(row["score"]) is int and 0 <= row["score"] <= 100, where
        assert isinstance(row["why"], str) and 20 <= len(row["why"].strip()) <= 400, where
        assert isinstance(row["answer"], str) and len(row["answer"].strip()) >= 40, where


def test_languages_match_what_the_entries_say(rows: list[dict[str, Any]], bank: dict[str, Any]) -> None:
    """An en answer has no Chinese, a zh one is Chinese, a mixed one both; kinds agree with languages."""
    for i, row in enumerate(rows):
        answer, where = row["answer"], f"entry {i} ({row['question_id']}, {row['kind']})"
        cjk = len(CJK.findall(answer))
        if row["lang"] == "en":
            assert cjk == 0, where
        elif row["lang"] == "zh":
            assert cjk > 40, where
        else:
            assert cjk > 40 and len(LATIN_WORD.findall(answer)) >= 5, where
        if row["kind"] == "cross_language":
            assert row["lang"] in ("en", "zh") and row["lang"] != row["rubric_lang"], where
        else:
            assert row["rubric_lang"] == ("zh" if row["lang"] == "mixed" else row["lang"]), where
        if row["kind"] == "code_switched":
            assert row["lang"] == "mixed", where
        if row["kind"] == "case_story":
            assert bank[row["question_id"]].type == "case", where


def test_the_set_is_large_and_varied_enough(rows: list[dict[str, Any]], bank: dict[str, Any]) -> None:
    assert len(rows) >= 36
    kinds = Counter(r["kind"] for r in rows)
    assert set(kinds) == KINDS and min(kinds.values()) >= 4, kinds
    assert {r["lang"] for r in rows} == {"en", "zh", "mixed"}
    questions = [bank[qid] for qid in {r["question_id"] for r in rows}]
    assert len(questions) >= 12
    assert {q.topic for q in questions} >= {"stability", "pipeline"}
    assert {q.type for q in questions} == {"concept", "compare", "fault", "open", "case"}
    assert len({q.level for q in questions}) >= 2
    bands = Counter(next(b for b in (0, 40, 65, 85)[::-1] if r["score"] >= b) for r in rows)
    assert set(bands) == {0, 40, 65, 85}, bands  # every band of the fair score is measured


def test_the_answers_are_new(rows: list[dict[str, Any]], bank: dict[str, Any]) -> None:
    """Held out: no answer repeats another, the development set's or a bank reference answer."""
    answers = [" ".join(r["answer"].split()) for r in rows]
    assert len(set(answers)) == len(answers)
    dev = {" ".join(r["answer"].split()) for r in yaml.safe_load(DEV.read_text(encoding="utf-8"))}
    references = {" ".join(text.split()) for q in bank.values() for text in q.reference_answer.model_dump().values()}
    assert not set(answers) & (dev | references)
    dev_questions = {r["question_id"] for r in yaml.safe_load(DEV.read_text(encoding="utf-8"))}
    assert not {r["question_id"] for r in rows} & dev_questions  # questions the grader was not tuned on


def test_the_header_says_it_is_not_for_tuning() -> None:
    head = HELDOUT.read_text(encoding="utf-8").split("\n- ", 1)[0].lower()
    assert "kept apart from tuning" in head and "before any grader" in head


async def run_bench(*args: str) -> dict[str, Any]:
    """bench/grade_agreement.py in a subprocess (none of the developer's LLM settings inherited): its last line."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "bench/grade_agreement.py", *args, cwd=ROOT, env=bot_env(),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 300)
    assert proc.returncode == 0, err.decode()[-2000:]
    last = out.decode().strip().splitlines()[-1]
    result = json.loads(last)
    assert isinstance(result, dict)
    return result


def check_figures(report: dict[str, Any], n: int) -> None:
    overall = report["overall"]
    assert overall["n"] == n
    assert 0 <= overall["mad"] <= 100 and 0 <= overall["changed"] <= 1
    assert set(report["bands"]) == {"0-39", "40-64", "65-84", "85-100"}  # quick grades one answer per band
    assert sum(b["n"] for b in report["bands"].values()) == n
    assert sum(g["n"] for g in report["langs"].values()) == n
    below = report["bands"]["0-39"]
    assert below["n_below_40"] == 1 and below["pass_below_40"] in (0.0, 1.0)


async def test_the_quick_bench_prints_its_figures_as_json() -> None:
    result = await run_bench("--quick")
    assert result["bench"] == "grade_agreement" and result["quick"] is True
    for name in ("dev", "heldout"):
        check_figures(result["offline"][name], 4)
    assert result["llm"] is None and result["llm_skipped"]
    assert result["targets"] == {
        "estimate_never_rates": True,
        "pass_below_40": 0.25,
        "changed": 0.5,
        "mad_85_100": 15.0,
        "language_gap": 10.0,
        "overfit_gap": 10.0,
    }
    assert result["met"]["estimate_never_rates"] is True  # by construction: an estimate never rates a card
    assert set(result["met"]) == set(result["targets"])
    assert result["ok"] is all(v is True for v in result["met"].values())


def short_quotes(body: dict[str, Any]) -> dict[str, Any]:
    """The fake model's reply with quotes short enough for a Chinese answer's bound."""
    reply = default_grade(body)
    for verdict in reply.get("key_points", {}).values():
        verdict["quote"] = verdict["quote"][:20]
    return reply


async def test_the_llm_table_comes_from_the_llm_over_http(server: FakeOpenAI) -> None:
    """The fake model marks every point of an answer over 200 characters hit, and the quote check keeps the points
    whose quotes state them. So the held-out set's first failing answer (confidently wrong, 698 characters, in the
    rubric's own words) is a pass by the LLM, and the target on that is reported as missed; its first partial answer
    (fair 48, Hard; 215 characters) keeps its rating, graded 4 points off (before the quote check needed a quote
    that states its point, every point was credited and it was Easy). A grading that fails is a fallback: counted,
    and left out of the figures."""
    server.grade_fn = short_quotes
    server.script.append(Fault("status", 500))  # the dev set's first answer
    result = await run_bench("--quick", "--llm", server.base_url, "--model", "fake-model")
    graded = {answer_in(request_text(body)) for body in server.chat_requests()}
    assert len(graded) == 8  # 4 answers per set, each sent to the model (a second look may send one again)
    dev, heldout = result["llm"]["dev"], result["llm"]["heldout"]
    assert dev["model"] == heldout["model"] == "fake-model"
    assert len(dev["fallbacks"]) == 1 and dev["overall"]["n"] == 3
    assert heldout["fallbacks"] == []
    check_figures(heldout, 4)
    assert heldout["overall"]["pass_below_40"] == 1.0
    assert (heldout["bands"]["40-64"]["mad"], heldout["bands"]["40-64"]["changed"]) == (4.0, 0.0)
    assert result["met"]["llm_pass_below_40"] is False and result["met"]["llm_fallbacks"] is True
    assert result["targets"]["llm_pass_below_40"] == 0.1 and result["ok"] is False
