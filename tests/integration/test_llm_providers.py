"""Real providers' replies are read, not thrown away (issue #32 item 8): the real LLMGrader, through the real
`openai` client, against a fake of each provider on 127.0.0.1 (tests/fake_providers.py)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import openai
import pytest

from bot.grading.llm import REASONING_TOKENS, LLMGrader
from bot.grading.llm_reply import reply_schema, token_bound
from bot.grading.prompts import load_prompts
from bot.grading.providers import response_format, strict_schema
from bot.grading.rubric_writer import RUBRIC_SCHEMA
from bot.grading.star_writer import STAR_SCHEMA
from bot.grading.tightener import TIGHTEN_SCHEMA
from bot.kernel.ports import GraderUnavailable
from tests.conftest import example_question
from tests.fake_openai import FakeOpenAI, Fault
from tests.fake_providers import JsonModeOnly, OpenAIStrict, Reasoning, fakes, model_reply, openai_strict_error
from tests.provider_matrix import SETTINGS, answers, run
from tests.shipped import shipped_questions

IDS = [k.id for k in example_question().rubric.key_points]
LONG = (
    "First I check the data: the batch that produced the NaN, out-of-range token ids. Then per-layer gradient "
    "norms and activations with anomaly detection; then the learning rate and warmup; FP16 overflow, so BF16."
)
THOUGHT = "The rubric wants {id: verdict}; the answer states some points and not others. Quote them."
QUOTE_80 = "First I check the data: the batch that produced the NaN, out-of-range token ids."  # 80 characters


def grader_for(server: FakeOpenAI, provider: Any = "auto", **kw: Any) -> LLMGrader:
    client = openai.AsyncOpenAI(base_url=server.base_url, api_key="test-key", timeout=5, max_retries=0)
    return LLMGrader(client, "fake-model", provider=provider, **kw)


def reply(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "key_points": {k: {"quote": "", "verdict": "missed"} for k in IDS},
        "mistakes": [], "structure": "fair", "specificity": "fair", "evidence": "fair",
        "feedback": "A clear order of checks; name the thresholds you used.", "follow_up": "f1",
    }  # fmt: skip
    base.update(changes)
    return base


# --- the matrix -------------------------------------------------------------------------------------------------

MATRIX = [(fake, setting) for fake, settings in SETTINGS.items() for setting in settings]
REFUSES_THE_FIRST_FORM = {("openai", "auto"), ("deepseek", "auto"), ("dashscope", "auto")}
FORMAT = {"openai": "strict_schema", "deepseek": "json_object", "dashscope": "json_object"}


@pytest.mark.parametrize(("fake", "setting"), MATRIX, ids=[f"{f}-{s}" for f, s in MATRIX])
async def test_each_provider_grades_12_answers_with_no_repair_and_no_fallback(fake: str, setting: Any) -> None:
    items = answers()
    assert len(items) == 12
    outcome = await run(fake, setting, items)
    assert (outcome.gradings, outcome.repairs, outcome.fallbacks) == (12, 0, 0)
    assert outcome.meaning_kept == 12 and outcome.follow_ups == 12  # the verdicts and mistakes the model meant
    # a refused form costs one request, once in the process
    assert outcome.requests == 12 + ((fake, setting) in REFUSES_THE_FIRST_FORM)
    expected = "json_object" if setting == "deepseek" else FORMAT.get(fake, "json_schema")
    assert outcome.format == expected


def test_the_matrix_answers_mean_what_they_say() -> None:
    items = answers()
    assert sorted({(a.lang, bool(a.question.follow_ups)) for a in items}) == [("en", False), ("en", True),
                                                                              ("zh", True)]  # fmt: skip
    hits = [list(a.meant.values()).count("hit") for a in items]
    assert min(hits) == 1 and any(h == len(a.meant) for h, a in zip(hits, items, strict=True))
    assert sum(a.mistakes for a in items) >= 3  # listed mistakes the answers make, to be reported


def body_for(item: Any, fmt: dict[str, Any]) -> dict[str, Any]:
    messages = load_prompts().messages(item.question, item.text, item.lang, "engineer", "answer_abcd1234")
    return {"messages": messages, "response_format": fmt}


@pytest.mark.parametrize("name", ["openai", "deepseek", "dashscope", "reasoning"])
def test_the_fakes_replies_are_imperfect_in_form_as_their_providers_are(name: str) -> None:
    """The matrix proves something only if the fakes' replies are imperfect: each of these replies, at either
    count, is one the exact reader (the schema, after json.loads) refused before issue #32 item 8."""
    item = answers()[0]
    schema = reply_schema([k.id for k in item.question.rubric.key_points], ["f1", "f2"], "en")
    fmt = (
        {"type": "json_object"}
        if name in ("deepseek", "dashscope")
        else response_format("strict_schema", schema, "grade")
    )
    strict = jsonschema.Draft202012Validator(schema)
    for count in (0, 1):
        content, extra = fakes()[name].shape(body_for(item, fmt), model_reply(body_for(item, fmt)), count)
        try:
            refused = not strict.is_valid(json.loads(content))
        except json.JSONDecodeError:
            refused = True
        assert refused, (name, count)
        if name == "reasoning":
            assert content.startswith("<think>") if count == 0 else extra == {"reasoning_content": THOUGHT}


