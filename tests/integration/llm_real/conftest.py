"""A real llama.cpp server with a real small model, from the `llm-real` extra (installed by `.ci/run`).

Nothing is installed or downloaded here: without the extra every test in this folder is skipped, and
says why. The server is started once on 127.0.0.1 for the tests here and stopped after them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import openai
import pytest
import pytest_asyncio

from bot.grading.llm import LLMGrader
from bot.grading.local_server import LocalModelMissing, Running, llama_server, model_parts, server_binary


def _missing() -> str | None:
    try:
        server_binary()
        model_parts()
    except LocalModelMissing as err:
        return str(err)
    return None


MISSING = _missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"real-model tests need the llm-real extra: {MISSING}")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def real_server() -> AsyncIterator[Running]:
    """Stopped after this folder's tests: a server left running still finishes the generation a timed-out
    test abandoned, and takes a core from the rest of the suite."""
    if MISSING is not None:
        pytest.skip(f"real-model tests need the llm-real extra: {MISSING}")
    async with llama_server() as running:
        yield running


def real_grader(running: Running, deadline: float = 600.0) -> LLMGrader:
    """The documented local-model settings (bot/grading/local_server.LOCAL_SETTINGS: one at a time) with twice
    their deadline and two retries: these tests check plumbing, a busy two-core CI machine without AVX-512
    has taken over 300 s for a grading, and llama-server has now and then answered a request with a 500."""
    client = openai.AsyncOpenAI(base_url=running.base_url, api_key="not-needed", timeout=600, max_retries=2)
    return LLMGrader(client, running.model, deadline=deadline, concurrency=1, provider="llamacpp")
