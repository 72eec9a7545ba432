"""Text that is not an answer: no letter, digit or Chinese character at all (emoji, punctuation), or only a way of
saying "I don't know". Such text is not graded, not stored as an attempt and does not reschedule the card
(design section 4): the user is offered another try, or "I don't know", an explicit Again that shows the
reference answer."""

from __future__ import annotations

from bot.text.fold import fold

MAX_CHECKED = 80  # a longer text is an attempt at an answer, however it begins
DONT_KNOW = frozenset(
    {
        "idk", "i dont know", "i do not know", "dont know", "do not know", "no idea", "not sure", "dunno",
        "no clue", "pass", "i have no idea", "i am not sure", "im not sure", "not a clue", "na", "n a",
        "no", "nope", "nothing", "none", "skip", "?",
        "不知道", "不会", "不清楚", "不确定", "没想法", "不懂", "不了解", "忘了", "我不知道", "我不会",
        "不知道啊", "不会啊", "想不起来", "没思路", "没有思路", "跳过", "过", "无", "不记得", "不晓得",
    }
)  # fmt: skip


def _words(text: str) -> str:
    """Lower-case letters, digits and CJK characters, runs of anything else as one space."""
    out: list[str] = []
    gap = False
    for ch in fold(text):
        if ch.isalnum():
            if gap and out:
                out.append(" ")
            out.append(ch)
            gap = False
        elif ch != "'" and ch != "’":  # "don't" reads as "dont"
            gap = True
    return "".join(out)


def is_non_answer(text: str) -> bool:
    """No letter, digit or Chinese character at any length; or, within MAX_CHECKED characters, only "idk"."""
    stripped = text.strip()
    if not any(ch.isalnum() for ch in stripped):
        return True
    return len(stripped) <= MAX_CHECKED and _words(stripped) in DONT_KNOW
