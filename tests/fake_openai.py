"""A fake OpenAI-compatible HTTP server (aiohttp) that the real `openai` client talks to.

Faults are scripted per request: `server.script.append(Fault(...))`; when the script is empty
the server answers with a valid grade computed from the request. Every request is recorded. With a
`provider` (tests/fake_providers.py) it refuses and shapes replies as that provider does.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web


@dataclass
class Fault:
    kind: str  # status | hang | content | length | refuse_schema | delay | trickle (a byte per `seconds`)
    status: int = 500
    headers: dict[str, str] = field(default_factory=dict)
    content: str = ""
    seconds: float = 0.0


def estimate_tokens(text: str) -> int:
    """Rough token count: CJK characters count one each, other text one per four characters."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    return cjk + (len(text) - cjk) // 4


def rubric_for(question: str) -> dict[str, Any]:
    return {
        "topic": "pipeline", "subtopic": "kv-cache", "type": "concept",
        "key_points": [
            {"id": "memory", "weight": 2, "text": "KV cache memory grows with layers, heads, length and batch",
             "keywords": ["memory", "sequence length", "batch"]},
            {"id": "gqa", "weight": 2, "text": "GQA/MQA share K/V heads to shrink the cache", "keywords": ["GQA", "MQA"]},
            {"id": "paged", "weight": 1, "text": "PagedAttention avoids fragmentation", "keywords": ["paged", "vLLM"]},
        ],
        "specifics": ["2 x layers x kv_heads x head_dim x bytes per token"], "mistakes": ["confuses KV cache with weights"],
        "reference_answer": f"Model answer to: {question[:40]}. The cache holds K and V for every layer, head and "
        "position, so it grows linearly with sequence length and batch; GQA shrinks it.",
    }  # fmt: skip


ANSWER_BLOCK = re.compile(r"<(answer_[a-z0-9]{8})>\n(.*)\n</\1>", re.S)


def request_text(body: dict[str, Any]) -> str:
    """The grading request itself: the user turn with the answer block (not the example turns or a repair)."""
    return next(
        (m["content"] for m in body["messages"] if m["role"] == "user" and ANSWER_BLOCK.search(m["content"])), ""
    )


def answer_in(prompt: str) -> str:
    m = ANSWER_BLOCK.search(prompt)
    return m.group(2) if m else ""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+|[\u3400-\u9fff]", text.casefold())


def closest_span(answer: str, point: str) -> str:
    """The answer's run of words (CJK: characters) that shares most with the key point's text and fits a quote (50
    characters, 30 in Chinese): the quote a model gives for a point it credits (the first words when none does)."""
    cjk = bool(re.search(r"[\u3400-\u9fff]", answer))
    tokens, sep, most = (list(answer.replace(" ", "")), "", 30) if cjk else (answer.split(), " ", 50)
    wanted = set(_words(point))
    runs = []
    for i in range(len(tokens)):
        j = i + 1
        while j < len(tokens) and len(sep.join(tokens[i : j + 1])) <= most:
            j += 1
        runs.append(sep.join(tokens[i:j])[:most])
    return max(runs or [""], key=lambda run: len(set(_words(run)) & wanted))


def default_grade(body: dict[str, Any]) -> dict[str, Any]:
    """A valid reply computed from the request: every point hit (quoting the span of the answer closest to each
    point) for a long answer, every point missed for a short one; a gullible model that obeys "give 100"."""
    user = body["messages"][-1]["content"]
    if "<interview_question>" in user:
        return rubric_for(user.split("<interview_question>")[1])
    first_user = request_text(body)
    answer = answer_in(first_user)
    ids = re.findall(r"^- ([\w-]+), [\d.]+:", first_user, re.M)
    follow_ids = re.findall(r"^- (f\d+): ", first_user, re.M)
    gullible = "give 100" in answer.lower() or "满分" in answer
    strong = gullible or len(answer) > 200
    points = dict(re.findall(r"^- ([\w-]+), [\d.]+: (.*)$", first_user, re.M))
    zh = "Chinese" in first_user.split("\n", 1)[0]
    level = "strong" if strong else "weak"
    reply: dict[str, Any] = {
        "key_points": {
            k: {"quote": closest_span(answer, points.get(k, "")) if strong else "", "verdict": "hit" if strong else "missed"}
            for k in ids
        },
        "mistakes": [],
        "structure": level, "specificity": level, "evidence": level,
        "feedback": "结构清楚，但缺少具体数字。" if zh else "Clear structure, but name the numbers you used.",
    }  # fmt: skip
    if follow_ids:
        reply["follow_up"] = follow_ids[0]
    else:
        reply["follow_up"] = (
            "你会把裁剪阈值设为多少？为什么？" if zh else "What clipping threshold would you pick, and why?"
        )
        reply["follow_up_points"] = [
            "names a threshold such as 1.0",
            "explains how the gradient-norm history guided it",
        ]
        reply["follow_up_reference"] = (
            "Clip the global norm at 1.0, chosen from the gradient-norm percentiles of a good run."
        )
    return reply


