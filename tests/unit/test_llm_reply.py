"""The reply schema and its reader agree on every bank question, the bounds hold in the schema and are read
leniently, and numbers are derived in code from verdicts."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from bot.grading.llm_reply import (
    BOUNDS,
    MAX_MISTAKES,
    Mistake,
    PointVerdict,
    Reply,
    ReplyError,
    parse_reply,
    reply_schema,
    token_bound,
)
from bot.grading.llm_verdicts import LEVEL_SCORE, PENALTY, combine, derive, quoted
from bot.kernel.models import KeyPoint, Text, TextList
from tests.shipped import shipped_questions


def extreme(schema: dict[str, Any], longest: bool) -> Any:
    """The smallest (or largest) instance the schema allows."""
    if "enum" in schema:
        return max(schema["enum"], key=len) if longest else schema["enum"][0]
    kind = schema["type"]
    if kind == "object":
        return {k: extreme(v, longest) for k, v in schema["properties"].items()}
    if kind == "array":
        n = schema.get("maxItems", 2) if longest else schema.get("minItems", 0)
        return [extreme(schema["items"], longest) for _ in range(n)]
    if kind == "string":
        text = "长" * schema.get("maxLength", 50) if longest else "x" * schema.get("minLength", 0)
        return text[:-1] + "?" if "pattern" in schema else text
    raise AssertionError(kind)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_bank_question_has_a_schema_whose_extremes_validate(lang: str) -> None:
    for q in shipped_questions():
        ids = [k.id for k in q.rubric.key_points]
        for follow in ([f"f{i + 1}" for i in range(len(q.follow_ups))], []):
            schema = reply_schema(ids, follow, lang)  # type: ignore[arg-type]
            for longest in (False, True):
                reply = parse_reply(json.dumps(extreme(schema, longest), ensure_ascii=False), schema)
                assert [p.id for p in reply.points] == ids
            big = json.dumps(extreme(schema, True), ensure_ascii=False, separators=(",", ":"))
            # max_tokens covers the longest reply even at one token per character of Chinese
            assert token_bound(schema, lang) >= len(big) * (1.0 if lang == "zh" else 0.3)  # type: ignore[arg-type]


def base() -> dict[str, Any]:
    return {
        "key_points": {"a": {"quote": "", "verdict": "missed"}, "b": {"quote": "", "verdict": "missed"}},
        "mistakes": [], "structure": "none", "specificity": "none", "evidence": "none",
        "feedback": "f" * BOUNDS["en"].feedback[0], "follow_up": "f1",
    }  # fmt: skip


SCHEMA = reply_schema(["a", "b"], ["f1"], "en")


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r["key_points"].pop("b"),
        lambda r: r["key_points"].update(c={"quote": "", "verdict": "hit"}),
        lambda r: r["key_points"]["a"].update(verdict="yes"),
        lambda r: r["key_points"]["a"].update(verdict="great"),
        lambda r: r["key_points"]["a"].pop("verdict"),
        lambda r: r["key_points"]["a"].update(quote=5),
        lambda r: r.update(mistakes=[{"claim": "wrong claim", "severity": "fatal"}]),
        lambda r: r.update(structure="excellent"),
        lambda r: r.pop("evidence"),
        lambda r: r.update(mistakes="none"),
    ],
    ids=["missing-id", "extra-id", "bad-verdict", "great-verdict", "verdict-missing", "quote-a-number", "bad-severity",
         "bad-level", "missing-field", "mistakes-not-a-list"],
)  # fmt: skip
def test_the_reader_refuses_what_would_change_the_grade(change: Any) -> None:
    parse_reply(json.dumps(base()), SCHEMA)  # the base reply is valid
    reply = base()
    change(reply)
    with pytest.raises(ReplyError):
        parse_reply(json.dumps(reply), SCHEMA)


def test_the_reader_reads_what_differs_only_in_form() -> None:
    """Issue #32 item 8: these were refused (and repaired, then thrown away) before; each is now read, and what
    was changed is noted."""
    reply = base()
    long_quote = "keeps early Adam updates small while the second moment estimate is still very noisy"  # 84
    reply["key_points"] = {"a": {"quote": long_quote, "verdict": " HIT "}, "b": {"quote": None, "verdict": "Missed"}}
    reply.update(feedback="f" * 25, follow_up="F1 ", structure="Strong", specificity=" fair", score=100)
    reply["mistakes"] = [{"claim": "c" * 130, "severity": "Minor", "why": "x"}] + [
        {"claim": f"wrong claim {i}", "severity": "serious"} for i in range(3)
    ]
    parsed = parse_reply(json.dumps(reply), SCHEMA)
    assert parsed.points == (
        PointVerdict("a", "hit", "keeps early Adam updates small while the second moment"),  # 55: a word boundary
        PointVerdict("b", "missed", ""),
    )
    assert parsed.feedback == "f" * 25 and parsed.follow_up == "f1"
    assert parsed.levels == {"structure": "strong", "specificity": "fair", "evidence": "none"}
    assert parsed.mistakes == (Mistake("c" * 100, "minor"), Mistake("wrong claim 0", "serious"),
                               Mistake("wrong claim 1", "serious"))  # fmt: skip
    assert parsed.fixes == (
        "follow_up: read as 'f1'", "key_points/a/quote: 83 characters cut to 60", "key_points/a/verdict: read as 'hit'",
        "key_points/b/quote: null read as empty", "key_points/b/verdict: read as 'missed'", "mistakes: 4 items cut to 3",
        "mistakes/0/claim: 130 characters cut to 100", "mistakes/0/severity: read as 'minor'",
        "mistakes/0: a field the schema does not name was ignored", "structure: read as 'strong'",
        "specificity: read as 'fair'", "the reply: a field the schema does not name was ignored",
    )  # fmt: skip


def test_an_unknown_bank_follow_up_is_dropped_and_an_empty_mistake_too() -> None:
    reply = {**base(), "follow_up": "f2", "mistakes": [{"claim": " ", "severity": "serious"}]}
    parsed = parse_reply(json.dumps(reply), SCHEMA)
    assert parsed.follow_up == "" and parsed.mistakes == ()
    assert parsed.follow_up_points == () and parsed.follow_up_reference == ""  # none written for a bank question
    assert parsed.fixes == ("follow_up: not one of the bank follow-ups; none is offered",
                            "mistakes: an empty claim was dropped")  # fmt: skip
    with pytest.raises(ReplyError):  # a follow-up still has to be a string
        parse_reply(json.dumps({**base(), "follow_up": 1}), SCHEMA)


def test_a_key_point_id_written_differently_is_read_as_the_questions_id() -> None:
    reply = base()
    reply["key_points"] = {" A": {"quote": "", "verdict": "missed"}, "b": {"quote": "", "verdict": "missed"}}
    parsed = parse_reply(json.dumps(reply), SCHEMA)
    assert [p.id for p in parsed.points] == ["a", "b"]
    assert parsed.fixes == ("key_points: 'a' read from a differently written id",)
    reply["key_points"] = {"a": {"quote": "", "verdict": "missed"}, "c" * 50: {"quote": "", "verdict": "hit"}}
    with pytest.raises(ReplyError) as refused:
        parse_reply(json.dumps(reply), SCHEMA)
    assert str(refused.value) == f"key_points: {'c' * 40!r} is not one of the ids ['a', 'b']"


def test_a_reply_over_64_kb_is_refused_before_parsing() -> None:
    with pytest.raises(ReplyError, match="64 kB"):
        parse_reply(" " * (64 * 1024 + 1) + json.dumps(base()), SCHEMA)
    exactly = json.dumps(base())
    assert parse_reply(" " * (64 * 1024 - len(exactly)) + exactly, SCHEMA)  # 64 kB itself is allowed


def test_a_code_fence_is_tolerated() -> None:
    parsed = parse_reply("```json\n" + json.dumps(base()) + "\n```", SCHEMA)
    assert parsed.follow_up == "f1" and parsed.fixes == ("the reply: text around the JSON object was dropped",)


def test_text_around_the_reply_object_and_a_reasoning_block_are_dropped() -> None:
    """Text before the object was refused before issue #32 item 8; now what surrounds the object is dropped."""
    assert parse_reply(json.dumps(base()) + '\n{"follow_up": "other"} and more', SCHEMA).follow_up == "f1"
    assert parse_reply("Here it is: " + json.dumps(base()) + " Hope it helps.", SCHEMA).follow_up == "f1"
    thought = "<think>\nThe answer names {warmup} but not the variance.\n</think>\n\n"
    assert parse_reply(thought + json.dumps(base()), SCHEMA).follow_up == "f1"
    with pytest.raises(ReplyError, match="no JSON object"):
        parse_reply("I cannot grade this answer.", SCHEMA)


