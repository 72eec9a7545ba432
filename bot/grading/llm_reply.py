"""The LLM grader's reply: a JSON schema built per question, a validator that checks exactly that schema,
and the numbers derived from it in code.

The model gives verdicts, not numbers: one verdict with a quote from the answer per rubric key point
(an object keyed by the question's own key-point ids, so the grammar a server builds from the schema
allows exactly one verdict per id, no more, no fewer), the mistakes it found with their severity, a
level for structure, specificity and evidence, short feedback and the follow-up to ask. Every length
bound lives in the schema, so a server that enforces it (llama.cpp, vLLM, Ollama) keeps a reply within
them, and `max_tokens` is derived from the same bounds. A provider that does not enforce them (OpenAI
strict mode is sent the schema without them, DeepSeek and DashScope only take JSON mode) is read
leniently: a string over its bound is cut, a short one read, and a reply is refused only for what would
change the grade (see `parse_reply`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.grading.reply_reader import MAX_REPLY_BYTES, ReplyError, check, conform, json_object, relaxed, validated
from bot.kernel.models import Lang

VERDICTS = ("hit", "partial", "missed")
LEVELS = ("none", "weak", "fair", "strong")
SEVERITIES = ("serious", "minor")
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
    fixes: tuple[str, ...] = ()  # what the lenient reading changed (reply_reader.conform), for the logs and benches


def _keyed(points: Any, ids: Sequence[str], fixes: list[str]) -> Any:
    """The key-point verdicts keyed by the question's own ids (an id differing only in case or spaces is read as
    it); an id the question does not have is refused: it would credit a point the rubric does not name."""
    if not isinstance(points, dict):
        return points
    known = {i.casefold(): i for i in ids}
    out = {}
    for key, verdict in points.items():
        pid = known.get(str(key).strip().casefold())
        if pid is None:
            raise ReplyError(f"key_points: {str(key)[:40]!r} is not one of the ids {list(ids)}")
        if pid != key:
            fixes.append(f"key_points: {pid!r} read from a differently written id")
        out[pid] = verdict
    return out


def _bank_follow_up(value: Any, ids: Sequence[str], fixes: list[str]) -> Any:
    """A bank follow-up id as the question has it; an id it does not have is dropped (no follow-up is offered):
    the follow-up is not part of the verdict, a repair would double the wait for it, and a guessed one could
    presuppose what the answer never said."""
    if not isinstance(value, str):
        return value
    for fid in ids:
        if value.strip().casefold() == fid.casefold():
            if value != fid:
                fixes.append(f"follow_up: read as {fid!r}")
            return fid
    fixes.append("follow_up: not one of the bank follow-ups; none is offered")
    return ""


def parse_reply(raw: str, schema: dict[str, Any]) -> Reply:
    """A grading reply under `schema` (from reply_schema), read leniently (bot/grading/reply_reader.py): refused
    (ReplyError) only when no JSON object is there, a key-point id is missing or unknown, a verdict, severity or
    level is outside its enum, or a field is missing or of the wrong type."""
    fixes: list[str] = []
    props = schema["properties"]
    data = json_object(raw, schema["required"], fixes)
    if "key_points" in data:
        data["key_points"] = _keyed(data["key_points"], list(props["key_points"]["properties"]), fixes)
    wanted = relaxed(schema)
    if "enum" in props["follow_up"]:
        wanted["properties"]["follow_up"] = {"type": "string"}
        if "follow_up" in data:
            data["follow_up"] = _bank_follow_up(data["follow_up"], props["follow_up"]["enum"], fixes)
    data = conform(data, schema, fixes)
    check(data, wanted)
    mistakes = [Mistake(m["claim"], m["severity"]) for m in data["mistakes"]]
    if any(not m.claim for m in mistakes):  # a mistake that names no claim cannot be shown or learned from
        fixes.append("mistakes: an empty claim was dropped")
    return Reply(
        points=tuple(PointVerdict(pid, v["verdict"], v["quote"]) for pid, v in data["key_points"].items()),
        mistakes=tuple(m for m in mistakes if m.claim),
        levels={d: data[d] for d in ("structure", "specificity", "evidence")},
        feedback=data["feedback"],
        follow_up=data["follow_up"],
        follow_up_points=tuple(p for p in data.get("follow_up_points", ()) if p),
        follow_up_reference=data.get("follow_up_reference", ""),
        fixes=tuple(fixes),
    )


__all__ = ["MAX_REPLY_BYTES", "Reply", "ReplyError", "parse_reply", "reply_schema", "token_bound", "validated"]
