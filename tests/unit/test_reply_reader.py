"""The lenient reader's rules and the providers' request forms, each pinned on small inputs (issue #32 item 8)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from bot.config import Settings
from bot.grading.factory import llm_grader
from bot.grading.llm_reply import reply_schema
from bot.grading.providers import (
    ladder,
    next_rung,
    reasoned,
    resolve,
    response_format,
    schema_hint,
    strict_schema,
    token_field,
)
from bot.grading.reply_reader import ReplyError, after_reasoning, check, conform, cut, json_object, relaxed, validated

OBJECT = {"a": 1, "b": "x"}
TEXT = json.dumps(OBJECT)


# --- finding the JSON object ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        TEXT,
        f"```json\n{TEXT}\n```",
        f"```\n{TEXT}\n```",
        f"Here is the grade:\n{TEXT}\nHope it helps {{really}}.",
        f"<think>\nThe answer is {{short}}.\n</think>\n\n{TEXT}",
        f"  <THINK>plan</THINK>{TEXT}",
        f"<Think>plan</think>{TEXT}",
        f"<thinking>a {{b}} c</thinking>\n```json\n{TEXT}\n```",
        f"<reasoning>x</reasoning>{TEXT}",
        f"The template opened the block, so only its end is here.\n</think>\n{TEXT}",
        f"[{TEXT}]",
    ],
    ids=["bare", "fence", "plain-fence", "sentences", "think", "upper-think", "mixed-case-think", "thinking-and-fence", "reasoning",
         "closing-tag-only", "in-a-list"],
)  # fmt: skip
def test_the_object_is_found_in_what_surrounds_it(raw: str) -> None:
    assert json_object(raw) == OBJECT


def test_what_was_dropped_is_noted_and_a_clean_reply_notes_nothing() -> None:
    fixes: list[str] = []
    json_object(TEXT, (), fixes)
    assert fixes == []
    json_object(f"  {TEXT}\n", (), fixes)
    assert fixes == []
    json_object(f"<think>x</think>{TEXT}", (), fixes)
    assert fixes == ["the reply: a reasoning block was dropped"]
    fixes.clear()
    json_object(f"{TEXT} and more", (), fixes)
    assert fixes == ["the reply: text around the JSON object was dropped"]
    fixes.clear()
    json_object(f"So: {TEXT}", (), fixes)
    assert fixes == ["the reply: text around the JSON object was dropped"]


def test_a_draft_inside_the_reasoning_is_not_read_as_the_reply() -> None:
    draft = '{"a": 0, "b": "draft"}'
    assert json_object(f"<think>Draft: {draft}</think>{TEXT}", ["a", "b"]) == OBJECT
    assert json_object(f"Draft: {draft} - no.</think>\n{TEXT}", ["a", "b"]) == OBJECT
    assert json_object(f"Draft: {draft} - no.\n{TEXT}", ["a", "b"]) == {"a": 0, "b": "draft"}  # no tag: the first


@pytest.mark.parametrize("tag", ["think", "thinking", "reasoning", "THINK"])
def test_a_closing_tag_alone_ends_the_reasoning_whatever_its_name(tag: str) -> None:
    assert json_object(f'Draft {{"a": 0, "b": "d"}}</{tag}>{TEXT}', ["a", "b"]) == OBJECT


def test_a_lone_surrogate_does_not_break_the_size_check() -> None:
    assert json_object("\ud800" + TEXT) == OBJECT  # JSON may carry "\ud800"; the size check must not raise


def test_the_next_brace_is_the_very_next_one() -> None:
    assert json_object("{" + TEXT) == OBJECT


def test_a_reasoning_block_with_no_end_is_refused() -> None:
    with pytest.raises(ReplyError) as refused:
        json_object('<think>I will write {"a": 1} next and')
    assert str(refused.value) == "the reply is a reasoning block with no JSON after it"


def test_a_reply_that_starts_as_json_keeps_a_closing_tag_inside_a_string() -> None:
    quoted = {"quote": "the answer ends with </think> and more", "n": {"x": 1}}
    assert json_object(json.dumps(quoted)) == quoted
    assert after_reasoning('```json\n{"q": "</think>"}\n```').startswith("```json")


def test_the_object_with_the_required_keys_is_preferred_to_a_draft_before_it() -> None:
    raw = 'Draft: {"a": 1} then the final one: {"a": 2, "b": "y"}'
    assert json_object(raw, ["a", "b"]) == {"a": 2, "b": "y"}
    assert json_object(raw) == {"a": 1}  # nothing required: the first object
    assert json_object('{"a": 3} and {"c": 4}', ["b"]) == {"a": 3}  # none has them: the first, for the validator


def test_only_the_first_16_braces_are_tried() -> None:
    assert json_object("{x " * 15 + TEXT) == OBJECT
    with pytest.raises(ReplyError, match="not valid JSON"):
        json_object("{x " * 16 + TEXT)


@pytest.mark.parametrize(
    ("raw", "says"),
    [("", "no JSON object in the reply"), ("I cannot grade this.", "no JSON object in the reply"),
     ("[1, 2]", "no JSON object in the reply"), ('"{\\"a\\": 1}"', "not valid JSON (Expecting property name")],
)  # fmt: skip
def test_no_object_is_refused(raw: str, says: str) -> None:
    with pytest.raises(ReplyError) as refused:
        json_object(raw)
    assert str(refused.value).startswith(says)


def test_the_64_kb_cap_comes_before_reading() -> None:
    with pytest.raises(ReplyError, match="64 kB"):
        json_object(" " * (64 * 1024 - len(TEXT) + 1) + TEXT)
    assert json_object(" " * (64 * 1024 - len(TEXT)) + TEXT) == OBJECT
    with pytest.raises(ReplyError, match="64 kB"):  # bytes, not characters: 3 bytes per CJK character
        json_object("好" * 22_000 + TEXT)


def test_the_writers_replies_are_found_leniently_and_validated_exactly() -> None:
    schema = {"type": "object", "additionalProperties": False, "required": ["a"],
              "properties": {"a": {"type": "string", "maxLength": 3}}}  # fmt: skip
    assert validated('<think>x</think>```json\n{"a": "abc"}\n```', schema) == {"a": "abc"}
    assert validated('A draft {"b": 1}, then {"a": "abc"}', schema) == {"a": "abc"}  # the object with its fields
    for bad in ('{"a": "abcd"}', '{"a": "ab", "z": 1}'):
        with pytest.raises(ReplyError):
            validated(bad, schema)
    with pytest.raises(ReplyError) as refused:
        validated("{}", schema)
    assert str(refused.value) == "the reply: 'a' is a required property"
    with pytest.raises(ReplyError) as refused:  # a long message is cut to 200 characters after where it is
        check({"a": "x" * 300}, schema)
    assert str(refused.value) == "a: " + f"'{'x' * 300}' is too long"[:200]


# --- bending a value to its schema -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "most", "expected"),
    [
        ("short enough", 12, "short enough"),
        ("one two three four five", 16, "one two three"),  # the boundary at 13 is in the final third (>= 10)
        ("one two three four five", 21, "one two three four"),
        ("abcdefghij klmnopqrstuvwxyz", 20, "abcdefghij klmnopqrs"),  # the boundary at 10 is too early (< 13)
        ("abcdefghij klmno", 15, "abcdefghij"),  # the boundary at 10 is just late enough (>= 10)
        ("abcdefghij klmnopqrst", 16, "abcdefghij"),  # two thirds of 16, rounded down: 10
        ("abcdefghi jk", 12, "abcdefghi jk"),  # exactly the bound: kept whole
        ("abcdefghij\nklmno", 11, "abcdefghij"),  # no boundary, the cut end stripped
        ("abcdefghijklmno pqrstu", 15, "abcdefghijklmno"),
        ("先查数据，再看梯度范数和激活最大值", 12, "先查数据，再看梯度范数和"),
        ("先查数据和标签，再看梯度范数", 10, "先查数据和标签"),  # cut at the comma (7 >= 6)
    ],
)
def test_an_over_long_string_is_cut_at_a_late_word_boundary(text: str, most: int, expected: str) -> None:
    assert cut(text, most) == expected


@pytest.mark.parametrize("boundary", [" ", "，", "。", "；", "、", ",", ";"])
def test_each_boundary_character_is_one(boundary: str) -> None:
    assert cut(f"abcdefgh{boundary}ijklmnop", 12) == "abcdefgh"


NODE: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["v", "s", "l"],
    "properties": {
        "v": {"type": "string", "enum": ["hit", "missed"]},
        "s": {"type": "string", "minLength": 5, "maxLength": 8},
        "l": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string", "maxLength": 3}},
    },
}  # fmt: skip


def test_conform_reads_enum_case_and_spaces_cuts_strings_and_lists_and_drops_unnamed_fields() -> None:
    fixes: list[str] = []
    got = conform({"v": " HIT ", "s": " abcdefghij ", "l": ["abcd", "b", "c"], "z": 1}, NODE, fixes)
    assert got == {"v": "hit", "s": "abcdefgh", "l": ["abc", "b"]}
    assert fixes == [
        "v: read as 'hit'", "s: 10 characters cut to 8", "l: 3 items cut to 2", "l/0: 4 characters cut to 3",
        "the reply: a field the schema does not name was ignored",
    ]  # fmt: skip
    fixes.clear()
    assert conform({"v": "hit", "s": "ab", "l": ["x", "y"]}, NODE, fixes) == {"v": "hit", "s": "ab", "l": ["x", "y"]}
    assert fixes == []  # a short string is read as it is, unchanged
    assert conform({"v": "hit", "s": "abcdefgh", "l": ["x", "y"]}, NODE, fixes)["s"] == "abcdefgh"
    assert fixes == [] and conform("x", NODE, fixes) == "x"  # exactly the bound; not an object: left for the check
    assert conform({"a": 1}, {"type": "object"}, fixes) == {"a": 1}  # no properties named, none closed
    assert conform([1, "x"], {"type": "array"}, fixes) == [1, "x"] and fixes == []  # no items schema


def test_conform_leaves_what_it_cannot_read_for_the_check() -> None:
    fixes: list[str] = []
    got = conform({"v": "great", "s": None, "l": "x"}, NODE, fixes)
    assert got == {"v": "great", "s": "", "l": "x"} and fixes == ["s: null read as empty"]
    with pytest.raises(ReplyError, match="v: 'great' is not one of"):
        check(got, relaxed(NODE))
    open_node = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert conform({"a": "x", "b": 2}, open_node, fixes) == {"a": "x", "b": 2}  # extra fields allowed there


def test_the_relaxed_schema_keeps_types_enums_and_one_item_where_items_are_needed() -> None:
    loose = relaxed(NODE)
    assert loose["properties"]["s"] == {"type": "string"}
    assert loose["properties"]["l"] == {"type": "array", "minItems": 1, "items": {"type": "string"}}
    assert loose["properties"]["v"]["enum"] == ["hit", "missed"] and loose["required"] == ["v", "s", "l"]
    assert relaxed({"type": "array", "minItems": 0, "items": {}})["minItems"] == 0
    check({"v": "hit", "s": "", "l": ["a"]}, loose)
    with pytest.raises(ReplyError) as refused:
        check({"v": "hit", "s": "", "l": [5]}, loose)
    assert str(refused.value) == "l/0: 5 is not of type 'string'"
    with pytest.raises(ReplyError, match=r"l: .* should be non-empty"):
        check({"v": "hit", "s": "", "l": []}, loose)


# --- the providers ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "base_url", "expected"),
    [
        ("auto", None, "openai"),
        ("auto", "https://api.openai.com/v1", "openai"),
        ("auto", "https://api.deepseek.com", "deepseek"),
        ("auto", "https://api.deepseek.com/v1", "deepseek"),
        ("auto", "https://dashscope.aliyuncs.com/compatible-mode/v1", "dashscope"),
        ("auto", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "dashscope"),
        ("auto", "https://oss.aliyuncs.com/v1", "auto"),
        ("auto", "https://my-openai.com.example.org/v1", "auto"),
        ("auto", "https://notdeepseek.com/v1", "auto"),
        ("auto", "http://127.0.0.1:8080/v1", "auto"),
        ("auto", "", "openai"),
        ("auto", "/v1", "auto"),
        ("vllm", "https://api.deepseek.com", "vllm"),
        ("openai", "http://127.0.0.1:8000/v1", "openai"),
    ],
)
def test_auto_names_the_provider_only_from_a_known_host(provider: Any, base_url: str | None, expected: str) -> None:
    assert resolve(provider, base_url) == expected


def test_each_provider_has_its_ladder_and_the_output_mode_narrows_it() -> None:
    assert ladder("auto", "auto") == ("json_schema", "strict_schema", "json_object")
    assert ladder("openai", "auto") == ("strict_schema", "json_object")
    assert ladder("deepseek", "auto") == ladder("dashscope", "auto") == ("json_object",)
    assert (
        ladder("ollama", "auto")
        == ladder("vllm", "auto")
        == ladder("llamacpp", "auto")
        == ("json_schema", "json_object")
    )
    assert ladder("openai", "json_schema") == ("strict_schema",)
    assert ladder("auto", "json_schema") == ("json_schema", "strict_schema")
    assert ladder("deepseek", "json_schema") == ("json_schema",)
    assert ladder("vllm", "json_object") == ("json_object",)


def test_the_strict_safe_schema_is_tried_only_after_a_refusal_about_the_schema() -> None:
    auto = ladder("auto", "auto")
    openai_words = "Invalid schema for response_format 'grade': In context=(), 'minLength' is not permitted."
    assert next_rung(auto, 0, openai_words) == 1
    assert next_rung(auto, 0, "'maxLength' is NOT PERMITTED here") == 1
    assert next_rung(auto, 0, "Invalid schema for response_format 'grade'") == 1
    assert next_rung(auto, 0, "This response_format type is unavailable now") == 2
    assert next_rung(auto, 1, openai_words) == 2
    assert next_rung(auto, 2, openai_words) is None
    assert next_rung(("json_object",), 0, "anything") is None


def test_the_strict_safe_schema_drops_keywords_not_property_names() -> None:
    schema = {
        "type": "object", "additionalProperties": False, "required": ["format", "pattern", "n", "l"],
        "properties": {
            "format": {"type": "string", "minLength": 1, "maxLength": 9, "format": "date"},
            "pattern": {"type": "string", "pattern": "^a$"},
            "n": {"type": "integer", "minimum": 0, "maximum": 3, "exclusiveMinimum": 0, "exclusiveMaximum": 4,
                  "multipleOf": 1},
            "l": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "maxLength": 4}},
        },
    }  # fmt: skip
    assert strict_schema(schema) == {
        "type": "object", "additionalProperties": False, "required": ["format", "pattern", "n", "l"],
        "properties": {"format": {"type": "string"}, "pattern": {"type": "string"}, "n": {"type": "integer"},
                       "l": {"type": "array", "items": {"type": "string"}}},
    }  # fmt: skip
    assert schema["properties"]["l"]["maxItems"] == 2  # the original is untouched


def test_each_format_asks_for_what_its_name_says() -> None:
    schema = reply_schema(["a"], ["f1"], "en")
    assert response_format("json_object", schema, "grade") == {"type": "json_object"}
    full = response_format("json_schema", schema, "grade")
    assert full == {"type": "json_schema", "json_schema": {"name": "grade", "schema": schema, "strict": True}}
    strict = response_format("strict_schema", schema, "grade")["json_schema"]
    assert strict["schema"] == strict_schema(schema) and strict["strict"] is True and strict["name"] == "grade"
    hint = schema_hint(schema)
    assert hint.startswith("\n\nReply with only one JSON object") and json.loads(hint.split("\n")[-1]) == schema
    assert '", "' not in hint and '": ' not in hint and "好" in schema_hint({"enum": ["好"]})  # compact, as written
    assert token_field("openai") == "max_completion_tokens"
    assert token_field("auto") == token_field("vllm") == token_field("deepseek") == "max_tokens"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"content": '{"a": 1}'}, False),
        ({"content": None}, False),
        ({"content": '{"a": 1}', "reasoning_content": "because"}, True),
        ({"content": '{"a": 1}', "reasoning": "because"}, True),
        ({"content": '{"a": 1}', "reasoning_content": ""}, False),
        ({"content": "  <think>x</think>{}"}, True),
        ({"content": "<Thinking>x</Thinking>{}"}, True),
        ({"content": "<reasoning>x</reasoning>{}"}, True),
        ({"content": "opened by the template</think>{}"}, True),
        ({"content": "I think {}"}, False),
        ({"content": "<think>cut off before it ended"}, True),
        ({"content": "  <thinking>cut off"}, True),
        ({}, False),
    ],
)
def test_a_reasoning_model_is_recognised(message: dict[str, Any], expected: bool) -> None:
    assert reasoned(SimpleNamespace(**message)) is expected


def test_the_provider_setting_reaches_the_grader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM_MODEL", "m")
    monkeypatch.setenv("LLM_BASE_URL", "https://api.deepseek.com")
    grader = llm_grader(Settings(_env_file=None).llm)  # type: ignore[call-arg]
    assert grader is not None and grader.provider == "deepseek" and grader.formats == ("json_object",)
    monkeypatch.setenv("LLM__PROVIDER", "vllm")
    grader = llm_grader(Settings(_env_file=None).llm)  # type: ignore[call-arg]
    assert grader is not None and grader.provider == "vllm" and grader.format == "json_schema"
    monkeypatch.setenv("LLM__PROVIDER", "gemini")
    with pytest.raises(ValueError, match="provider"):
        Settings(_env_file=None)  # type: ignore[call-arg]
