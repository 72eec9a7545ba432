"""How each OpenAI-compatible provider takes a request for structured output, as its documentation says.

`LLM__PROVIDER` names the provider. `auto` (the default) names it from the base URL where the host is known
(none, or api.openai.com: OpenAI; api.deepseek.com; DashScope) and otherwise asks for the full schema and,
the first time the provider refuses a request (400 or 422), steps down for the rest of the process:

| provider | request |
|---|---|
| openai | `json_schema`, strict, without the keywords strict mode refuses for some models (string and number bounds, `pattern`, `format`, item counts: "not supported" for fine-tuned models, and for every model in the first version of the guide); `max_completion_tokens`, since reasoning models refuse `max_tokens` |
| deepseek, dashscope | `json_object` with the schema in the prompt: both answer `json_schema` with 400, and want the word "json" in the messages |
| ollama | `json_schema`: its OpenAI endpoint passes the schema on as `format` |
| vllm | `json_schema`: guided decoding (`guided_json` in extra_body was removed in v0.12) |
| llamacpp | `json_schema`: a grammar built from the schema |

Whatever the request, the reply is read leniently (bot/grading/reply_reader.py): a bound the provider did not
enforce costs nothing.
"""

from __future__ import annotations

import json
from typing import Any, Literal
from urllib.parse import urlsplit

Provider = Literal["auto", "openai", "deepseek", "dashscope", "ollama", "vllm", "llamacpp"]
Format = Literal["json_schema", "strict_schema", "json_object"]
OutputMode = Literal["auto", "json_schema", "json_object"]

LADDERS: dict[str, tuple[Format, ...]] = {
    "auto": ("json_schema", "strict_schema", "json_object"),
    "openai": ("strict_schema", "json_object"),
    "deepseek": ("json_object",),
    "dashscope": ("json_object",),
    "ollama": ("json_schema", "json_object"),
    "vllm": ("json_schema", "json_object"),
    "llamacpp": ("json_schema", "json_object"),
}
HOSTS: dict[str, Provider] = {
    "api.openai.com": "openai",
    "deepseek.com": "deepseek",
    "dashscope.aliyuncs.com": "dashscope",
    "dashscope-intl.aliyuncs.com": "dashscope",
}  # a host, or the domain a host ends in
STRICT_REFUSED = frozenset(
    ["minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
     "multipleOf", "minItems", "maxItems"]
)  # fmt: skip
SCHEMA_REFUSED = ("invalid schema", "not permitted")  # how OpenAI words a refused keyword
REASONING_FIELDS = ("reasoning_content", "reasoning")  # DeepSeek, vLLM and llama.cpp; vLLM 0.11+ and Ollama


def resolve(provider: Provider, base_url: str | None) -> Provider:
    """The provider `auto` stands for when the base URL's host says it; else `provider` itself."""
    if provider != "auto":
        return provider
    host = urlsplit(base_url or "https://api.openai.com/v1").hostname
    for suffix, known in HOSTS.items():
        if host and (host == suffix or host.endswith("." + suffix)):
            return known
    return "auto"


def ladder(provider: Provider, output_mode: OutputMode) -> tuple[Format, ...]:
    """The formats to try, in order; `LLM__OUTPUT_MODE` keeps only the schema or only the JSON-object ones."""
    formats = LADDERS[provider]
    if output_mode == "json_object":
        return ("json_object",)
    if output_mode == "json_schema":
        return tuple(f for f in formats if f != "json_object") or ("json_schema",)
    return formats


def next_rung(formats: tuple[Format, ...], rung: int, message: str) -> int | None:
    """The format to try after the provider refused `formats[rung]` with `message`, or None. The strict-safe
    schema is worth a request only when the refusal was about the schema's keywords."""
    low = message.lower()
    for nxt in range(rung + 1, len(formats)):
        if formats[nxt] != "strict_schema" or any(words in low for words in SCHEMA_REFUSED):
            return nxt
    return None


def strict_schema(node: dict[str, Any]) -> dict[str, Any]:
    """The schema without the keywords OpenAI's strict mode may refuse (property names are kept)."""
    out = {k: v for k, v in node.items() if k not in STRICT_REFUSED}
    if "properties" in out:
        out["properties"] = {k: strict_schema(v) for k, v in out["properties"].items()}
    if "items" in out:
        out["items"] = strict_schema(out["items"])
    return out


def response_format(fmt: Format, schema: dict[str, Any], name: str) -> dict[str, Any]:
    if fmt == "json_object":
        return {"type": "json_object"}
    sent = strict_schema(schema) if fmt == "strict_schema" else schema
    return {"type": "json_schema", "json_schema": {"name": name, "schema": sent, "strict": True}}


def schema_hint(schema: dict[str, Any]) -> str:
    """The schema in words for JSON-object mode, after the request (it also carries the word DeepSeek and
    DashScope require)."""
    compact = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    return f"\n\nReply with only one JSON object valid under this JSON Schema:\n{compact}"


def token_field(provider: Provider) -> str:
    return "max_completion_tokens" if provider == "openai" else "max_tokens"


def reasoned(message: Any) -> bool:
    """Whether a reply came from a reasoning model: a reasoning field beside the content, or a reasoning block
    in it."""
    if any(getattr(message, f, None) for f in REASONING_FIELDS):
        return True
    content = getattr(message, "content", None)
    if not content:
        return False
    low = content.lower()
    return low.lstrip().startswith(("<think>", "<thinking>", "<reasoning>")) or "</think>" in low
