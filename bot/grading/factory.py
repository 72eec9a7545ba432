"""Build the LLM grader from settings (None when no model is configured).

The `openai` SDK (1.2 s to import) is imported only when a model is configured."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.grading.settings import LLMSettings

if TYPE_CHECKING:
    from bot.grading.llm import LLMGrader


def llm_grader(settings: LLMSettings) -> LLMGrader | None:
    """An LLM grader when LLM_MODEL and a base URL or API key are set (local servers need no key)."""
    if not settings.model or not (settings.base_url or settings.api_key):
        return None
    import openai

    from bot.grading.llm import LLMGrader
    from bot.grading.providers import resolve

    key = settings.api_key.get_secret_value() if settings.api_key else "not-needed"
    client = openai.AsyncOpenAI(
        base_url=settings.base_url or None, api_key=key, timeout=settings.timeout, max_retries=settings.retries
    )
    return LLMGrader(
        client,
        settings.model,
        output_mode=settings.output_mode,
        deadline=settings.deadline,
        samples=settings.samples,
        send_reference=settings.send_reference,
        concurrency=settings.concurrency,
        provider=resolve(settings.provider, settings.base_url),
    )