POINTS = [
    KeyPoint(id="a", weight=3, text=Text.same("a"), keywords=TextList()),
    KeyPoint(id="b", weight=1, text=Text.same("b"), keywords=TextList()),
]
ANSWER = "Warmup keeps early Adam updates small while the second moment is noisy; 2000 steps."


def reply(a: str, b: str, quote_a: str = "early Adam updates small", mistakes: tuple[Mistake, ...] = ()) -> Reply:
    return Reply(
        points=(PointVerdict("a", a, quote_a), PointVerdict("b", b, "2000 steps")),
        mistakes=mistakes,
        levels={"structure": "strong", "specificity": "fair", "evidence": "weak"},
        feedback="ok",
        follow_up="f1",
    )


def test_coverage_weights_verdicts_and_partial_counts_half() -> None:
    dims, _ = derive(reply("hit", "missed"), ANSWER, POINTS)
    assert dims["coverage"] == 75
    dims, _ = derive(reply("partial", "hit"), ANSWER, POINTS)
    assert dims["coverage"] == pytest.approx(100 * (3 * 0.5 + 1) / 4)
    assert (dims["structure"], dims["specificity"], dims["evidence"]) == (
        LEVEL_SCORE["strong"], LEVEL_SCORE["fair"], LEVEL_SCORE["weak"],
    )  # fmt: skip
    assert LEVEL_SCORE["none"] < LEVEL_SCORE["weak"] < LEVEL_SCORE["fair"] < LEVEL_SCORE["strong"]


