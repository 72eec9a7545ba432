"""Code questions (issue #35): the schema of a `type: code` file, and every reference implementation in the bank
extracted and run against small checks (shapes, a known value from PyTorch's own function, gradient flow).

The reference code runs here only, in the tests (torch is a dev dependency); the bot never runs code."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from bot.content.loader import DEFAULT_CONTENT_DIR
from bot.content.schema import QuestionFile

EXAMPLE = DEFAULT_CONTENT_DIR / "stability" / "stab-nan-debug-001.yaml"
SOFTMAX = "import torch\n\n\ndef softmax(x):\n    z = x - x.amax(dim=-1, keepdim=True)\n    e = z.exp()\n    return e / e.sum(dim=-1, keepdim=True)"
BUGGY = "import torch\n\n\ndef softmax(x):\n    e = x.exp()\n    return e / e.sum(dim=-1, keepdim=True)"


def code_file(task: str = "write", reference: str = SOFTMAX, prompt_code: str | None = None) -> dict[str, Any]:
    """The worked example turned into a code question (its rubric kept: the schema checks the code parts)."""
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data["type"] = "code"
    data["code"] = {"task": task, "entry": "softmax"}
    for lang, lead in (("en", "The stable version:"), ("zh", "稳定的写法：")):
        data["reference_answer"][lang] = f"{lead}\n\n```python\n{reference}\n```\n"
        if prompt_code is not None:
            data["prompt"][lang] += f"\n\n```python\n{prompt_code}\n```"
    return data


def refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        QuestionFile.model_validate(data)


def test_a_code_question_loads_and_keeps_its_task() -> None:
    q = QuestionFile.model_validate(code_file()).to_question()
    assert q.type == "code" and q.code is not None and (q.code.task, q.code.entry) == ("write", "softmax")
    fix = QuestionFile.model_validate(code_file("fix", prompt_code=BUGGY)).to_question()
    assert fix.code is not None and fix.code.task == "fix"


def test_the_type_and_the_task_go_together() -> None:
    no_task = code_file()
    del no_task["code"]
    refused(no_task, "needs `code: {task, entry}`")
    not_code = {**code_file(), "type": "concept"}
    refused(not_code, "needs `code: {task, entry}`, and only such a question")


def test_the_reference_holds_one_parsed_block_the_same_in_both_languages_defining_the_entry() -> None:
    two = code_file()
    two["reference_answer"]["en"] += "\n```python\nx = 1\n```"
    refused(two, r"reference_answer\.en: a code question needs exactly one ```python block, has 2")
    none = code_file()
    none["reference_answer"]["zh"] = "没有代码。" * 40
    refused(none, r"reference_answer\.zh: .* has 0")
    differ = code_file()
    differ["reference_answer"]["zh"] = differ["reference_answer"]["zh"].replace("amax", "max")
    refused(differ, "differs between zh and en")
    refused(code_file(reference=SOFTMAX.replace("(x):", "(x)")), "does not parse: line 4")
    refused(code_file(reference=SOFTMAX.replace("def softmax", "def soft_max")), "defines no top-level 'softmax'")


def test_a_fix_question_shows_code_that_is_not_the_answer() -> None:
    refused(code_file("fix"), r"prompt\.zh: a code question needs exactly one ```python block, has 0")
    refused(code_file("fix", prompt_code=SOFTMAX), "a fix question's code is the reference implementation itself")
    data = copy.deepcopy(code_file("fix", prompt_code=BUGGY))
    data["code"]["entry"] = "bad name"
    refused(data, "entry")
