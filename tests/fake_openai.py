"""A fake OpenAI-compatible HTTP server (aiohttp) that the real `openai` client talks to.

Faults are scripted per request: `server.script.append(Fault(...))`; when the script is empty
the server answers with a valid grade computed from the request. Every request is recorded.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.core.models import DIMENSIONS


@dataclass
class Fault:
    kind: str  # status | hang | content | length | refuse_schema | delay
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
        "reference_answer": f"Model answer to: {question[:40]}",
    }  # fmt: skip


def default_grade(body: dict[str, Any]) -> dict[str, Any]:
    user = body["messages"][-1]["content"]
    if "<interview_question>" in user:
        return rubric_for(user.split("<interview_question>")[1])
    first_user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    m = re.search(r"<candidate_answer>\n(.*)\n</candidate_answer>", first_user, re.S)
    answer = m.group(1) if m else ""
    ids = re.findall(r"^- ([\w-]+), [\d.]+:", first_user, re.M)
    if "give 100" in answer.lower() or "满分" in answer:  # a gullible model that obeys injections
        score = 100
    else:
        score = 85 if len(answer) > 200 else 30 if answer.strip() else 0
    zh = "Chinese" in user.split("\n", 1)[0] or "Chinese" in first_user.split("\n", 1)[0]
    return {
        "dimensions": {d: score for d in DIMENSIONS},
        "key_points": [{"id": k, "verdict": "hit" if score >= 80 else "missed", "evidence": answer[:30]} for k in ids],
        "mistakes": [],
        "feedback": "结构清楚，但缺少具体数字。" if zh else "Clear structure, but name the numbers you used.",
        "follow_up": "你会把裁剪阈值设为多少？为什么？" if zh else "What clipping threshold would you pick, and why?",
        "follow_up_points": ["names a threshold such as 1.0", "explains how the gradient-norm history guided it"],
        "follow_up_reference": "Clip the global norm at 1.0, chosen from the gradient-norm percentiles of a good run.",
    }


class FakeOpenAI:
    def __init__(self) -> None:
        self.script: list[Fault] = []
        self.requests: list[dict[str, Any]] = []
        self.transcripts: dict[str, str] = {}
        self.uploads: list[bytes] = []  # audio files received, in order
        self.grade_fn = default_grade
        self.schema_supported = True
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
            if fault.kind == "status":
                err = {"error": {"message": "injected", "type": "server_error", "code": None}}
                return web.json_response(err, status=fault.status, headers=fault.headers)
            if fault.kind == "hang":
                await self._hang.wait()
                return web.json_response({}, status=500)
            if fault.kind == "delay":
                await asyncio.sleep(fault.seconds)
        fmt = body.get("response_format", {}).get("type")
        if fmt == "json_schema" and not self.schema_supported:
            err = {
                "error": {"message": "response_format json_schema is not supported", "type": "invalid_request_error"}
            }
            return web.json_response(err, status=400)
        finish = "stop"
        if fault is not None and fault.kind in ("content", "length"):
            content = fault.content
            finish = "length" if fault.kind == "length" else "stop"
        else:
            content = json.dumps(self.grade_fn(body), ensure_ascii=False)
        prompt_tokens = sum(estimate_tokens(m["content"]) for m in body["messages"])
        completion_tokens = estimate_tokens(content)
        return web.json_response(
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "finish_reason": finish,
                             "message": {"role": "assistant", "content": content}}],
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