class ProviderBehaviour(Protocol):
    """How one provider refuses a request and shapes a reply (tests/fake_providers.py)."""

    honours_n: bool

    def refuse(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None: ...

    def shape(self, body: dict[str, Any], reply: dict[str, Any], count: int) -> tuple[str, dict[str, Any]]: ...


class FakeOpenAI:
    def __init__(self) -> None:
        self.script: list[Fault] = []
        self.requests: list[dict[str, Any]] = []
        self.transcripts: dict[str, str] = {}
        self.uploads: list[bytes] = []  # audio files received, in order
        self.grade_fn = default_grade
        self.schema_supported = True
        self.n_supported = True  # honour "n" (several choices); llama-server-like providers give one
        self.provider: ProviderBehaviour | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._hang = asyncio.Event()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self.chat)
        app.router.add_post("/v1/audio/transcriptions", self.transcribe)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        self._hang.set()
        if self._runner is not None:
            await self._runner.cleanup()

    def chat_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r.get("_path") == "chat"]

    async def chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        body["_path"] = "chat"
        self.requests.append(body)
        fault = self.script.pop(0) if self.script else None
        if fault is not None:
            if fault.kind == "status":  # the error body is `content` when given
                err = {"error": {"message": "injected", "type": "server_error", "code": None}}
                err = json.loads(fault.content) if fault.content else err
                return web.json_response(err, status=fault.status, headers=fault.headers)
            if fault.kind == "hang":
                await self._hang.wait()
                return web.json_response({}, status=500)
            if fault.kind == "delay":
                await asyncio.sleep(fault.seconds)
            if fault.kind == "trickle":  # a slow server: each read succeeds, the whole reply never ends
                response = web.StreamResponse(headers={"Content-Type": "application/json"})
                await response.prepare(request)
                while not self._hang.is_set():
                    await response.write(b" ")
                    await asyncio.sleep(fault.seconds)
                return response
        refusal = self.provider.refuse(body) if self.provider is not None else None
        if refusal is not None:
            return web.json_response(refusal[1], status=refusal[0])
        fmt = body.get("response_format", {}).get("type")
        if fmt == "json_schema" and not self.schema_supported:
            err = {
                "error": {"message": "response_format json_schema is not supported", "type": "invalid_request_error"}
            }
            return web.json_response(err, status=400)
        finish, extra = "stop", {}
        if fault is not None and fault.kind in ("content", "length"):
            content = fault.content
            finish = "length" if fault.kind == "length" else "stop"
        elif self.provider is not None:
            content, extra = self.provider.shape(body, self.grade_fn(body), len(self.chat_requests()))
        else:
            content = json.dumps(self.grade_fn(body), ensure_ascii=False)
        honours_n = self.n_supported and (self.provider is None or self.provider.honours_n)
        n = int(body.get("n") or 1) if honours_n else 1
        prompt_tokens = sum(estimate_tokens(m["content"]) for m in body["messages"])
        completion_tokens = estimate_tokens(content) * n
        return web.json_response(
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": body.get("model", "fake"),
                "choices": [{"index": i, "finish_reason": finish,
                             "message": {"role": "assistant", "content": content, **extra}} for i in range(n)],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                          "total_tokens": prompt_tokens + completion_tokens},
            }
        )  # fmt: skip

    async def transcribe(self, request: web.Request) -> web.Response:
        form = await request.post()
        record = {k: v if isinstance(v, str) else getattr(v, "filename", "file") for k, v in form.items()}
        record["_path"] = "audio"
        self.requests.append(record)
        fault = self.script.pop(0) if self.script else None
        if fault is not None and fault.kind == "status":
            return web.json_response({"error": {"message": "injected"}}, status=fault.status, headers=fault.headers)
        upload = form.get("file")
        data = upload.file.read() if upload is not None and not isinstance(upload, str) else b""
        self.uploads.append(data)
        if not data:
            return web.json_response({"error": {"message": "empty file"}}, status=400)
        lang = str(form.get("language", ""))
        return web.json_response({"text": self.transcripts.get(lang, "transcribed text")})
