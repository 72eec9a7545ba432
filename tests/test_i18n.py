"""The message catalogue: every message in both languages, with the same placeholders."""

from __future__ import annotations

import string

from bot.core.i18n import MESSAGES, t


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_both_languages_and_the_same_placeholders() -> None:
    problems = []
    for key, entry in MESSAGES.items():
        if set(entry) != {"zh", "en"} or bool(entry["zh"].strip()) != bool(entry["en"].strip()):
            problems.append(f"{key}: missing a language")  # (both empty is allowed: an empty tag by design)
        elif placeholders(entry["zh"]) != placeholders(entry["en"]):
            problems.append(f"{key}: {placeholders(entry['zh'])} != {placeholders(entry['en'])}")
    assert problems == []


def test_lookup_formats_in_the_requested_language() -> None:
    assert t("zh", "answer_too_long", length=7000, limit=6000) == "你的回答有 7000 个字符，上限是 6000。请精简后重新发送。"
    assert "7000" in t("en", "answer_too_long", length=7000, limit=6000)