async def test_a_think_block_a_code_fence_and_an_80_character_quote_are_each_read(server: FakeOpenAI) -> None:
    assert len(QUOTE_80) == 80
    hit = reply(key_points={**reply()["key_points"], IDS[0]: {"quote": QUOTE_80, "verdict": "hit"}})
    grader = grader_for(server)
    draft = json.dumps(reply(structure="strong"))  # a draft inside the reasoning is not the answer
    thought = f"<think>\nThe answer checks {{data}} first. Draft: {draft}\nNo: the order is loose.\n</think>\n"
    server.script.append(Fault("content", content=thought + json.dumps(reply())))
    server.script.append(Fault("content", content="```json\n" + json.dumps(reply()) + "\n```"))
    server.script.append(Fault("content", content=json.dumps(hit)))
    think = await grader.grade(example_question(), LONG, "en")
    fence = await grader.grade(example_question(), LONG, "en")
    quote = await grader.grade(example_question(), LONG, "en")
    assert len(server.chat_requests()) == 3 and grader.counts["repairs"] == 0 and grader.counts["fallbacks"] == 0
    assert think.grader == fence.grader == "llm:fake-model" and think.dimensions["structure"] == 65
    first = quote.key_points[0]
    assert first.verdict == "hit"  # cut at a word boundary it is still the answer's words: not lowered
    assert first.evidence == "First I check the data: the batch that produced the NaN,"


@pytest.mark.parametrize(
    "bad",
    [
        json.dumps(reply(key_points={**reply()["key_points"], "invented": {"quote": "", "verdict": "hit"}})),
        json.dumps(reply(key_points={k: v for k, v in reply()["key_points"].items() if k != IDS[1]})),
        json.dumps(reply(key_points={**reply()["key_points"], IDS[0]: {"quote": "the data", "verdict": "great"}})),
        "I would rate this answer 7 out of 10: it checks the data first.",
    ],
    ids=["unknown-id", "missing-id", "verdict-great", "no-json"],
)
async def test_what_would_change_the_verdict_is_refused_repaired_then_thrown(server: FakeOpenAI, bad: str) -> None:
    server.script.append(Fault("content", content=bad))
    grader = grader_for(server)
    grade = await grader.grade(example_question(), LONG, "en")  # the repair's reply is good
    assert grader.counts["repairs"] == 1 and grader.counts["fallbacks"] == 0 and grade.grader == "llm:fake-model"
    _, second = server.chat_requests()
    assert "could not be used" in second["messages"][-1]["content"]
    server.script.extend([Fault("content", content=bad)] * 2)
    with pytest.raises(GraderUnavailable, match="after repair"):
        await grader.grade(example_question(), LONG, "en")
    assert grader.counts["repairs"] == 2 and grader.counts["fallbacks"] == 1 and grader.counts["gradings"] == 2


# --- the forms the providers are asked for -----------------------------------------------------------------------


async def test_openai_is_sent_a_schema_strict_mode_takes_and_max_completion_tokens(server: FakeOpenAI) -> None:
    server.provider = OpenAIStrict()
    await grader_for(server, "openai").grade(example_question(), LONG, "en")
    (body,) = server.chat_requests()
    sent = body["response_format"]["json_schema"]
    full = reply_schema(IDS, ["f1", "f2"], "en")
    assert sent["strict"] is True and sent["schema"] == strict_schema(full)
    assert "max_tokens" not in body and body["max_completion_tokens"] == token_bound(full, "en")


async def test_auto_learns_from_openais_refusal_once(server: FakeOpenAI) -> None:
    server.provider = OpenAIStrict()
    grader = grader_for(server)
    await grader.grade(example_question(), LONG, "en")
    await grader.grade(example_question(), LONG, "en")
    first, second, third = server.chat_requests()
    assert "maxLength" in json.dumps(first["response_format"]) and "maxLength" not in json.dumps(second)
    assert second["response_format"] == third["response_format"] and grader.format == "strict_schema"
    assert grader.counts["repairs"] == 0 and grader.counts["fallbacks"] == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_schema_the_grader_sends_openai_is_one_strict_mode_takes(lang: str) -> None:
    for q in shipped_questions():
        ids = [k.id for k in q.rubric.key_points]
        for follow in ([f"f{i + 1}" for i in range(len(q.follow_ups))], []):
            full = reply_schema(ids, follow, lang)  # type: ignore[arg-type]
            assert openai_strict_error(full, "grade") is not None  # the full one is refused ...
            assert openai_strict_error(strict_schema(full), "grade") is None  # ... the strict-safe one taken
    for schema in (RUBRIC_SCHEMA, STAR_SCHEMA, TIGHTEN_SCHEMA):
        assert openai_strict_error(strict_schema(schema), "writer") is None


