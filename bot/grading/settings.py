"""The LLM grader's settings (LLM__*), composed into the bot's settings by bot/config.py."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SecretStr


class LLMSettings(BaseModel):
    base_url: str | None = None
    api_key: SecretStr | None = None
    model: str | None = None
    timeout: float = Field(default=30.0, gt=0)
    """Per HTTP read; `deadline` bounds a whole grading (retries and repair included)."""
    retries: int = Field(default=2, ge=0, le=10)
    deadline: float = Field(default=90.0, gt=0)
    output_mode: Literal["auto", "json_schema", "json_object"] = "auto"
    provider: Literal["auto", "openai", "deepseek", "dashscope", "ollama", "vllm", "llamacpp"] = "auto"
    """How the provider takes structured output (bot/grading/providers.py); `auto` knows OpenAI, DeepSeek and
    DashScope by their hosts and otherwise learns from the first refusal."""
    daily_limit: int = Field(default=50, ge=0)
    """LLM calls per platform account over the last 24 hours: gradings, rubrics for /review, second checks."""
    daily_token_budget: int = Field(default=0, ge=0)
    """Tokens per UTC day over all users (0: no budget); past it everyone gets the offline grade."""
    samples: int = Field(default=1, ge=1, le=5)
    send_reference: bool = True
    concurrency: int = Field(default=16, ge=1, le=256)
    """Gradings in flight at once (1 for a local CPU server with one slot)."""
