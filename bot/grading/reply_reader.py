"""Reading a provider's reply: the JSON object out of whatever surrounds it, then, for a grading, bent to its
schema wherever that loses no meaning.

Providers differ in form, not in what they mean. A reasoning model writes `<think>…</think>` before the JSON;
DeepSeek and DashScope in JSON mode wrap it in a code fence or add a sentence before or after it; a provider
that does not enforce the schema's bounds writes an 80-character quote, a feedback a few characters short, a
field of its own, or "Hit" for "hit". All of that is read (`conform`). What would change a grade is refused,
with a message the repair request quotes: no JSON object, a required field missing, a value outside its enum
(case and surrounding spaces aside), a value of the wrong type.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import jsonschema

MAX_REPLY_BYTES = 64 * 1024  # a reply larger than this is refused before it is read
MAX_STARTS = 16  # the first '{' positions a JSON object is looked for at (bounds the work on a hostile reply)
BOUNDARIES = (" ", "，", "。", "；", "、", ",", ";")  # where an over-long string is cut, if one is near the end
_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_CLOSE = re.compile(r"</(?:think|thinking|reasoning)>", re.IGNORECASE)
RELAXED = ("minLength", "maxLength", "pattern", "maxItems")  # read leniently instead (see `conform`)


class ReplyError(ValueError):
    """The reply cannot be read as the schema's object (the message says where)."""


def after_reasoning(text: str) -> str:
    """The text after a leading reasoning block (`<think>`, `<thinking>` or `<reasoning>`, any case), or, when the
    chat template opened the block in the prompt so that only its end is in the reply, after that end. A reply
    that starts as JSON is left alone: a quote in it may contain the tag."""
    body = text.lstrip()
    opened = _OPEN.match(body)
    if opened:
        end = re.compile(f"</{opened.group(1)}>", re.IGNORECASE).search(body)
        if end is None:
            raise ReplyError("the reply is a reasoning block with no JSON after it")
        return body[end.end() :]
    if not body.startswith(("{", "`")):
        end = _CLOSE.search(body)
        if end is not None:
            return body[end.end() :]
    return body


def json_object(raw: str, required: Iterable[str] = (), fixes: list[str] | None = None) -> dict[str, Any]:
    """The reply's JSON object: after any reasoning block, inside a code fence or between sentences; the first
    object that has every `required` key, else the first object (whose missing keys the validator names). What
    was dropped around it is noted in `fixes`."""
    if len(raw.encode("utf-8", "replace")) > MAX_REPLY_BYTES:
        raise ReplyError(f"the reply is over {MAX_REPLY_BYTES // 1024} kB")
    text = after_reasoning(raw)
    notes = [] if fixes is None else fixes
    if text != raw.lstrip():
        notes.append("the reply: a reasoning block was dropped")
    wanted = set(required)
    decoder = json.JSONDecoder()
    first: dict[str, Any] | None = None
    errors = []
    start = text.find("{")
    for _ in range(MAX_STARTS):
        if start < 0:
            break
        try:
            # the first JSON value from here (an object: it starts with '{'); what follows it is dropped (a model
            # has closed a valid object and gone on writing, and a fence or a sentence may follow)
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError as err:
            errors.append(f"not valid JSON ({err.msg} at position {err.pos})")
        else:
            if wanted <= value.keys():
                if text[:start].strip() or text[end:].strip():
                    notes.append("the reply: text around the JSON object was dropped")
                return value  # type: ignore[no-any-return]
            first = value if first is None else first
        start = text.find("{", start + 1)
    if first is not None:
        return first
    raise ReplyError(errors[0] if errors else "no JSON object in the reply")


def validated(raw: str, schema: dict[str, Any]) -> Any:
    """The reply's JSON object, validated exactly against the schema the request sent (the writers' replies:
    rubric, STAR, tighten, /jd, /debrief). Only its surroundings are read leniently. Raises ReplyError."""
    data = json_object(raw, schema.get("required", ()))
    check(data, schema)
    return data


def check(data: Any, schema: dict[str, Any]) -> None:
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "the reply"
        raise ReplyError(f"{where}: {error.message[:200]}")


def cut(text: str, most: int) -> str:
    """`text` cut to `most` characters: at the last word boundary in the final third if there is one."""
    if len(text) <= most:
        return text
    head = text[:most]
    boundary = max(head.rfind(b) for b in BOUNDARIES)
    if boundary >= most * 2 // 3:
        head = head[:boundary]
    return head.rstrip()


def conform(value: Any, node: dict[str, Any], fixes: list[str], path: str = "") -> Any:
    """`value` bent to the schema `node` where no meaning is lost, each change noted in `fixes`: an enum value
    read regardless of case and surrounding spaces, a field the schema does not name dropped, a string
    stripped (null read as empty) and cut to its maxLength, a list cut to its maxItems. Anything else is left
    for `check` against `relaxed(node)` to refuse."""
    where = path or "the reply"
    if "enum" in node:
        if isinstance(value, str):
            for option in node["enum"]:
                if value.strip().casefold() == str(option).casefold():
                    if value != option:
                        fixes.append(f"{where}: read as {option!r}")
                    return option
        return value
    kind = node.get("type")
    if kind == "object" and isinstance(value, dict):
        props = node.get("properties", {})
        out = {}
        for key, child in value.items():
            if key in props:
                out[key] = conform(child, props[key], fixes, f"{path}/{key}" if path else key)
            elif node.get("additionalProperties") is False:
                fixes.append(f"{where}: a field the schema does not name was ignored")
            else:
                out[key] = child
        return out
    if kind == "array" and isinstance(value, list):
        most = node.get("maxItems")
        if most is not None and len(value) > most:
            fixes.append(f"{where}: {len(value)} items cut to {most}")
            value = value[:most]
        items = node.get("items", {})
        return [conform(v, items, fixes, f"{path}/{i}" if path else str(i)) for i, v in enumerate(value)]
    if kind == "string":
        if value is None:
            fixes.append(f"{where}: null read as empty")
            return ""
        if isinstance(value, str):
            text = value.strip()
            most = node.get("maxLength")
            if most is not None and len(text) > most:
                fixes.append(f"{where}: {len(text)} characters cut to {most}")
                text = cut(text, most)
            return text
    return value


def relaxed(node: dict[str, Any]) -> dict[str, Any]:
    """The schema `conform` has already applied: no string bounds or pattern (a short string is read as it is),
    no maxItems; a list that needs items still needs one."""
    out = {k: v for k, v in node.items() if k not in RELAXED}
    if "minItems" in out:
        out["minItems"] = min(1, out["minItems"])
    if "properties" in out:
        out["properties"] = {k: relaxed(v) for k, v in out["properties"].items()}
    if "items" in out:
        out["items"] = relaxed(out["items"])
    return out
