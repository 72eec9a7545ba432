"""Code in the terminal (`python -m bot chat`, issue #35): a multi-line answer between two lines of three double
quotes keeps every line's indentation, in what is stored and graded; a code question's reference prints its
implementation as a fenced block, indented as written; the offline check reads the code's statements as an
answer, not as a list of terms."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.content.loader import DEFAULT_CONTENT_DIR, load_file
from bot.kernel.fences import code_blocks
from tests.bot_env import bot_env
from tests.sqlite_template import migrated_copy

QUESTION = DEFAULT_CONTENT_DIR / "stability" / "stab-code-rmsnorm-001.yaml"
CODE = [
    "class RMSNorm(nn.Module):",
    "    def forward(self, x):",
    "        x32 = x.float()",
    "        inv_rms = torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + 1e-6)",
    "        return (x32 * inv_rms).to(x.dtype) * self.weight",
]


def test_a_code_answer_in_a_triple_quote_block_keeps_its_indentation(tmp_path: Path) -> None:
    bank = tmp_path / "bank" / "stability"
    bank.mkdir(parents=True)
    shutil.copy(QUESTION, bank / QUESTION.name)  # a bank of one code question: /drill asks it
    script = "\n".join(["/drill", '"""', *CODE, '"""', "/reveal"]) + "\n"
    db = migrated_copy(tmp_path / "bot.db")
    env = bot_env(DATABASE_URL=f"sqlite+aiosqlite:///{db}", LOG_LEVEL="WARNING", CONTENT_DIR=str(tmp_path / "bank"))
    result = subprocess.run(
        [sys.executable, "-m", "bot", "chat"], input=script, capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "· code ·" in out and "stab-code-rmsnorm-001" in out and 'between two lines of """' in out
    with sqlite3.connect(db) as conn:
        (answer,) = conn.execute("SELECT answer FROM attempts").fetchone()
    assert answer == "\n".join(CODE)  # stored as typed: every line, every indentation
    assert "a list of terms" not in out  # the offline check read statements, not a keyword list
    assert "Found 0 of" not in out
    q, _ = load_file(QUESTION)
    assert q is not None
    (reference,) = code_blocks(q.reference_answer.en, "python")
    assert f"```python\n{reference}\n```" in out  # the implementation printed as a block, indented as written
