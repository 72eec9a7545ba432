"""A fake of each provider the grader meets, as its documentation (or its users' bug reports) describes it.

Behind every fake is one "model" (`model_reply`): it reads the grading request the way a good model would
(a key point is hit when the answer states it, quoted with the answer's own words; a listed common mistake the
answer makes is reported) and replies with a grade that is right in meaning. Each provider then refuses what it
refuses and shapes that reply the way it really comes back:

| fake | refuses (status, message as the provider words it) | reply |
|---|---|---|
| openai | a strict schema with keywords strict mode rejects, or an object not closed and complete (400) | compact, schema order, but lengths unchecked: an 80-character quote, a feedback 5 characters short |
| deepseek | `json_schema` (400 "This response_format type is unavailable now"); JSON mode without the word json | pretty-printed, every other one in a code fence, an extra field, null quotes, 80-character quotes |
| dashscope | `json_schema` (400 InvalidParameter); JSON mode without the word json | a sentence before it, a fence, a sentence after; "Hit", " Minor ", "Strong": case and spaces off |
| reasoning | nothing; enforces nothing | `<think>…</think>` before the JSON, or the reasoning in `reasoning_content`; trailing text |
| ollama | nothing; a schema becomes a grammar (`format`) | schema-valid, pretty-printed, trailing newlines, the thinking in `reasoning`; ignores `n` |
| vllm | nothing; guided decoding enforces the schema | schema-valid, whitespace between tokens, `reasoning_content` |
| llamacpp | nothing; a grammar enforces the schema | schema-valid: strings stopped at maxLength mid-word, trailing whitespace; ignores `n` |
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from tests.fake_openai import answer_in, request_text

STRICT_REJECTS = ("minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "minimum", "maximum")
POINT = re.compile(r"^- ([\w-]+), [\d.]+: (.+)$", re.M)
FOLLOW = re.compile(r"^- (f\d+): ", re.M)


def request_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    fmt = body.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("schema") if fmt.get("type") == "json_schema" else None


def mentions_json(body: dict[str, Any]) -> bool:
    return any("json" in str(m.get("content", "")).lower() for m in body["messages"])


def quote_of(line: str, chars: int = 80) -> str:
    """The answer's own words, about `chars` characters of them (a model does not count)."""
    words, out = line.split(), ""
    for w in words:
        out = f"{out} {w}".strip()
        if len(out) >= chars:
            break
    return out


def model_reply(body: dict[str, Any]) -> dict[str, Any]:
    """What a good model means: every key point the answer states (its rubric text is in one of the answer's
    lines) is hit, quoted with the words of that line that state it; the others missed; a listed mistake the answer makes is reported."""
    text = request_text(body)
    zh = "Chinese" in text.split("\n", 1)[0]
    lines = [x.strip() for x in answer_in(text).split("\n") if x.strip()]
    points = {}
    for pid, point in POINT.findall(text):
        line = next((x for x in lines if point.strip().casefold() in x.casefold()), "")
        said = line[line.casefold().index(point.strip().casefold()) :] if line else ""  # where it states the point
        points[pid] = {
            "quote": quote_of(said, 40 if zh else 80) if line else "",
            "verdict": "hit" if line else "missed",
        }
    listed = text.split("Common mistakes (list them when the answer makes them):\n", 1)[-1].split("\n", 1)[0]
    mistakes = [
        {"claim": ("回答声称" if zh else "The answer claims that ") + m.strip(), "severity": "serious"}
        for m in listed.split("; ")
        if m.strip() and any(m.strip().casefold() in x.casefold() for x in lines)
    ]
    hits = sum(v["verdict"] == "hit" for v in points.values())
    level = "strong" if hits * 2 >= max(1, len(points)) else "weak"
    reply: dict[str, Any] = {
        "key_points": points, "mistakes": mistakes[:3], "structure": level, "specificity": level, "evidence": "fair",
        "feedback": "层次清楚；补上具体数值和结果。" if zh else "A clear order of steps; name the numbers you measured and the result.",
    }  # fmt: skip
    follow_ids = FOLLOW.findall(text)
    if follow_ids:
        reply["follow_up"] = follow_ids[0]
    else:
        reply["follow_up"] = "你会把阈值设为多少，为什么？" if zh else "Which threshold would you pick first, and why?"
        reply["follow_up_points"] = ["names a threshold", "says how it was chosen"]
        reply["follow_up_reference"] = "Clip at 1.0, chosen from the gradient-norm percentiles of a healthy run."
    return reply


