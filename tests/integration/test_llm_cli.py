"""The CLI around LLM grading: batch grading through the fake server, and `python -m bot usage`."""

from __future__ import annotations

import asyncio
import csv
import sys
from pathlib import Path

from bot.bootstrap import build_app
from bot.config import Settings
from bot.kernel.scoring import total_score
from bot.storage.usage import usage_by_day
from tests.bot_env import bot_env
from tests.fake_openai import FakeOpenAI, Fault
from tests.fakes import FakeClock
from tests.sqlite_template import sqlite_url

ROOT = Path(__file__).resolve().parents[2]


async def run_cli(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env={**bot_env(), **env},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode or 0, out.decode(), err.decode()


# an answer that states the reference (the fake model credits a long answer's points; the quote check keeps them)
WARMUP = " ".join(
    ["Adam's early updates are noisy while its moment estimates settle, so a warmup keeps them small."] * 3
)


async def test_batch_grades_concurrently_with_the_llm_and_falls_back(server: FakeOpenAI, tmp_path: Path) -> None:
    src, dst = tmp_path / "in.csv", tmp_path / "out.csv"
    with src.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "question", "reference_answer", "answer"])
        for i in range(6):
            w.writerow([f"r{i}", "Why warm up?", "Adam's early updates are noisy; warmup keeps them small.", WARMUP])
    server.script.append(Fault("status", 500))  # one row's LLM call fails (no retries): offline grade
    env = {"LLM_BASE_URL": server.base_url, "LLM_API_KEY": "k", "LLM_MODEL": "fake-model", "LLM__RETRIES": "0"}
    code, _out, err = await run_cli("grade", "--input", str(src), "--output", str(dst), "--grader", "llm",
                                    "--concurrency", "3", env=env)  # fmt: skip
    assert code == 0, err
    with dst.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["id"] for r in rows] == [f"r{i}" for i in range(6)]
    graders = sorted(r["grader"] for r in rows)
    assert graders.count("llm:fake-model") == 5 and graders.count("offline") == 1
    full = total_score(
        {"coverage": 100, "structure": 90, "specificity": 90, "evidence": 90, "correctness": 100}, "concept"
    )
    assert all(r["score"] == str(full) for r in rows if r["grader"] == "llm:fake-model")
    assert "sk-" not in err and "k\n" not in err


async def test_grader_llm_without_configuration_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "in.csv").write_text("question,reference_answer,answer\nq,r,a\n", encoding="utf-8")
    env = {"LLM_MODEL": "", "LLM_BASE_URL": "", "LLM_API_KEY": "", "OPENAI_API_KEY": ""}
    code, _out, err = await run_cli("grade", "--input", str(tmp_path / "in.csv"), "--output",
                                    str(tmp_path / "o.csv"), "--grader", "llm", env=env)  # fmt: skip
    assert code == 2 and "LLM_MODEL" in err


class LLMLikeGrader:
    id = "llm:fake"

    async def grade(self, question, answer, lang, level="engineer"):  # type: ignore[no-untyped-def]
        from tests.fakes import FakeGrader

        g = await FakeGrader().grade(question, answer, lang, level)
        return g.model_copy(update={"grader": "llm:fake", "tokens": 1200})


async def test_usage_counts_llm_gradings_and_tokens_per_day(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path)
    clock = FakeClock()
    app = await build_app(Settings(database_url=db, _env_file=None), grader=LLMLikeGrader(), clock=clock, fuzz=False)  # type: ignore[call-arg]
    uid = (await app.service.user_for("console", "local")).id
    for _ in range(2):
        await app.service.handle_text(uid, "/drill")
        await app.service.handle_text(uid, "an answer")
        clock.advance(days=1)
    rows = await usage_by_day(app.engines, days=30, now=clock.now())
    await app.close()
    assert rows == [("2026-03-02", 1, 1200), ("2026-03-03", 1, 1200)]
    code, out, _err = await run_cli("usage", "--days", "100000", env={"DATABASE_URL": db})
    assert code == 0 and "2026-03-02" in out and "2400" in out
