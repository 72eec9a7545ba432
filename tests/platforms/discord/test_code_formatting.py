"""Code keeps its formatting on Discord (issue #35): a code question's code and its reference implementation
go out as ``` fenced blocks (which Discord renders as code), a long reference split into messages that each
open and close their block; and a fenced answer sent in a DM is stored and graded with its indentation.
Through discord.py and the fake Discord API."""

from __future__ import annotations

import pytest

from bot.content.loader import DEFAULT_CONTENT_DIR, load_file
from bot.kernel.bank import Bank
from bot.kernel.fences import code_blocks, segments
from bot.kernel.models import Question
from bot.platforms.discord.render import MAX_CONTENT, chunks
from tests.fakes import FakeGrader
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness

ATTENTION = DEFAULT_CONTENT_DIR / "stability" / "stab-code-causal-attention-001.yaml"
ANSWER = (
    "```python\n"
    "def causal_attention(q, k, v):\n"
    "    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5\n"
    "    if True:\n"
    "        scores = scores.masked_fill(mask, float('-inf'))\n"
    "    return scores.softmax(-1) @ v\n"
    "```"
)


def code_question() -> Question:
    q, problems = load_file(ATTENTION)
    assert q is not None and problems == []
    return q


@pytest.fixture
def bank() -> Bank:
    return Bank([code_question()])


def balanced(message: str) -> bool:
    """Every fence the message opens, it closes (Discord would otherwise show the rest as code)."""
    return sum(1 for line in message.split("\n") if line.startswith("```")) % 2 == 0


def test_a_long_text_with_code_is_split_into_messages_that_each_close_their_block() -> None:
    body = "\n".join(f"    total = total + step_{i}(x)  # line {i}" for i in range(120))
    text = "Explanation.\n\n```python\ndef f(x):\n" + body + "\n    return total\n```\nThe end."
    parts = chunks(text)
    assert len(parts) == 3 and all(len(m) <= MAX_CONTENT and balanced(m) for m in parts)
    assert all(m.startswith("```python\n") for m in parts[1:])  # reopened with its language
    assert "\n".join(b for m in parts for b in code_blocks(m)) == "def f(x):\n" + body + "\n    return total"
    assert segments(parts[-1])[-1].text == "The end."
    plain = "line\n" * 900
    assert "".join(chunks(plain)).count("line") == 900  # text without code splits as before


async def test_the_question_the_answer_and_the_reference_keep_their_code_on_discord(
    bot: Harness, grader: FakeGrader
) -> None:
    q = code_question()
    await bot.message(p.dm_message("/drill", user_id=5))
    requests = await bot.message(p.dm_message(ANSWER, user_id=5))
    graded = next(r for r in requests if r.path.endswith("/messages"))
    assert "Score: 70/100" in graded.content
    assert grader.calls[-1][1] == ANSWER  # graded as sent: the fence and every indentation
    uid = await bot.user_id(5)
    (attempt,) = await bot.service.deps.store.list_attempts(uid)
    assert attempt.answer == ANSWER

    message = p.message_from(graded.json, channel_id=int(graded.path.split("/")[-2]))
    requests = await bot.interact(p.button(f"drill:ref:{attempt.id}", message, user_id=5, guild_id=None))
    sent = [r.json.get("content") or r.json.get("data", {}).get("content") or "" for r in requests if r.json]
    shown = [s for s in sent if s]
    assert len("\n".join(shown)) > MAX_CONTENT  # the reference needs more than one message
    assert all(len(s) <= MAX_CONTENT and balanced(s) for s in shown)
    (reference_code,) = code_blocks(q.reference_answer.en, "python")
    assert "\n".join(b for s in shown for b in code_blocks(s)) == reference_code
