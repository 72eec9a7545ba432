"""Surface signals of a good interview answer: structure, specificity and evidence, each 0-1.

These are raw levels; the grader compares them with the level the reference answer shows, so
a one-sentence reference does not demand a five-step answer. English and Chinese markers.
"""

from __future__ import annotations

import re

from bot.core.text import normalize

_EN_ORDINALS = re.compile(
    r"\b(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|fifth|then|next|after that|afterwards|finally|"
    r"lastly|step \d+|to (?:start|begin) with|at the end)\b"
)
_ZH_ORDINALS = re.compile(
    r"首先|其次|然后|接着|随后|再次|最后|最终|此外|另外|第[一二三四五六七八九十\d]+(?:步|点|个|层|阶段)?|[一二三四]是"
)
_LIST_LINE = re.compile(r"^\s*(?:\d+[.)、]|[-*•·]|[(（]?[一二三四五六七八九十]+[)）、.])\s*\S", re.M)
_CONNECTIVES = re.compile(
    r"\b(?:because|so that|therefore|thus|which means|otherwise|as a result|if\b.{1,60}?\bthen|in order to)\b"
    r"|因为|所以|因此|如果|否则|说明|导致|从而|为了"
)
_SENTENCE = re.compile(r"[.!?。！？；;\n]+(?:\s|$)|[。！？；\n]")

_NUMBER = re.compile(
    r"(?<![a-z_])(?:\d+(?:\.\d+)?e[-+]?\d+"  # 3e-4
    r"|\d+(?:\.\d+)?\s?(?:%|x\b|×|k\b|m\b|b\b|ms\b|gb\b|tb\b|s\b|h\b|"
    r"steps?|tokens?|epochs?|layers?|gpus?|nodes?|seeds?|iterations?|samples?|batches|percent|times|"
    r"步|张卡|块卡|个|倍|层|秒|分钟|小时|天|次|轮|条)"  # 5%, 2k steps, 8 张卡
    r"|\d+\.\d+"  # 1.0, 0.9
    r"|\d+(?:\s*[-~到至]\s*\d+)+)"  # 3-5, 1~5
)
_TECH = re.compile(
    r"\b[a-z]+_[a-z0-9_]+\b|\b[a-z]{2,}\.[a-z_]{2,}(?:\.[a-z_]+)*|\b(?:fp|bf|int)\d+\b|\b[A-Z]{2,}[A-Z0-9]*\b"
)

_EN_FIRST_PERSON = re.compile(r"\b(?:i|we|my|our|us)\b")
_ZH_FIRST_PERSON = re.compile(r"我")
_CASE = re.compile(
    r"\b(?:in my|in our|at my|at our|my team|our team|project|in production|production run|last year|"
    r"one time|once we|when i was|on our cluster|in practice|my last|my previous)\b"
    r"|项目|线上|生产|当时|之前|有一次|遇到过|实际中|实践中|我在|我们在|团队"
)
_PAST = re.compile(
    r"\b(?:found|fixed|noticed|saw|traced|switched|reduced|dropped|improved|resolved|discovered|turned out|"
    r"realised|realized|measured|caught|solved|cut|recovered)\b"
    r"|发现|定位到|解决了|修复了|后来|结果|最终|排查出"
)
_RESULT = re.compile(
    r"\b(?:from \S+ to|dropped|reduced|improved|cut|recovered|went from|down to|up to|by \d)"
    r"|降到|降低|提升|提高|减少|恢复|从\s*\S+\s*(?:降|升|提)?到"
)


def _count(pattern: re.Pattern[str], text: str, cap: int) -> int:
    n = 0
    for _ in pattern.finditer(text):
        n += 1
        if n >= cap:
            break
    return n


def sentence_count(text: str) -> int:
    return len([s for s in _SENTENCE.split(text) if len(s.strip()) > 3])


def structure_level(text: str) -> float:
    """Ordered, layered reasoning: ordinal markers, lists, several sentences and paragraphs."""
    t = normalize(text)
    ordinals = len({m.group(0) for m in _EN_ORDINALS.finditer(t)}) + len({m.group(0) for m in _ZH_ORDINALS.finditer(t)})
    list_lines = _count(_LIST_LINE, text, 3)
    paragraphs = len([p for p in re.split(r"\n\s*\n", text) if p.strip()])
    n_sent = sentence_count(text)
    connectives = _count(_CONNECTIVES, t, 2)
    return (
        0.45 * min(1.0, (ordinals + (2 if list_lines >= 2 else 0)) / 3)
        + 0.25 * min(1.0, max(0, n_sent - 1) / 4)
        + 0.15 * min(1.0, connectives / 2)
        + 0.15 * (1.0 if list_lines >= 2 or paragraphs >= 2 else 0.0)
    )


def numbers(text: str) -> set[str]:
    """Distinct quantities: numbers with units, decimals, exponents, ranges, percentages."""
    return {m.group(0).replace(" ", "") for m in _NUMBER.finditer(normalize(text))}


def technical_terms(text: str) -> set[str]:
    return {m.group(0).lower() for m in _TECH.finditer(text)}


def specificity_level(text: str, specifics_hit: float | None) -> float:
    """Numbers, settings and named tools; `specifics_hit` is the share of the rubric's specifics."""
    n_num = min(1.0, len(numbers(text)) / 4)
    n_tech = min(1.0, len(technical_terms(text)) / 3)
    if specifics_hit is None:
        return 0.6 * n_num + 0.4 * n_tech
    return 0.4 * specifics_hit + 0.35 * n_num + 0.25 * n_tech


def evidence_level(text: str) -> float:
    """A real case: first person, project or production context, what was found, a measured result."""
    t = normalize(text)
    first = bool(_EN_FIRST_PERSON.search(t) or _ZH_FIRST_PERSON.search(t))
    case = _count(_CASE, t, 2)
    past = _count(_PAST, t, 2)
    result = any(_NUMBER.search(s) and _RESULT.search(s) for s in _SENTENCE.split(t))
    return 0.25 * first + 0.3 * case / 2 + 0.2 * past / 2 + 0.25 * result
