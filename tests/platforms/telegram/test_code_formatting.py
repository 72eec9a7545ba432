"""Code keeps its formatting on Telegram (issue #35): a code question's code and its reference implementation
reach the chat as `<pre><code class="language-python">` blocks with their indentation, long ones split into
messages that each parse; and code a user sends as a code block (a `pre` entity) is stored and graded as a
fenced block, indentation intact. Through the real python-telegram-bot and the fake Bot API."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import MessageEntity

from bot.content.loader import DEFAULT_CONTENT_DIR, load_file
from bot.kernel.bank import Bank
from bot.kernel.fences import code_blocks
from bot.kernel.models import Question
from bot.platforms.telegram.render import fenced, split_text, to_html, utf16_len
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness
from tests.platforms.telegram.fake_bot_api import visible_html

CHAT = 611
FIX = DEFAULT_CONTENT_DIR / "stability" / "stab-code-logsoftmax-fix-001.yaml"
ANSWER_CODE = (
    "def cross_entropy(logits, target):\n"
    "    log_probs = logits - torch.logsumexp(logits, dim=-1, keepdim=True)\n"
    "    if target.dim() == 1:\n"
    "        target = target.unsqueeze(-1)\n"
    "    return -log_probs.gather(-1, target).mean()"
)


def code_question() -> Question:
    q, problems = load_file(FIX)
    assert q is not None and problems == []
    return q


@pytest.fixture
def bank() -> Bank:
    return Bank([code_question()])


def test_a_fenced_block_becomes_pre_code_with_its_language_and_the_rest_stays_escaped() -> None:
    text = 'Check `a < b` first:\n\n```python\nif a < b and c > d:\n    x = "&"\n```\nDone & dusted.'
    html = to_html(text)
    assert '<pre><code class="language-python">if a &lt; b and c &gt; d:\n    x = "&amp;"</code></pre>' in html
    assert "Check `a &lt; b` first:" in html and "Done &amp; dusted." in html  # a backtick in a line: as written
    shown = visible_html(html)  # what the user sees: no fences, the indentation kept
    assert '    x = "&"' in shown and "```" not in shown
    assert visible_html(to_html("no code < here")) == "no code < here"


def test_a_long_reference_is_split_into_messages_that_each_show_their_code_as_code() -> None:
    body = "\n".join(f"    total = total + step_{i}(x)  # line {i}" for i in range(200))
    text = "Explanation first.\n\n```python\ndef f(x):\n    total = 0\n" + body + "\n    return total\n```\nThe end."
    parts = split_text(text)
    assert len(parts) == 3
    for part in parts:
        html = to_html(part)
        visible_html(html)  # parses: every <pre><code> it opens, it closes
        assert utf16_len(visible_html(html)) <= 4096
        assert html.count("<pre><code") == html.count("</code></pre>") == 1
    code = "\n".join(b for part in parts for b in code_blocks(part))
    assert code == "def f(x):\n    total = 0\n" + body + "\n    return total"  # every line, indentation intact
    assert visible_html(to_html(parts[-1])).endswith("The end.")


def test_a_pre_entity_comes_back_as_a_fence_counting_utf16_units() -> None:
    text = "😀 my fix:\n" + ANSWER_CODE + "\nthat's it"
    offset = utf16_len("😀 my fix:\n")
    entity = MessageEntity(MessageEntity.PRE, offset, utf16_len(ANSWER_CODE), language="python")
    out = fenced(text, [entity])
    assert out == "😀 my fix:\n```python\n" + ANSWER_CODE + "\n```\nthat's it"
    bold = MessageEntity(MessageEntity.BOLD, 0, 2)
    assert fenced("plain", [bold]) == "plain"  # other formatting: plain text, as before


def code_message(chat_id: int, intro: str, code: str) -> dict[str, Any]:
    """A text message whose code is a Telegram code block (a `pre` entity with a language)."""
    update = updates.text(chat_id, intro + code)
    entity = {"type": "pre", "offset": utf16_len(intro), "length": utf16_len(code), "language": "python"}
    update["message"]["entities"] = [entity]
    return update


async def test_a_code_question_its_answer_and_its_reference_keep_their_code_on_telegram(tg: Harness) -> None:
    q = code_question()
    (question,) = await tg.say(CHAT, "/drill")
    html = question.params["text"]
    assert '<pre><code class="language-python">import torch' in html
    assert "        # logits: (N, C) raw scores" not in question.text  # not indented twice
    assert "    probs = torch.exp(logits) / torch.exp(logits).sum(dim=-1)" in question.text  # indentation kept
    assert "```" not in question.text

    (graded,) = await tg.deliver(code_message(CHAT, "My fix:\n", ANSWER_CODE))
    attempt_id = int(graded.actions[0].split(":")[1])
    attempt = await tg.app.store.get_attempt(attempt_id)
    assert attempt is not None
    assert attempt.answer == "My fix:\n```python\n" + ANSWER_CODE + "\n```"  # stored as code, indentation intact
    assert tg.grader.calls[-1][1] == attempt.answer  # and graded as such

    sent = await tg.press(CHAT, f"ref:{attempt_id}")
    html = "\n".join(s.params["text"] for s in sent)
    shown = "\n".join(s.text for s in sent)
    (reference_code,) = code_blocks(q.reference_answer.en, "python")
    assert html.count('<pre><code class="language-python">') == 1
    assert reference_code in shown  # every line of the implementation, with its indentation
