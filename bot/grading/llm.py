"""The LLM grader: any OpenAI-compatible chat API through the `openai` SDK.

Each grading sends a schema built for its question (llm_reply) in the form its provider documents
(bot/grading/providers.py: `json_schema`, the strict-safe schema for OpenAI, or `json_object` with the schema
in the prompt; a refused form is dropped for the rest of the process). The reply is read leniently
(reply_reader); one that cannot be read, or was cut off, gets one repair attempt, then it counts as a
failure (GraderUnavailable), which the grading chain turns into the offline estimate and a regrade. One
deadline bounds the whole grading (waiting for a slot, every retry, the repair). Numbers are never taken
from the model: llm_verdicts derives them. `counts` keeps the repairs and fallbacks (bench/llm_providers.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any

import openai

from bot.grading.delimiters import new_tag
from bot.grading.injection import strip_injections
from bot.grading.llm_reply import (
    MAX_REPLY_BYTES,
    Reply,
    ReplyError,
    parse_reply,
    reply_schema,
    token_bound,
    validated,
)
from bot.grading.llm_verdicts import combine, point_terms
from bot.grading.prompts import PromptSet, fill, load_prompts
from bot.grading.providers import (
    Format,
    OutputMode,
    Provider,
    ladder,
    next_rung,
    reasoned,
    response_format,
    schema_hint,
    token_field,
)
from bot.grading.term_weights import bank_weights
from bot.kernel.i18n import t
from bot.kernel.models import DIMENSIONS, Grade, KeyPoint, KeyPointResult, Lang, Level, Question, Text
from bot.kernel.ports import GraderUnavailable
from bot.kernel.premise import askable_indexes
from bot.kernel.scoring import total_score

log = logging.getLogger(__name__)
INJECTION_PENALTY = 30
SAMPLE_TEMPERATURE = 0.7  # with LLM__SAMPLES > 1: the samples must differ to be worth averaging
REASONING_TOKENS = 4096  # added to max_tokens once a provider is seen to reason first (the reasoning counts)


class InvalidOutput(Exception):
    pass


@dataclass(frozen=True)
class Call:
    """One chat completion as the provider reported it (for `bench/llm_real.py` and the logs)."""

    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    seconds: float
    finish_reason: str


REFERENCE_POINT = KeyPoint(
    id="reference",
    weight=1,
    text=Text(zh=t("zh", "key_point.reference"), en=t("en", "key_point.reference")),
)


def askable_only(q: Question, answer: str) -> Question:
    """The question with only the bank follow-ups this answer allows (a follow-up whose premise the answer did not
    state is never offered: bot/kernel/premise.py); with none left, the model writes its own follow-up."""
    allowed = askable_indexes(q, answer)
    if len(allowed) == len(q.follow_ups):
        return q
    return q.model_copy(update={"follow_ups": [q.follow_ups[i] for i in allowed]})


def with_reference_point(q: Question) -> Question:
    """A question with no key points (a batch row with only a reference answer) is judged on one point:
    the reference answer's content."""
    if q.rubric.key_points:
        return q
    return q.model_copy(update={"rubric": q.rubric.model_copy(update={"key_points": [REFERENCE_POINT]})})


