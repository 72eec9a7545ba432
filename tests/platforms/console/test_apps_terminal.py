"""An application board in the terminal (`python -m bot chat`) with no tokens: the real bank, an SQLite file;
applications moved through their stages, interviews and /review questions logged at a company (under an
alias), and the insights that come from them; the board's PNG saved by the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.bot_env import bot_env
from tests.sqlite_template import sqlite_url

SCRIPT = [
    "/apps add ByteDance | LLM infra",
    "/apps add 阿里 | pretraining",
    "/apps add Baidu | ERNIE",
    "/apps 1 一面",
    "/apps 3 rejected",
    "/interview 字节 | LLM infra | tomorrow 10:00",
    "/review ByteDance | How do you debug a loss that suddenly becomes NaN in training?",
    "/review 字节跳动 | How does ZeRO-3 partition optimizer states, gradients and parameters?",
    "/apps 1 note they asked about FSDP",
    "/apps 1 remind 7",
    "/apps",
    "/apps insights",
    "/apps 1",
]


def test_an_application_board_in_the_terminal_with_no_tokens(tmp_path: Path) -> None:
    env = bot_env(DATABASE_URL=sqlite_url(tmp_path), LOG_LEVEL="WARNING")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "chat"], input="\n".join(SCRIPT), capture_output=True, text=True, cwd=tmp_path,
        env=env, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    board = out[out.index("Application board: open 2, closed 1") :]
    assert "#1 ByteDance · LLM infra · Technical round 1 · 0 days · 1 interview, 2 questions" in board
    assert "#2 Alibaba · pretraining · Applied" in board and "Closed: Rejected 1 (#3 Baidu)" in board
    insights = out[out.index("What your interviews asked (1 interview, 2 questions)") :]
    assert "By company:\n- ByteDance:" in insights and "By stage:\n- Technical round 1:" in insights
    assert "For your next round at #1 ByteDance, prepare these" in insights and "\n3. " in insights
    shown = out[out.index("Stages: Applied") :]
    assert "they asked about FSDP" in shown and "Follow-up reminder:" in shown
    [png] = (tmp_path / "data" / "exports").glob("apps-*.png")  # the board's PNG, saved by the terminal
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
