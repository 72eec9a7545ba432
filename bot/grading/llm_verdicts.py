"""From the model's verdicts to the five dimension scores, in code.

Coverage is the weighted share of key points hit (a partial counts half); a verdict whose quote is
not in the answer is lowered one step (hit -> partial -> missed): a point is credited for what the
answer says, not for what the model remembers of the rubric. Correctness starts at 100 and loses a
fixed amount per mistake by severity. Structure, specificity and evidence are levels mapped to
numbers. Several samples are combined by averaging each point's credit and each dimension.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import mean

from bot.grading.llm_reply import Reply
from bot.kernel.models import DIMENSIONS, KeyPoint
from bot.text.tokens import normalize

CREDIT = {"hit": 1.0, "partial": 0.5, "missed": 0.0}
LOWER = {"hit": "partial", "partial": "missed", "missed": "missed"}
LEVEL_SCORE = {"none": 5, "weak": 35, "fair": 65, "strong": 90}
PENALTY = {"serious": 40, "minor": 15}
QUOTE_SHARE = 0.7  # share of a quote's words (or CJK characters) that must appear in the answer
_TOKEN = re.compile(r"[\u3400-\u9fff]|[a-z0-9]+(?:[.'][a-z0-9]+)*")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalize(text))


def quoted(quote: str, answer: str) -> bool:
    """Whether the quote is (nearly) in the answer: a substring, or most of its words in the answer."""
    words = _tokens(quote)
    if not words:
        return False
    plain = " ".join(_tokens(answer))
    if " ".join(words) in plain:
        return True
    present = set(plain.split())
    return sum(w in present for w in words) >= QUOTE_SHARE * len(words)


def checked_verdicts(reply: Reply, answer: str) -> dict[str, tuple[str, str]]:
    """Per key-point id: (verdict, quote) after the quote check."""
    out = {}
    for p in reply.points:
        verdict = p.verdict if p.verdict == "missed" or quoted(p.quote, answer) else LOWER[p.verdict]
        out[p.id] = (verdict, p.quote if verdict != "missed" else "")
    return out


@dataclass(frozen=True)
class Derived:
    dimensions: dict[str, int]
    verdicts: dict[str, tuple[str, str]]  # id -> (verdict, quote)


def derive(reply: Reply, answer: str, points: Sequence[KeyPoint]) -> tuple[dict[str, float], dict[str, float]]:
    """(dimension scores, per-point credit) for one sample."""
    verdicts = checked_verdicts(reply, answer)
    credit = {k.id: CREDIT[verdicts[k.id][0]] if k.id in verdicts else 0.0 for k in points}
    weight = sum(k.weight for k in points)
    coverage = 100 * sum(k.weight * credit[k.id] for k in points) / weight if weight else 0.0
    correctness = max(0, 100 - sum(PENALTY[m.severity] for m in reply.mistakes))
    dims = {"coverage": coverage, "correctness": float(correctness)}
    dims.update({d: float(LEVEL_SCORE[level]) for d, level in reply.levels.items()})
    return dims, credit


def combine(replies: Sequence[Reply], answer: str, points: Sequence[KeyPoint]) -> tuple[Derived, int]:
    """Average the samples; returns the combined result and the index of the sample closest to it
    (whose feedback, mistakes and follow-up are shown)."""
    per = [derive(r, answer, points) for r in replies]
    dims = {d: round(mean(p[0][d] for p in per)) for d in DIMENSIONS}
    verdicts: dict[str, tuple[str, str]] = {}
    for k in points:
        credit = mean(p[1][k.id] for p in per)
        verdict = "hit" if credit >= 0.75 else "partial" if credit >= 0.25 else "missed"
        quote = next((q for r in replies if (q := checked_verdicts(r, answer).get(k.id, ("", ""))[1])), "")
        verdicts[k.id] = (verdict, quote if verdict != "missed" else "")
    closest = min(range(len(per)), key=lambda i: sum(abs(per[i][0][d] - dims[d]) for d in DIMENSIONS))
    return Derived(dims, verdicts), closest
