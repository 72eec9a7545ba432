"""Code in the bot's texts (bot/kernel/fences.py): fenced blocks found, long texts split without leaving a block
open, and an answer's indentation kept when it is stored."""

from __future__ import annotations

from bot.kernel.fences import balance, code_blocks, fence, has_code, segments, trimmed

CODE = "def f(x):\n    if x:\n        return 1\n    return 0"
TEXT = f"Intro line.\n\n```python\n{CODE}\n```\nAfter the code."


def test_a_fenced_block_is_found_with_its_language_and_indentation() -> None:
    parts = segments(TEXT)
    assert [(s.code, s.language) for s in parts] == [(False, ""), (True, "python"), (False, "")]
    assert parts[1].text == CODE
    assert code_blocks(TEXT, "python") == [CODE] and code_blocks(TEXT, "cpp") == []
    assert has_code(TEXT) and not has_code("Plain `inline` text with ``` inside a line.")


def test_a_block_closes_only_on_a_fence_as_long_and_an_unclosed_one_runs_to_the_end() -> None:
    nested = "````markdown\n```python\nx = 1\n```\n````\nend"
    assert code_blocks(nested) == ["```python\nx = 1\n```"]
    assert segments("text\n```\nx = 1\n    y = 2") == segments("text\n```\nx = 1\n    y = 2\n```")
    assert code_blocks("a\n```\n    y = 2") == ["    y = 2"]


def test_fence_outgrows_the_backticks_inside() -> None:
    body = 'print("```")'
    assert code_blocks(fence(body, "python")) == [body]
    assert fence("x = 1").startswith("```\n")


def test_balance_closes_a_block_at_a_cut_and_reopens_it_after() -> None:
    cut = TEXT.index("        return 1")
    chunks = balance([TEXT[:cut].rstrip("\n"), TEXT[cut:]])
    assert chunks[0].endswith("\n```") and chunks[1].startswith("```python\n        return 1")
    assert code_blocks(chunks[0]) == ["def f(x):\n    if x:"]
    assert code_blocks(chunks[1]) == ["        return 1\n    return 0"]
    assert segments(chunks[1])[-1].text == "After the code."  # the prose after it is prose again
    assert balance(["no code", "here"]) == ["no code", "here"]


def test_an_answer_keeps_its_first_lines_indentation_when_it_has_several_lines() -> None:
    pasted = "\n\n    def f(x):\n        return x  \n\n"
    assert trimmed(pasted) == "    def f(x):\n        return x"
    assert trimmed("   one line answer  ") == "one line answer"
    assert trimmed("  \n  \n") == ""
