"""Every regular expression in bot/ is linear on inputs built from its own shape (issue #34): a ReDoS scan
(tests/redos.py) times each pattern at n and 4n characters on strings that pump each of its repeated parts and
fails on super-linear growth or a run past a 1 s budget. Control cases show the scan catches known-bad patterns
(exponential, cubic, quadratic) and passes their linear rewrites."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import redos


def _built_at_run_time() -> list[redos.Found]:
    """Patterns built from data when the bot runs: the delimiter tag, a phrase of a job description, a premise."""
    from bot.features.jd.match import _compiled, _phrase
    from bot.grading.delimiters import _tag_pattern, new_tag
    from bot.kernel.premise import _pattern

    phrase = _phrase("mixed-precision training", (("precision", 1.0),))
    assert phrase is not None
    return [
        redos.Found("bot.grading.delimiters._tag_pattern", _tag_pattern(new_tag())),
        redos.Found("bot.features.jd.match._phrase", _compiled(phrase.source)),
        redos.Found("bot.kernel.premise._pattern (latin)", _pattern("warmup 5%")[0]),
        redos.Found("bot.kernel.premise._pattern (cjk)", _pattern("梯度 裁剪")[0]),
    ]


def _ours() -> list[redos.Found]:
    return [*redos.patterns(), *_built_at_run_time()]


def test_the_scan_finds_the_patterns_of_every_part_of_bot() -> None:
    where = [f.where for f in redos.patterns()]
    assert len(where) >= 150
    assert any(w.startswith("bot.grading.injection._ANY") for w in where)  # the injection defence is scanned too
    split = Path(redos.__file__).resolve().parents[1] / "bot" / "features" / "debrief" / "split.py"
    inline = next(n for n, line in enumerate(split.read_text().splitlines(), 1) if 're.sub(r"[\\u200b' in line)
    for expected in (
        "bot.grading.features._PROBE",
        "bot.grading.markers._SENTENCE",
        "bot.features.debrief.debrief._DROP",
        "bot.features.drill.speaking.FILLERS",
        "bot.dates._CLOCK",
        f"bot/features/debrief/split.py:{inline}",  # an inline re.sub in a function
    ):
        assert any(w.startswith(expected) for w in where), expected


@pytest.mark.parametrize(
    "bad",
    [
        r"(a+)+$",  # exponential
        r"\s*,?\s*\bbut\b",  # cubic under finditer: the old break-word pattern
        r"\s*((?:\d+[\s,]*)+)$",  # the old /debrief numbers
        r"[a-z]+\d",  # quadratic under finditer
    ],
)
def test_control_the_scan_catches_a_known_bad_pattern(bad: str) -> None:
    assert redos.scan(re.compile(bad), first_only=True)


# `(?:a++)$` is not among them: possessive, it never backtracks inside one attempt, but finditer starts an attempt at
# every "a" of the run and each reads the run to its end (quadratic; 4.4 ms at 4n against 0.29 ms at n, measured);
# the lookbehind starts one attempt per run.
@pytest.mark.parametrize("good", [r"(?<!a)a++$", r"(?:(?<!\s)\s++)?+(?:,\s*+)?+\bbut\b", r"(?<![a-z])[a-z]++\d"])
def test_control_the_scan_passes_their_linear_rewrites(good: str) -> None:
    assert redos.scan(re.compile(good)) == []


def test_every_pattern_in_bot_is_linear() -> None:
    slow = {}
    for found in _ours():
        findings = redos.scan(found.pattern, first_only=True)
        if findings:  # a busy machine can slow one timing: super-linear only if two more scans agree
            findings = redos.scan(found.pattern, first_only=True) and redos.scan(found.pattern, first_only=True)
        if findings:
            slow[found.where] = f"{found.pattern.pattern[:80]!r}: {findings[0]}"
    assert slow == {}
