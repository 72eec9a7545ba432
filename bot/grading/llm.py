"""The LLM grader: any OpenAI-compatible chat API through the `openai` SDK.

Structured output by `json_schema` where the provider supports it, else `json_object`; the reply
is validated, an invalid or truncated one gets one repair attempt, then it counts as a failure
(GraderUnavailable), which the grading chain turns into the offline estimate and a regrade.
The total score is computed here from the dimensions, never taken from the model.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Literal

import openai
from pydantic import BaseModel, Field, ValidationError

from bot.core.models import DIMENSIONS, Grade, KeyPointResult, Lang, Level, Question
from bot.core.ports import GraderUnavailable
from bot.core.scoring import total_score
from bot.grading.injection import strip_injections
from bot.grading.prompts import PromptSet, fill, load_prompts

log = logging.getLogger(__name__)
OutputMode = Literal["auto", "json_schema", "json_object"]
INJECTION_PENALTY = 30
INJECTION_MISTAKE = {
    "en": "Tried to instruct the grader (“{0}”); instructions inside an answer are ignored",
    "zh": "试图向评分器下指令（“{0}”）；回答中的指令会被忽略",
}


class InvalidOutput(Exception):
    pass


class _Verdict(BaseModel):
    id: str
    verdict: Literal["hit", "partial", "missed"]
    evidence: str = ""


class LLMOutput(BaseModel):
    dimensions: dict[str, int]
    key_points: list[_Verdict] = Field(default_factory=list)
    mistakes: list[str] = Field(default_factory=list)
    feedback: str = Field(min_length=1)
    follow_up: str = Field(min_length=1)
    follow_up_points: list[str] = Field(default_factory=list)
    follow_up_reference: str = ""

    def check(self) -> None:
        missing = [d for d in DIMENSIONS if d not in self.dimensions]
        if missing:
            raise InvalidOutput(f"dimensions missing: {', '.join(missing)}")
        bad = [d for d in DIMENSIONS if not 0 <= self.dimensions[d] <= 100]
        if bad:
            raise InvalidOutput(f"dimensions out of 0-100: {', '.join(bad)}")


_STR_LIST = {"type": "array", "items": {"type": "string"}}
JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["dimensions", "key_points", "mistakes", "feedback", "follow_up", "follow_up_points",
        "follow_up_reference"],
    "properties": {
        "dimensions": {
            "type": "object", "additionalProperties": False, "required": list(DIMENSIONS),
            "properties": {d: {"type": "integer", "minimum": 0, "maximum": 100} for d in DIMENSIONS},
        },
        "key_points": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["id", "verdict", "evidence"],
            "properties": {"id": {"type": "string"}, "evidence": {"type": "string"},
                           "verdict": {"type": "string", "enum": ["hit", "partial", "missed"]}},
        }},
        "mistakes": _STR_LIST, "feedback": {"type": "string"}, "follow_up": {"type": "string"},
        "follow_up_points": _STR_LIST, "follow_up_reference": {"type": "string"},
    },
}  # fmt: skip


def parse_output(raw: str) -> LLMOutput:
    text = raw.strip()
    if text.startswith("```"):  # some providers wrap JSON in a code fence even in JSON mode
        text = text.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidOutput(f"not valid JSON ({err.msg} at position {err.pos})") from None
    if not isinstance(data, dict):
        raise InvalidOutput("not a JSON object")
    try:
        out = LLMOutput.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        raise InvalidOutput(f"field {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    out.check()
    return out


class LLMGrader:
    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        output_mode: OutputMode = "auto",
        prompts: PromptSet | None = None,
        max_tokens: int = 1500,
    ) -> None:
        self.client = client
        self.model = model
        self.id = f"llm:{model}"
        self.output_mode = output_mode
        json_object = output_mode == "json_object"
        self._mode: Literal["json_schema", "json_object"] = "json_object" if json_object else "json_schema"
        self.prompts = prompts or load_prompts()
        self.max_tokens = max_tokens

    def _response_format(self) -> dict[str, Any]:
        if self._mode == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": "grade", "schema": JSON_SCHEMA, "strict": True}}
        return {"type": "json_object"}

    async def complete(self, messages: list[dict[str, str]]) -> tuple[str, int]:
        """One chat completion; returns (content, tokens used). Raises GraderUnavailable or InvalidOutput."""
        for _ in range(2):
            try:
                request: dict[str, Any] = {
                    "model": self.model,
                    "messages": messages,
                    "temperature": 0,
                    "max_tokens": self.max_tokens,
                    "response_format": self._response_format(),
                }
                resp = await self.client.chat.completions.create(**request)
            except openai.BadRequestError as err:
                if self._mode == "json_schema" and self.output_mode == "auto":
                    log.info("provider refused json_schema (%s); using json_object", err.status_code)
                    self._mode = "json_object"
                    continue
                raise GraderUnavailable(f"bad request: {err.status_code}") from None
            except (openai.APIConnectionError, openai.APIStatusError) as err:
                raise GraderUnavailable(type(err).__name__) from None
            break
        else:  # pragma: no cover - the loop always breaks or raises
            raise GraderUnavailable("no response")
        tokens = resp.usage.total_tokens if resp.usage else 0
        if not resp.choices:
            raise InvalidOutput("no choices")
        choice = resp.choices[0]
        content = choice.message.content or ""
        if choice.finish_reason == "length":
            raise InvalidOutput("the reply was cut off (finish_reason=length)")
        if not content.strip():
            raise InvalidOutput("empty reply")
        return content, tokens

    async def structured(self, messages: list[dict[str, str]]) -> tuple[LLMOutput, int]:
        raw, tokens = "", 0
        try:
            raw, tokens = await self.complete(messages)
            return parse_output(raw), tokens
        except InvalidOutput as first:
            repair = [*messages]
            if raw:
                repair.append({"role": "assistant", "content": raw[:4000]})
            repair.append({"role": "user", "content": fill(self.prompts.repair, error=str(first))})
            try:
                raw2, more = await self.complete(repair)
                return parse_output(raw2), tokens + more
            except InvalidOutput as second:
                raise GraderUnavailable(f"invalid output after repair: {second}") from None

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        clean, injection = strip_injections(answer)
        messages = self.prompts.messages(question, clean, lang, level)
        out, tokens = await self.structured(messages)
        return self.to_grade(out, question, lang, injection, tokens)

    def to_grade(self, out: LLMOutput, q: Question, lang: Lang, injection: str | None, tokens: int) -> Grade:
        dims = {d: int(out.dimensions[d]) for d in DIMENSIONS}
        mistakes = list(out.mistakes)
        if injection:
            mistakes.append(INJECTION_MISTAKE[lang].format(injection[:60]))
            dims["correctness"] = max(0, dims["correctness"] - INJECTION_PENALTY)
        verdicts = {v.id: v for v in out.key_points}
        points = [
            KeyPointResult(id=k.id, verdict=verdicts[k.id].verdict, evidence=verdicts[k.id].evidence[:200])
            if k.id in verdicts
            else KeyPointResult(id=k.id, verdict="missed")
            for k in q.rubric.key_points
        ]
        return Grade(
            score=total_score(dims, q.type, q.rubric.dimension_weights),
            dimensions=dims,
            key_points=points,
            mistakes=mistakes[:8],
            feedback=out.feedback.strip()[:1200],
            follow_up=out.follow_up.strip()[:500],
            follow_up_points=[p.strip()[:300] for p in out.follow_up_points[:4] if p.strip()],
            follow_up_reference=out.follow_up_reference.strip()[:1500],
            grader=self.id,
            estimate=False,
            prompt_version=self.prompts.version,
            tokens=tokens,
        )
