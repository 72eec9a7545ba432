"""Grading: the offline estimate, the LLM grader, provider-tolerant reply reading, prompts; its messages (feedback,
generic follow-ups, the mistakes the graders name) are in locales/zh.po."""

from pathlib import Path

from bot.kernel.i18n import register_catalogue

register_catalogue(Path(__file__).with_name("locales"))  # its messages, with the kernel's
