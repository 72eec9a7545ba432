"""The STAR check of a case answer in a mock's debrief: for each part (Situation, Task, Action, Result), found by
its markers in either language, whether the answer has it, says it vaguely or misses it."""

from __future__ import annotations

import re

# STAR parts by markers in both languages; a Result without a number, or a single Action marker, is vague.
STAR_MARKERS: dict[str, tuple[str, ...]] = {
    "S": (
        "when i was",
        "at my",
        "in my last",
        "our team",
        "we were",
        "the project",
        "in production",
        "last year",
        "on a run",
        "当时",
        "之前在",
        "我们团队",
        "项目",
        "背景",
        "有一次",
        "线上",
    ),
    "T": (
        "my task",
        "i was responsible",
        "i owned",
        "my job",
        "my role",
        "the goal",
        "i had to",
        "i needed to",
        "we needed to",
        "负责",
        "任务",
        "目标",
        "需要我",
        "我的职责",
    ),
    "A": (
        "i added",
        "i changed",
        "i ran",
        "i set",
        "i checked",
        "i traced",
        "i switched",
        "i rolled back",
        "i implemented",
        "first i",
        "then i",
        "we switched",
        "we added",
        "我先",
        "然后我",
        "我把",
        "我们把",
        "我加了",
        "改成",
        "排查",
        "定位到",
        "回滚",
    ),
    "R": (
        "as a result",
        "result",
        "reduced",
        "improved",
        "went down",
        "went up",
        "recovered",
        "saved",
        "cut",
        "no longer",
        "结果",
        "最终",
        "降到",
        "提升",
        "减少",
        "恢复",
        "不再",
        "缩短",
    ),
}
NUMBER = re.compile(r"\d")
STAR_PARTS = ("situation", "task", "action", "result")


def star_check(answer: str) -> dict[str, str]:
    """For each STAR part: "ok", "vague" or "missing"."""
    low = answer.lower()
    found = {part: sum(low.count(m) for m in markers) for part, markers in STAR_MARKERS.items()}
    out = {}
    for part, n in found.items():
        if n == 0:
            out[part] = "missing"
        elif (part == "R" and not NUMBER.search(answer)) or (part == "A" and n < 2):
            out[part] = "vague"
        else:
            out[part] = "ok"
    return out
