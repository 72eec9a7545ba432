"""The LLM grader's reply: a JSON schema built per question, a validator that checks exactly that schema,
and the numbers derived from it in code.

The model gives verdicts, not numbers: one verdict with a quote from the answer per rubric key point
(an object keyed by the question's own key-point ids, so the grammar a server builds from the schema
allows exactly one verdict per id, no more, no fewer), the mistakes it found with their severity, a
level for structure, specificity and evidence, short feedback and the follow-up to ask. Every length
bound lives in the schema, so a server that enforces it (llama.cpp, vLLM, OpenAI strict) cannot return
a reply the validator refuses, and `max_tokens` is derived from the same bounds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema

from bot.kernel.models import Lang

VERDICTS = ("hit", "partial", "missed")
LEVELS = ("none", "weak", "fair", "strong")
SEVERITIES = ("serious", "minor")
MAX_REPLY_BYTES = 64 * 1024  # a reply larger than this is refused before it is parsed
MAX_MISTAKES = 3


@dataclass(frozen=True)
class Bounds:
    """String bounds (characters) for one feedback language: Chinese says as much in fewer characters."""

    quote: int
    claim: int
    feedback: tuple[int, int]
    follow_up: tuple[int, int]
    point: tuple[int, int]
    reference: tuple[int, int]
    tokens_per_char: float  # an upper estimate, for max_tokens


BOUNDS: dict[str, Bounds] = {
    "en": Bounds(quote=60, claim=100, feedback=(30, 200), follow_up=(15, 160), point=(8, 100),
                 reference=(40, 360), tokens_per_char=0.45),
    "zh": Bounds(quote=30, claim=50, feedback=(12, 100), follow_up=(8, 80), point=(4, 50),
                 reference=(20, 180), tokens_per_char=1.1),
}  # fmt: skip


def _text(bounds: tuple[int, int]) -> dict[str, Any]:
    return {"type": "string", "minLength": bounds[0], "maxLength": bounds[1]}


def reply_schema(point_ids: Sequence[str], follow_up_ids: Sequence[str], lang: Lang) -> dict[str, Any]:
    """The schema of one grading reply for a question with these key points and bank follow-ups.

    With bank follow-ups the model only picks one by id (they carry their own rubric); without, it
    writes a follow-up with 2-3 points and a short model reply.
    """
    b = BOUNDS[lang]
    verdict = {
        "type": "object", "additionalProperties": False, "required": ["quote", "verdict"],
        "properties": {"quote": {"type": "string", "maxLength": b.quote}, "verdict": {"type": "string", "enum": list(VERDICTS)}},
    }  # fmt: skip
    mistake = {
        "type": "object", "additionalProperties": False, "required": ["claim", "severity"],
        "properties": {"claim": {"type": "string", "minLength": 3, "maxLength": b.claim},
                       "severity": {"type": "string", "enum": list(SEVERITIES)}},
    }  # fmt: skip
    level = {"type": "string", "enum": list(LEVELS)}
    props: dict[str, Any] = {
        "key_points": {
            "type": "object", "additionalProperties": False, "required": list(point_ids),
            "properties": {pid: verdict for pid in point_ids},
        },
        "mistakes": {"type": "array", "maxItems": MAX_MISTAKES, "items": mistake},
        "structure": level, "specificity": level, "evidence": level,
        "feedback": _text(b.feedback),
    }  # fmt: skip
    if follow_up_ids:
        props["follow_up"] = {"type": "string", "enum": list(follow_up_ids)}
    else:  # a question: it ends with a question mark (the length is in the pattern too, as llama.cpp's
        low, high = b.follow_up  # grammar takes a pattern instead of minLength/maxLength). No `"` or `\`:
        # llama.cpp turns a pattern into a grammar over the raw string, so a class that allowed them let a
        # small model write `f1"}，，？"`, closing the JSON string early and leaving fields out.
        props["follow_up"] = {**_text(b.follow_up), "pattern": f'^[^\\n"\\\\]{{{low - 1},{high - 1}}}[?？]$'}
        props["follow_up_points"] = {"type": "array", "minItems": 2, "maxItems": 3, "items": _text(b.point)}
        props["follow_up_reference"] = _text(b.reference)
    return {"type": "object", "additionalProperties": False, "required": list(props), "properties": props}


def token_bound(schema: dict[str, Any], lang: Lang) -> int:
    """An upper estimate of the tokens a compact reply valid under `schema` can take: `max_tokens`."""
    per_char = BOUNDS[lang].tokens_per_char

    def walk(node: dict[str, Any]) -> float:
        if "enum" in node:
            return max(len(str(v)) for v in node["enum"]) / 2 + 2
        kind = node.get("type")
        if kind == "object":
            return 2 + sum(len(k) / 2 + 3 + walk(v) for k, v in node.get("properties", {}).items())
        if kind == "array":
            return 2 + int(node.get("maxItems", 8)) * (walk(node["items"]) + 1)
        if kind == "string":
            return int(node.get("maxLength", 200)) * per_char + 2
        return 4

    return math.ceil(walk(schema) * 1.2 + 16)


class ReplyError(ValueError):
    """The reply is not a JSON object valid under the question's schema (the message says where)."""


@dataclass(frozen=True)
class PointVerdict:
    id: str
    verdict: str
    quote: str


@dataclass(frozen=True)
class Mistake:
    claim: str
    severity: str


@dataclass(frozen=True)
class Reply:
    points: tuple[PointVerdict, ...]
    mistakes: tuple[Mistake, ...]
    levels: dict[str, str]  # structure, specificity, evidence
    feedback: str
    follow_up: str  # a bank follow-up id, or the model's own question
    follow_up_points: tuple[str, ...] = ()
    follow_up_reference: str = ""


def validated(raw: str, schema: dict[str, Any]) -> Any:
    """The JSON value of a reply, validated against the very schema the request sent; raises ReplyError."""
    if len(raw.encode("utf-8", "replace")) > MAX_REPLY_BYTES:
        raise ReplyError(f"the reply is over {MAX_REPLY_BYTES // 1024} kB")
    text = raw.strip()
    if text.startswith("```"):  # some providers wrap JSON in a code fence even in JSON mode
        text = text.strip("`").removeprefix("json").strip()
    try:
        # the first JSON value; text after it is dropped (a small local model has ended a valid object
        # and gone on writing, which json.loads refuses as "Extra data")
        data, _end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as err:
        raise ReplyError(f"not valid JSON ({err.msg} at position {err.pos})") from None
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "the reply"
        raise ReplyError(f"{where}: {error.message[:200]}")
    return data


def parse_reply(raw: str, schema: dict[str, Any]) -> Reply:
    """A grading reply valid under `schema` (from reply_schema); raises ReplyError."""
    data = validated(raw, schema)
    points = tuple(PointVerdict(pid, v["verdict"], v["quote"].strip()) for pid, v in data["key_points"].items())
    return Reply(
        points=points,
        mistakes=tuple(Mistake(m["claim"].strip(), m["severity"]) for m in data["mistakes"]),
        levels={d: data[d] for d in ("structure", "specificity", "evidence")},
        feedback=data["feedback"].strip(),
        follow_up=data["follow_up"].strip(),
        follow_up_points=tuple(p.strip() for p in data.get("follow_up_points", ())),
        follow_up_reference=data.get("follow_up_reference", "").strip(),
    )