def test_correctness_loses_a_fixed_amount_per_mistake_by_severity() -> None:
    two = (Mistake("wrong", "serious"), Mistake("vague", "minor"))
    dims, _ = derive(reply("hit", "hit", mistakes=two), ANSWER, POINTS)
    assert dims["correctness"] == 100 - PENALTY["serious"] - PENALTY["minor"]
    assert PENALTY["serious"] > PENALTY["minor"] > 0
    many = tuple(Mistake("wrong", "serious") for _ in range(3))
    assert derive(reply("hit", "hit", mistakes=many), ANSWER, POINTS)[0]["correctness"] == 0


def test_a_quote_not_in_the_answer_lowers_the_verdict_one_step() -> None:
    _, credit = derive(reply("hit", "hit", quote_a="loss scaling factor 65536"), ANSWER, POINTS)
    assert credit == {"a": 0.5, "b": 1.0}
    _, credit = derive(reply("partial", "hit", quote_a="loss scaling factor 65536"), ANSWER, POINTS)
    assert credit["a"] == 0.0


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        ("early Adam updates small", True),
        ("Early  Adam updates, small", True),  # case, spacing and punctuation do not matter
        ("keeps early Adam updates tiny", True),  # 4 of 5 words
        ("keeps the loss scale at 65536", False),
        ("", False),
        ("二阶矩", False),
    ],
)
def test_quote_matching(quote: str, found: bool) -> None:
    assert quoted(quote, ANSWER) is found


def test_quote_matching_in_chinese() -> None:
    assert quoted("二阶矩估计噪声大", "前期二阶矩估计噪声大，所以要预热。")
    assert not quoted("梯度裁剪", "前期二阶矩估计噪声大，所以要预热。")


def test_samples_average_credit_and_show_the_closest_sample() -> None:
    replies = [reply("hit", "hit"), reply("missed", "hit"), reply("hit", "hit")]
    derived, shown = combine(replies, ANSWER, POINTS)
    assert derived.verdicts["a"][0] == "partial"  # mean credit 2/3: between 0.25 and 0.75
    assert derived.verdicts["b"][0] == "hit" and derived.dimensions["coverage"] == round((100 + 25 + 100) / 3)
    assert shown in (0, 2)