class LLMGrader:
    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        output_mode: OutputMode = "auto",
        prompts: PromptSet | None = None,
        max_tokens: int = 1500,
        deadline: float = 90.0,
        samples: int = 1,
        send_reference: bool = True,
        concurrency: int = 16,
        provider: Provider = "auto",
    ) -> None:
        self.client = client
        self.model = model
        self.id = f"llm:{model}"
        self.output_mode = output_mode
        self.provider = provider
        self.formats: tuple[Format, ...] = ladder(provider, output_mode)
        self._rung = 0  # the format in use: a refused one is not asked for again in this process
        self.reasoning = False  # the provider reasons before it answers (its reasoning counts against max_tokens)
        self.token_field = token_field(provider)
        self.temperature = True  # OpenAI's reasoning models take only their default temperature
        self.prompts = prompts or load_prompts()
        self.max_tokens = max_tokens
        self.deadline = deadline
        self.samples = max(1, samples)
        self.send_reference = send_reference
        self._slots = asyncio.Semaphore(max(1, concurrency))
        self.calls: deque[Call] = deque(maxlen=256)
        self.counts: Counter[str] = Counter()  # gradings, repairs, fallbacks, lenient (replies read leniently)

    @property
    def format(self) -> Format:
        return self.formats[self._rung]

    def _request(
        self, fmt: Format, messages: list[dict[str, str]], schema: dict[str, Any], max_tokens: int, name: str
    ) -> dict[str, Any]:
        if fmt == "json_object":  # the schema goes in the prompt, after everything else (the prefix stays cached)
            messages = [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + schema_hint(schema)}]
        limit = min(max_tokens, self.max_tokens) + (REASONING_TOKENS if self.reasoning else 0)
        return {
            "model": self.model,
            "messages": messages,
            self.token_field: limit,
            "response_format": response_format(fmt, schema, name),
        }

    async def complete(
        self,
        messages: list[dict[str, str]],
        schema: dict[str, Any],
        max_tokens: int,
        n: int = 1,
        name: str = "grade",
        temperature: float | None = None,
    ) -> tuple[list[str], int]:
        """One chat completion; returns (the contents of its choices, tokens used). Temperature 0 (or, when
        gradings are averaged over samples, the sampling one) unless `temperature` is given. A request the
        provider refuses (400, 422) is sent again in the next format its ladder allows, once per process.

        Raises GraderUnavailable (the provider failed) or InvalidOutput (the reply cannot be used)."""
        rung: int | None = self._rung
        while rung is not None:
            request = self._request(self.formats[rung], messages, schema, max_tokens, name)
            if self.temperature:
                request["temperature"] = (
                    (0 if self.samples == 1 else SAMPLE_TEMPERATURE) if temperature is None else temperature
                )
            if n > 1:
                request["n"] = n
            started = time.perf_counter()
            try:
                resp = await self.client.chat.completions.create(**request)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as err:
                if self._drop_parameter(err.param):
                    continue
                refused, rung = rung, next_rung(self.formats, rung, str(err.message))
                if rung is None:
                    raise GraderUnavailable(f"bad request: {err.status_code}") from None
                log.info(
                    "provider refused %s (%s); trying %s", self.formats[refused], err.status_code, self.formats[rung]
                )
                continue
            except (openai.APIConnectionError, openai.APIStatusError) as err:
                raise GraderUnavailable(type(err).__name__) from None
            if rung > self._rung:  # only down the ladder: a request begun before another stepped down stays up
                log.info("output format for this process: %s", self.formats[rung])
                self._rung = rung
            break
        usage = resp.usage
        details = getattr(usage, "prompt_tokens_details", None) if usage else None
        if not resp.choices:
            raise InvalidOutput("no choices")
        self.calls.append(
            Call(
                prompt_tokens=usage.prompt_tokens if usage else 0,
                completion_tokens=usage.completion_tokens if usage else 0,
                cached_tokens=int(getattr(details, "cached_tokens", 0) or 0),
                seconds=time.perf_counter() - started,
                finish_reason=str(resp.choices[0].finish_reason),
            )
        )
        if not self.reasoning and any(reasoned(c.message) for c in resp.choices):
            log.info("the provider reasons before answering: %d more tokens per request", REASONING_TOKENS)
            self.reasoning = True
        contents = []
        for choice in resp.choices:
            content = choice.message.content or ""
            if choice.finish_reason == "length":
                raise InvalidOutput("the reply was cut off (finish_reason=length)")
            if not content.strip():
                raise InvalidOutput("empty reply")
            contents.append(content)
        return contents, usage.total_tokens if usage else 0

    def _drop_parameter(self, param: object) -> bool:
        """Whether a refusal named a parameter this model does not take, now changed for the process: OpenAI's
        reasoning models refuse `max_tokens` (they take `max_completion_tokens`) and any temperature but their
        default. Each is changed once."""
        if param == "temperature" and self.temperature:
            self.temperature = False
        elif param == "max_tokens" and self.token_field == "max_tokens":
            self.token_field = "max_completion_tokens"
        else:
            return False
        log.info("the provider refused %s; changed for this process", param)
        return True

    async def _replies(
        self, messages: list[dict[str, str]], schema: dict[str, Any], lang: Lang
    ) -> tuple[list[Reply], int]:
        """`self.samples` valid replies (asking for the rest when a provider ignores `n`), with one repair."""
        bound = token_bound(schema, lang)
        replies: list[Reply] = []
        tokens = 0
        while len(replies) < self.samples:
            raw: list[str] = []
            try:
                raw, used = await self.complete(messages, schema, bound, n=self.samples - len(replies))
                tokens += used
                replies.extend(self._read(r, schema) for r in raw)
                continue
            except (InvalidOutput, ReplyError) as first:
                error = str(first)
            repair = [*messages]
            if raw:
                repair.append({"role": "assistant", "content": raw[0][:4000]})
            repair.append({"role": "user", "content": fill(self.prompts.repair, error=error)})
            self.counts["repairs"] += 1
            log.info("LLM reply could not be read (%s); one repair", error[:200])
            try:
                # sampled, not greedy: at temperature 0 a small local model has written the same broken
                # reply again, token for token, with the repair request in front of it
                (raw2, *_), more = await self.complete(repair, schema, bound, temperature=SAMPLE_TEMPERATURE)
                tokens += more
                replies.append(self._read(raw2, schema))
            except (InvalidOutput, ReplyError) as second:
                raise GraderUnavailable(f"invalid output after repair: {second}") from None
        return replies, tokens

    def _read(self, raw: str, schema: dict[str, Any]) -> Reply:
        reply = parse_reply(raw, schema)
        if reply.fixes:
            self.counts["lenient"] += 1
            log.debug("LLM reply read leniently: %s", "; ".join(reply.fixes)[:500])
        return reply

    async def ask(
        self,
        prompt: str,
        schema: dict[str, Any],
        lang: Lang,
        name: str,
        *,
        check: dict[str, Any] | None = None,
        temperature: float | None = None,
    ) -> tuple[Any, int]:
        """One structured request of the writers (rubric, STAR, tighten, /jd, /debrief) within the deadline:
        (the reply validated against `check` or else `schema`, tokens), or (None, 0) when the LLM cannot give
        one now (it failed, was too slow, or answered out of schema); the failure is logged by `name`."""
        try:
            async with asyncio.timeout(self.deadline):
                (raw, *_), tokens = await self.complete(
                    [{"role": "user", "content": prompt}], schema, token_bound(schema, lang), name=name,
                    temperature=temperature,
                )  # fmt: skip
            return validated(raw, check or schema), tokens
        except (GraderUnavailable, InvalidOutput, ReplyError, TimeoutError) as exc:
            log.info("LLM %s failed: %s", name, type(exc).__name__)
            return None, 0

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        question = with_reference_point(question)
        clean, injection = strip_injections(answer)
        question = askable_only(question, clean)
        messages = self.prompts.messages(question, clean, lang, level, new_tag(), self.send_reference)
        schema = reply_schema(
            [k.id for k in question.rubric.key_points], [f"f{i + 1}" for i in range(len(question.follow_ups))], lang
        )
        self.counts["gradings"] += 1
        try:
            async with asyncio.timeout(self.deadline):
                async with self._slots:
                    replies, tokens = await self._replies(messages, schema, lang)
        except TimeoutError:
            self.counts["fallbacks"] += 1
            raise GraderUnavailable(f"no grade within the {self.deadline:g} s deadline") from None
        except GraderUnavailable:
            self.counts["fallbacks"] += 1
            raise
        return self.to_grade(replies, question, clean, lang, injection, tokens)

    def to_grade(
        self, replies: list[Reply], q: Question, answer: str, lang: Lang, injection: str | None, tokens: int
    ) -> Grade:
        terms = point_terms(q.rubric.key_points, q, bank_weights())  # each hit's quote must state its point
        derived, shown = combine(replies, answer, q.rubric.key_points, terms)
        reply = replies[shown]
        dims = {d: int(derived.dimensions[d]) for d in DIMENSIONS}
        mistakes = [m.claim[:300] for m in reply.mistakes]
        if injection:
            mistakes.append(t(lang, "mistake.injection.llm", quote=injection[:60]))
            dims["correctness"] = max(0, dims["correctness"] - INJECTION_PENALTY)
        follow_up, points, reference = reply.follow_up, list(reply.follow_up_points), reply.follow_up_reference
        if q.follow_ups and follow_up.startswith("f") and follow_up[1:].isdigit():
            chosen = q.follow_ups[min(int(follow_up[1:]), len(q.follow_ups)) - 1]
            follow_up = chosen.get(lang)
            points = [k.text.get(lang) for k in chosen.key_points]
            reference = chosen.reference_answer.get(lang) if chosen.reference_answer else ""
        return Grade(
            score=total_score(dims, q.type, q.rubric.dimension_weights),
            dimensions=dims,
            key_points=[
                KeyPointResult(id=k.id, verdict=derived.verdicts[k.id][0], evidence=derived.verdicts[k.id][1][:200])
                for k in q.rubric.key_points
            ],
            mistakes=mistakes[:8],
            feedback=reply.feedback[:1200],
            follow_up=follow_up[:500],
            follow_up_points=[p[:300] for p in points[:4] if p],
            follow_up_reference=reference[:1500],
            grader=self.id,
            estimate=False,
            prompt_version=self.prompts.version,
            tokens=tokens,
            injection=injection is not None,
        )


__all__ = ["MAX_REPLY_BYTES", "GraderUnavailable", "InvalidOutput", "LLMGrader"]