def short_feedback(reply: dict[str, Any], zh: bool) -> None:
    """A feedback five characters under the schema's minimum (30 in English, 12 in Chinese)."""
    reply["feedback"] = "层次清楚缺数值" if zh else "Clear order; add numbers."


def is_zh(body: dict[str, Any]) -> bool:
    return "Chinese" in request_text(body).split("\n", 1)[0]


def openai_strict_error(schema: dict[str, Any], name: str) -> str | None:
    """OpenAI's refusal of a strict schema, worded as the API words it, or None when it would take it."""

    def walk(node: dict[str, Any], context: tuple[str, ...]) -> str | None:
        for key in STRICT_REJECTS:
            if key in node:
                return f"In context={context}, '{key}' is not permitted."
        if node.get("type") == "object":
            if node.get("additionalProperties") is not False:
                return f"In context={context}, 'additionalProperties' is required to be supplied and to be false."
            missing = [k for k in node.get("properties", {}) if k not in node.get("required", [])]
            if missing:
                return (f"In context={context}, 'required' is required to be supplied and to be an array including "
                        f"every key in properties. Missing '{missing[0]}'.")  # fmt: skip
            for key, child in node.get("properties", {}).items():
                found = walk(child, (*context, "properties", key))
                if found:
                    return found
        if node.get("type") == "array":
            return walk(node.get("items", {}), (*context, "items"))
        return None

    found = walk(schema, ())
    return f"Invalid schema for response_format '{name}': {found}" if found else None


def error(message: str, kind: str = "invalid_request_error", code: str | None = None, **more: Any) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": more.pop("param", None), "code": code}, **more}


def enforced(value: Any, node: dict[str, Any]) -> Any:
    """What a grammar built from the schema lets a model write: strings stopped at maxLength (mid-word) or
    carried on to minLength, a pattern's question mark, lists cut or repeated to their bounds, no other field."""
    if "enum" in node:
        return value
    kind = node.get("type")
    if kind == "object":
        return {k: enforced(value.get(k), child) for k, child in node["properties"].items()}
    if kind == "array":
        items = [enforced(v, node["items"]) for v in (value or [])][: node.get("maxItems", 99)]
        while len(items) < node.get("minItems", 0):
            items.append(items[-1] if items else enforced("", node["items"]))
        return items
    text = str(value or "")
    if "pattern" in node:  # ^[^\n"\\]{low,high}[?？]$: no quote, backslash or newline, ends with a question mark
        high = int(node["pattern"].split(",")[1].split("}")[0])
        text = re.sub(r'["\\\n]', " ", text.rstrip("?？"))[:high] + (
            "？" if re.search(r"[\u4e00-\u9fff]", text) else "?"
        )
    most, least = node.get("maxLength"), node.get("minLength", 0)
    text = text[:most] if most is not None else text
    while len(text) < least:
        text += " Keep going." if text.isascii() else "继续补充细节。"
    return text[:most] if most is not None else text