def test_a_written_follow_up_is_a_question_in_the_schema_and_read_when_it_is_not() -> None:
    schema = reply_schema(["a", "b"], [], "en")
    reply = {**base(), "follow_up": "What threshold would you pick, and why?",
             "follow_up_points": ["names a threshold", "explains why"], "follow_up_reference": "r" * 40}  # fmt: skip
    assert parse_reply(json.dumps(reply), schema).follow_up.endswith("?")
    pattern = jsonschema.Draft202012Validator(schema["properties"]["follow_up"])
    assert pattern.is_valid("Would you pick 'max-norm' clipping, and why?")
    # the pattern a grammar server enforces: a quote or backslash in the class let llama.cpp's grammar close the
    # JSON string early (`f1"}，？"`)
    for bad in ("Pick a threshold and explain it.", "Why?", "What threshold?\nAnd why?",
                'f1"}, why would you pick it?', "Is C:\\clip the threshold you pick?"):  # fmt: skip
        assert not pattern.is_valid(bad), bad
    # a provider that does not enforce it: the follow-up is read as written (it is not part of the verdict)
    assert parse_reply(json.dumps({**reply, "follow_up": "Pick a threshold."}), schema).follow_up == "Pick a threshold."
    one_point = {**reply, "follow_up_points": ["names a threshold"]}
    assert parse_reply(json.dumps(one_point), schema).follow_up_points == ("names a threshold",)
    with pytest.raises(ReplyError):  # a list the schema needs items in still needs one
        parse_reply(json.dumps({**reply, "follow_up_points": []}), schema)
    zh = reply_schema(["a", "b"], [], "zh")
    assert parse_reply(json.dumps({**reply, "follow_up": "你会怎么选阈值？", "feedback": "反馈" * 6}), zh)


def strings(node: dict[str, Any]) -> list[dict[str, Any]]:
    if node.get("type") == "string":
        return [node]
    if node.get("type") == "object":
        return [s for child in node["properties"].values() for s in strings(child)]
    if node.get("type") == "array":
        return strings(node["items"])
    return []


@pytest.mark.parametrize("follow_ups", [["f1", "f2"], []])
def test_every_string_is_bounded_and_verdicts_come_before_everything_else(follow_ups: list[str]) -> None:
    from bot.grading.rubric_writer import RUBRIC_SCHEMA

    schema = reply_schema(["a", "b"], follow_ups, "en")
    for node in strings(schema) + strings(RUBRIC_SCHEMA):
        assert "enum" in node or "maxLength" in node, node
    assert next(iter(schema["properties"])) == "key_points"
    # the model gives no number at all: every number is derived in code
    assert not any(n.get("type") in ("integer", "number") for n in schema["properties"].values())


@pytest.mark.parametrize("qtype", ["concept", "fault", "compare", "open", "case"])
def test_each_types_graded_example_is_a_valid_reply(qtype: str) -> None:
    from bot.grading.prompts import load_prompts

    text = load_prompts().types[qtype]
    example = text.split("Reply: ", 1)[1].strip()
    reply = parse_reply(example, reply_schema(["k1", "k2", "k3"], ["f1"], "en"))
    answer = text.split("Answer: ", 1)[1].split("\nReply: ", 1)[0]
    for point in reply.points:  # the examples quote the answer, never the rubric
        assert point.verdict == "missed" or quoted(point.quote, answer), (qtype, point)


def test_a_quote_cut_mid_word_by_its_length_bound_still_counts() -> None:
    assert quoted("early Adam upd", ANSWER)  # the grammar stops a quote at maxLength, mid-word
    assert not quoted("early Adam upd", "late Adam steps")


def test_sample_thresholds_and_the_shown_quote() -> None:
    hit, miss = reply("hit", "hit"), reply("missed", "hit")
    three_of_four, _ = combine([hit, hit, hit, miss], ANSWER, POINTS)
    one_of_four, _ = combine([hit, miss, miss, miss], ANSWER, POINTS)
    none, _ = combine([miss, miss], ANSWER, POINTS)
    assert three_of_four.verdicts["a"] == ("hit", "early Adam updates small")  # mean credit 0.75
    assert one_of_four.verdicts["a"] == ("partial", "early Adam updates small")  # 0.25
    assert none.verdicts["a"] == ("missed", "")


def nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every schema node, this one first."""
    children = list(node.get("properties", {}).values()) + ([node["items"]] if "items" in node else [])
    return [node] + [n for child in children for n in nodes(child)]


@pytest.mark.parametrize("follow_ups", [["f1", "f2"], []])
def test_every_node_is_typed_every_object_closed_and_complete_and_every_array_bounded(follow_ups: list[str]) -> None:
    """What strict structured output needs, and what a grammar built from the schema enforces: a type on every
    node, no extra or missing fields in any object, no unbounded list."""
    schema = reply_schema(["a", "b"], follow_ups, "zh")
    for node in nodes(schema):
        assert node["type"] in ("object", "array", "string"), node
        if node["type"] == "object":
            assert node["additionalProperties"] is False and node["required"] == list(node["properties"]), node
        if node["type"] == "array":
            assert node["maxItems"] >= 1, node
    mistake = schema["properties"]["mistakes"]
    assert mistake["maxItems"] == MAX_MISTAKES and mistake["items"]["properties"]["claim"]["minLength"] == 3
    reply = {**base(), "key_points": {**base()["key_points"], "a": {"quote": "", "verdict": "missed", "why": "x"}}}
    fixes = parse_reply(json.dumps(reply), SCHEMA).fixes  # a field the schema does not name, inside a verdict
    assert fixes == ("key_points/a: a field the schema does not name was ignored",)


def test_a_parsed_reply_keeps_each_mistake_and_the_written_follow_ups_points_and_reference() -> None:
    schema = reply_schema(["a", "b"], [], "en")
    reply = {**base(), "mistakes": [{"claim": " bf16 needs loss scaling ", "severity": "serious"}],
             "follow_up": "What threshold would you pick, and why?",
             "follow_up_points": [" names a threshold ", "explains why"], "follow_up_reference": " r" + "r" * 40 + " "}  # fmt: skip
    parsed = parse_reply(json.dumps(reply), schema)
    assert parsed.mistakes == (Mistake("bf16 needs loss scaling", "serious"),)
    assert parsed.follow_up_points == ("names a threshold", "explains why")
    assert parsed.follow_up_reference == "r" * 41


def test_the_bounds_a_grammar_server_enforces_are_in_the_schema_sent() -> None:
    """The reader relaxes them, so only the schema itself pins them (llama.cpp, vLLM and Ollama enforce them)."""
    en, zh = reply_schema(["a"], [], "en")["properties"], reply_schema(["a"], [], "zh")["properties"]
    assert en["feedback"] == {"type": "string", "minLength": 30, "maxLength": 200}
    assert zh["feedback"] == {"type": "string", "minLength": 12, "maxLength": 100}
    assert en["follow_up"] == {"type": "string", "minLength": 15, "maxLength": 160,
                               "pattern": '^[^\\n"\\\\]{14,159}[?？]$'}  # fmt: skip
    assert zh["follow_up"]["pattern"] == '^[^\\n"\\\\]{7,79}[?？]$'
    assert en["follow_up_points"] == {"type": "array", "minItems": 2, "maxItems": 3,
                                      "items": {"type": "string", "minLength": 8, "maxLength": 100}}  # fmt: skip
    assert en["key_points"]["properties"]["a"]["properties"]["quote"] == {"type": "string", "maxLength": 60}
    # max_tokens from the same bounds: enums at half a token a character, strings at the language's rate
    assert token_bound(reply_schema(["a"], ["f1"], "en"), "en") == 526
    assert token_bound(reply_schema(["a", "b"], [], "zh"), "zh") == 1246


def test_a_draft_before_the_reply_is_not_read_as_it() -> None:
    draft = {"key_points": {"a": {"quote": "", "verdict": "hit"}}, "structure": "strong"}  # not every field yet
    parsed = parse_reply(f"Draft: {json.dumps(draft)}\nFinal: {json.dumps(base())}", SCHEMA)
    assert parsed.levels["structure"] == "none" and parsed.fixes == (
        "the reply: text around the JSON object was dropped",
    )


def test_quote_matching_needs_seven_words_in_ten() -> None:
    answer = "one two three four five six seven"
    assert quoted("one two three four five six seven eight nine ten", answer)  # 7 of 10: 0.7
    assert not quoted("one two three four five six eight nine ten eleven", answer)  # 6 of 10


def test_a_missed_verdict_shows_no_quote_and_a_point_left_out_gets_no_credit() -> None:
    missed = Reply(points=(PointVerdict("a", "missed", "early Adam updates small"),), mistakes=(),
                   levels={"structure": "weak", "specificity": "weak", "evidence": "weak"}, feedback="", follow_up="")  # fmt: skip
    dims, credit = derive(missed, ANSWER, POINTS)
    assert credit == {"a": 0.0, "b": 0.0} and dims["coverage"] == 0
    derived, _ = combine([missed], ANSWER, POINTS)
    assert derived.verdicts == {"a": ("missed", ""), "b": ("missed", "")}


def test_a_point_most_samples_miss_shows_no_quote_and_the_closest_sample_is_shown() -> None:
    hit, miss = reply("hit", "hit"), reply("missed", "hit")
    derived, _ = combine([hit, miss, miss, miss, miss], ANSWER, POINTS)  # mean credit 0.2
    assert derived.verdicts["a"] == ("missed", "")
    _, shown = combine([reply("missed", "missed"), hit, hit], ANSWER, POINTS)
    assert shown == 1  # the first of the two closest to the mean, not the first sample
