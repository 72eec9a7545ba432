"""`python -m bot content stats`: counts by topic, subtopic, type, level and difficulty; `content check`
ends with the counts by topic, type and level (`print_summary`)."""

from __future__ import annotations

from collections import Counter

from bot.kernel.models import Question


def counts(questions: list[Question]) -> dict[str, Counter[str]]:
    return {
        "topic": Counter(q.topic for q in questions),
        "subtopic": Counter(f"{q.topic}/{q.subtopic}" for q in questions),
        "type": Counter(q.type for q in questions),
        "level": Counter(q.level for q in questions),
        "difficulty": Counter(str(q.difficulty) for q in questions),
    }


SUMMARY = ("topic", "type", "level")
"""The counts `content check` reports after its verdict."""


def summary_lines(questions: list[Question]) -> list[str]:
    """One line per dimension of SUMMARY: `by type: case 20, compare 30, ...` (keys sorted)."""
    table = counts(questions)
    return [f"by {name}: " + ", ".join(f"{key} {n}" for key, n in sorted(table[name].items())) for name in SUMMARY]


def print_summary(questions: list[Question]) -> None:
    for line in summary_lines(questions):
        print(line)


def print_stats(questions: list[Question]) -> None:
    print(f"{len(questions)} questions")
    for name, counter in counts(questions).items():
        print(f"\nby {name}:")
        for key, n in sorted(counter.items()):
            share = 100 * n / max(1, len(questions))
            print(f"  {key:<40} {n:>4}  {share:5.1f}%")