@dataclass
class OpenAIStrict:
    """Structured Outputs with `strict: true`: the schema must be in the strict subset; the reply then follows its
    structure exactly (no extra field, enums exact) but nothing checks the lengths the model writes."""

    name: str = "openai"
    honours_n: bool = True

    def refuse(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        fmt = body.get("response_format") or {}
        schema = request_schema(body)
        if schema is not None and fmt["json_schema"].get("strict"):
            message = openai_strict_error(schema, fmt["json_schema"]["name"])
            if message:
                return 400, error(message, param="response_format")
        if fmt.get("type") == "json_object" and not mentions_json(body):
            return 400, error("'messages' must contain the word 'json' in some form, to use 'response_format' of "
                              "type 'json_object'.", param="messages")  # fmt: skip
        return None

    def shape(self, body: dict[str, Any], reply: dict[str, Any], count: int) -> tuple[str, dict[str, Any]]:
        short_feedback(reply, is_zh(body))
        if "follow_up_points" in reply:
            reply["follow_up_points"] = reply["follow_up_points"][:1]  # minItems 2 is not enforced either
        return json.dumps(reply, ensure_ascii=False, separators=(",", ":")), {}


@dataclass
class JsonModeOnly:
    """DeepSeek and DashScope: `json_object` only (a `json_schema` request is answered 400), the word "json" required
    in the messages; what the model writes is JSON, shaped by habit."""

    name: str
    honours_n: bool = False

    def refuse(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        kind = (body.get("response_format") or {}).get("type")
        if kind == "json_schema":
            if self.name == "deepseek":
                return 400, error("This response_format type is unavailable now", code="invalid_request_error")
            return 400, error("<400> InternalError.Algo.InvalidParameter: 'response_format.type' json_schema is not "
                              "supported by this model, supported values are: 'text' and 'json_object'",
                              code="invalid_parameter_error")  # fmt: skip
        if kind == "json_object" and not mentions_json(body):
            if self.name == "deepseek":
                return 400, error("Prompt must contain the word 'json' in some form to use 'response_format' of type "
                                  "'json_object'.")  # fmt: skip
            return 400, error("<400> InternalError.Algo.InvalidParameter: 'messages' must contain the word 'json' in "
                              "some form, to use 'response_format' of type 'json_object'.",
                              code="invalid_parameter_error")  # fmt: skip
        return None

    def shape(self, body: dict[str, Any], reply: dict[str, Any], count: int) -> tuple[str, dict[str, Any]]:
        zh = is_zh(body)
        short_feedback(reply, zh)
        if self.name == "deepseek":
            for verdict in reply["key_points"].values():
                verdict["quote"] = verdict["quote"] or None
            reply["overall_comment"] = "solid answer" if count % 2 else "needs numbers"
            content = json.dumps(reply, ensure_ascii=False, indent=2)
            return (f"```json\n{content}\n```" if count % 2 else content), {}
        for verdict in reply["key_points"].values():
            verdict["verdict"] = verdict["verdict"].capitalize()
        for mistake in reply["mistakes"]:
            mistake["severity"] = f" {mistake['severity'].capitalize()} "
        reply["structure"] = reply["structure"].capitalize()
        reply["score"] = 78
        content = json.dumps(reply, ensure_ascii=False)
        before, after = (
            ("评分结果如下：", "如需更详细的说明请告诉我。") if zh else ("Here is the grading:", "Hope this helps.")
        )
        return f"{before}\n```json\n{content}\n```\n{after}", {}


@dataclass
class Reasoning:
    """A reasoning model (DeepSeek-R1 style) behind a server that enforces nothing: it thinks first, either in the
    content (`<think>…</think>`, braces and all) or in a separate `reasoning_content` field."""

    name: str = "reasoning"
    honours_n: bool = True

    def refuse(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        return None

    def shape(self, body: dict[str, Any], reply: dict[str, Any], count: int) -> tuple[str, dict[str, Any]]:
        short_feedback(reply, is_zh(body))
        thought = "The rubric wants {id: verdict}; the answer states some points and not others. Quote them."
        content = json.dumps(reply, ensure_ascii=False) + "\n\nI quoted the answer's own words for each point."
        if count % 2:
            return content, {"reasoning_content": thought}
        return f"<think>\n{thought}\n</think>\n\n{content}", {}


@dataclass
class Grammar:
    """A server that turns the schema into a grammar (Ollama's `format`, vLLM's guided decoding, llama.cpp): the
    reply is valid under it; form differs in whitespace and in where the reasoning goes."""

    name: str
    honours_n: bool = True

    def refuse(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        return None

    def shape(self, body: dict[str, Any], reply: dict[str, Any], count: int) -> tuple[str, dict[str, Any]]:
        schema = request_schema(body)
        if schema is not None:
            reply = enforced(reply, schema)
            jsonschema.validate(reply, schema)  # what a grammar cannot produce, this fake does not either
        extra: dict[str, Any] = {}
        if self.name == "ollama":
            content = json.dumps(reply, ensure_ascii=False, indent=2) + "\n\n"
            extra = {"reasoning": "Checking each key point against the answer."} if count % 2 else {}
        elif self.name == "vllm":
            content = json.dumps(reply, ensure_ascii=False, separators=(", ", ": "))
            extra = {"reasoning_content": "Checking each key point."} if count % 2 else {}
        else:
            content = json.dumps(reply, ensure_ascii=False) + " \n"
        return content, extra


def fakes() -> dict[str, Any]:
    """Every provider's fake behaviour, by the name `LLM__PROVIDER` gives it ("reasoning" has none: it is read
    through `auto`)."""
    return {
        "openai": OpenAIStrict(),
        "deepseek": JsonModeOnly("deepseek"),
        "dashscope": JsonModeOnly("dashscope"),
        "reasoning": Reasoning(),
        "ollama": Grammar("ollama", honours_n=False),
        "vllm": Grammar("vllm"),
        "llamacpp": Grammar("llamacpp", honours_n=False),
    }