@pytest.mark.parametrize("name", ["deepseek", "dashscope"])
async def test_json_mode_providers_get_the_schema_in_the_prompt(server: FakeOpenAI, name: str) -> None:
    server.provider = JsonModeOnly(name)
    server.grade_fn = model_reply
    item = answers()[0]
    grader = grader_for(server, name)
    await grader.grade(item.question, item.text, item.lang)
    (body,) = server.chat_requests()
    assert body["response_format"] == {"type": "json_object"}
    hint = body["messages"][-1]["content"].rsplit("\n", 1)[-1]
    schema = reply_schema(
        [k.id for k in item.question.rubric.key_points], ["f1", "f2"][: len(item.question.follow_ups)], "en"
    )
    assert json.loads(hint) == schema and body["messages"][0]["content"] == grader.prompts.static_prefix("fault")
    assert grader.counts["repairs"] == 0


@pytest.mark.parametrize("status", [400, 422])
async def test_auto_steps_down_to_json_mode_on_a_refusal_and_remembers(server: FakeOpenAI, status: int) -> None:
    server.script.append(Fault("status", status))  # DeepSeek once answered 422 "json_schema is unavailable now"
    grader = grader_for(server)
    await grader.grade(example_question(), LONG, "en")
    await grader.grade(example_question(), LONG, "en")
    kinds = [r["response_format"]["type"] for r in server.chat_requests()]
    assert kinds == ["json_schema", "json_object", "json_object"] and grader.format == "json_object"
    assert grader.counts["repairs"] == 0 and grader.counts["fallbacks"] == 0


async def test_a_request_refused_in_every_form_is_a_failure_and_changes_nothing(server: FakeOpenAI) -> None:
    server.script.extend([Fault("status", 400)] * 2)  # e.g. a prompt over the context: no format helps
    grader = grader_for(server)
    with pytest.raises(GraderUnavailable, match="bad request: 400"):
        await grader.grade(example_question(), LONG, "en")
    assert grader.format == "json_schema" and grader.counts["fallbacks"] == 1
    await grader.grade(example_question(), LONG, "en")
    assert server.chat_requests()[-1]["response_format"]["type"] == "json_schema"


async def test_a_reasoning_model_gets_room_to_reason_after_its_first_reply(server: FakeOpenAI) -> None:
    server.provider = Reasoning()
    server.grade_fn = model_reply
    item = answers()[0]
    grader = grader_for(server, "vllm")
    await grader.grade(item.question, item.text, item.lang)
    await grader.grade(item.question, item.text, item.lang)
    first, second = server.chat_requests()
    assert second["max_tokens"] == first["max_tokens"] + REASONING_TOKENS and grader.reasoning
    assert grader.counts["repairs"] == 0


def test_the_bench_reports_repairs_and_fallbacks_per_provider(capsys: pytest.CaptureFixture[str]) -> None:
    from bench.llm_providers import main

    result = main(["--quick"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(last) == result and result["verdict"] == "ok" and result["answers"] == 4
    providers = result["figures"]["providers"]
    assert sorted(providers) == sorted(SETTINGS)
    for name, figures in providers.items():
        assert (figures["gradings"], figures["repairs"], figures["fallbacks"]) == (8, 0, 0), name
    # the exact reader of before threw away every imperfect provider's grades
    assert all(providers[p]["fallbacks_before"] == 8 for p in ("openai", "deepseek", "dashscope", "reasoning"))
    assert result["targets"] == {"repairs": 0, "fallbacks": 0, "meaning_kept": "every grading"}


def unsupported(param: str, message: str) -> Fault:
    body = {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": "unsupported"}}
    return Fault("status", 400, content=json.dumps(body))


async def test_a_parameter_a_reasoning_model_refuses_is_changed_once(server: FakeOpenAI) -> None:
    """OpenAI's reasoning models (o-series, gpt-5) refuse `max_tokens` and a temperature of 0, with the parameter
    named in the 400: it is changed for the process, without stepping down the output form."""
    server.script.extend([
        unsupported("max_tokens", "Unsupported parameter: 'max_tokens' is not supported with this model. "
                                  "Use 'max_completion_tokens' instead."),
        unsupported("temperature", "Unsupported value: 'temperature' does not support 0 with this model. "
                                   "Only the default (1) value is supported."),
    ])  # fmt: skip
    grader = grader_for(server)  # auto, an unknown host: max_tokens and temperature 0 first
    await grader.grade(example_question(), LONG, "en")
    await grader.grade(example_question(), LONG, "en")
    first, second, third, fourth = server.chat_requests()
    assert "max_tokens" in first and "max_completion_tokens" in second and second["temperature"] == 0
    assert "temperature" not in third and "temperature" not in fourth and "max_tokens" not in fourth
    assert {r["response_format"]["type"] for r in (first, second, third, fourth)} == {"json_schema"}
    assert grader.format == "json_schema" and grader.counts["repairs"] == grader.counts["fallbacks"] == 0
    server.script.append(unsupported("temperature", "Unsupported value"))  # already dropped: now a real refusal
    server.script.append(unsupported("temperature", "Unsupported value"))
    with pytest.raises(GraderUnavailable):
        await grader.grade(example_question(), LONG, "en")
