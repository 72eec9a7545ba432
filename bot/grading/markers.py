"""Surface signals of a good interview answer: structure, specificity and evidence, each 0-1.

These are raw levels; the grader compares them with the level the reference answer shows, so
a one-sentence reference does not demand a five-step answer. English and Chinese markers.
"""

from __future__ import annotations

import re

from bot.text.numerals import ONE_TO_TEN
from bot.text.tokens import normalize

_EN_ORDINALS = re.compile(
    r"\b(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|fifth|then|next|after that|afterwards|finally|"
    r"lastly|step \d+|to (?:start|begin) with|at the end)\b"
)
_ZH_ORDINALS = re.compile(
    rf"首先|其次|然后|接着|随后|再次|最后|最终|此外|另外|第[{ONE_TO_TEN}\d]+(?:步|点|个|层|阶段)?|[一二三四]是"
)
_LIST_LINE = re.compile(rf"^[^\S\n]*+(?:\d++[.)、]|[-*•·]|[(（]?[{ONE_TO_TEN}]++[)）、.])\s*+\S", re.M)
# Inline enumerations: "诊断 1)… 2)… 3)…", "（1）…（2）…", "① ②", "step 1 … step 2", arrows between steps.
_INLINE_ENUM = re.compile(r"(?:^|[\s:：，,。;；])(?:[(（]\d{1,2}[)）]|\d{1,2}[)）]|[①②③④⑤⑥⑦⑧⑨])")
_ARROWS = re.compile(r"->|→|=>|⇒")
_HEADING = re.compile(r"(?:^|\n|[。；;.]\s*)[^\n:：。.]{1,12}[:：]", re.M)
_CONNECTIVES = re.compile(
    r"\b(?:because|so that|therefore|thus|which means|otherwise|as a result|if\b.{1,60}?\bthen|in order to)\b"
    r"|因为|所以|因此|如果|否则|说明|导致|从而|为了"
)
# A run of ends taken whole, from its start (linear, issue #34): with a blank or the end after it, or up to its
# last line break; else one full stop of its own.
_SENTENCE = re.compile(r"(?<![.!?。！？；;\n])(?:[.!?。！？；;\n]++(?:\s|$)|(?:[.!?。！？；;]*+\n)++)|[。！？；\n]")

_NUMBER = re.compile(
    r"(?<![a-z_\d])(?:\d++(?:\.\d+)?e[-+]?\d+"  # 3e-4 (from a run's first digit, taken whole: linear)
    r"|\d++(?:\.\d+)?\s?(?:%|x\b|×|k\b|m\b|b\b|ms\b|gb\b|tb\b|s\b|h\b|"
    r"steps?|tokens?|epochs?|layers?|gpus?|nodes?|seeds?|iterations?|samples?|batches|percent|times|"
    r"步|张卡|块卡|个|倍|层|秒|分钟|小时|天|次|轮|条)"  # 5%, 2k steps, 8 张卡
    r"|\d+\.\d+"  # 1.0, 0.9
    r"|\d++(?:\s*+[-~到至]\s*+\d++)++)"  # 3-5, 1~5
)
_TECH = re.compile(
    r"\b[a-z]++_[a-z0-9_]++\b|\b[a-z]{2,}\.[a-z_]{2,}(?:\.[a-z_]+)*|\b(?:fp|bf|int)\d+\b|\b[A-Z]{2}[A-Z0-9]*+\b"
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
    inline = len({m.group(0).strip(" :：，,。;；") for m in _INLINE_ENUM.finditer(text)})
    ordinals += inline + min(2, len(_ARROWS.findall(text))) + min(2, max(0, len(_HEADING.findall(text)) - 1))
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


_EN_FUNCTION = frozenset(
    """a an the and or but if so of to in on at by for with from as is are was were be been it its this that
    these those then than because which when where we i you they he she do does did not no can will would should
    must may might have has had there here into over under after before while about each every all any some more
    less most very just also only what how why""".split()  # noqa: SIM905
)
_ZH_FUNCTION = frozenset(
    "的了是在和与也就都而及或把被着过会要对将从用让使这那我你他它们有个不没如果所以因为但再先后时说能可以"
)
_RUNS = re.compile(r"[,，、;；|\n。.!?！？:：]+|(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")
_LATIN_WORD = re.compile(r"[a-z][a-z0-9'_-]*")
_CJK_CHARS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
LONG_RUN = 5  # words (or about 1.6 Chinese characters each) between two separators that read as a clause


def prose_level(text: str) -> float:
    """0 for a list of terms, 1 for sentences: the share of the text in clause-long runs, and function words.

    A keyword salad ("dirty data, outlier, gradient norm, 梯度范数、逐层") is runs of one to three
    words between separators; prose of either language is mostly runs of five words and more,
    with function words in them (measured on the bank: salads <= 0.17 of their text in long runs,
    reference answers >= 0.41; English function-word share <= 0.14 against >= 0.28).
    """
    t = normalize(text)
    words = _LATIN_WORD.findall(t)
    chars = _CJK_CHARS.findall(t)
    if not words and not chars:
        return 0.0
    en_share = sum(1 for w in words if w in _EN_FUNCTION) / len(words) if words else 0.0
    zh_share = sum(1 for c in chars if c in _ZH_FUNCTION) / len(chars) if chars else 0.0
    n_en, n_zh = len(words), len(chars) / 1.6  # about 1.6 characters per Chinese word
    function = (_ramp_to(en_share, 0.12, 0.25) * n_en + _ramp_to(zh_share, 0.08, 0.16) * n_zh) / (n_en + n_zh)
    sizes = [len(_LATIN_WORD.findall(r)) + len(_CJK_CHARS.findall(r)) / 1.6 for r in _RUNS.split(t) if r.strip()]
    if len(sizes) < 3:  # one or two short sentences are an answer, not a list: only function words tell
        return 0.4 + 0.6 * function
    total = sum(sizes) or 1.0
    long_share = sum(x for x in sizes if x >= LONG_RUN) / total
    return _ramp_to(long_share, 0.12, 0.35) * (0.4 + 0.6 * function)


def _ramp_to(x: float, start: float, full: float) -> float:
    return max(0.0, min(1.0, (x - start) / (full - start)))


_STATEMENT = re.compile(
    r"^\s*(?:def |class |return\b|import |from \S+ import |for |while |if |elif |else:|with |assert |raise |"
    r"[\w.\[\]()]+(?:\s*,\s*[\w.\[\]()]+)*\s*(?:[-+*/@]|//)?=(?!=)|[\w.]+\(.*\)\s*(?:#.*)?$)"
)
_FENCE_LINE = re.compile(r"^\s*`{3,}[\w+-]*\s*$")


def code_level(text: str) -> float:
    """0 to 1: how much of the text is code, as the share of its lines that are statements (a `def`, an assignment,
    a call, a `return`...), from three statements up. A code answer has few sentences and few function words, so
    `prose_level` reads it as a list of terms; its statements are its sentences. A keyword list, even one term a
    line, has no statements."""
    lines = [line for line in text.split("\n") if line.strip() and not _FENCE_LINE.match(line)]
    statements = sum(1 for line in lines if _STATEMENT.match(line))
    if statements < 3:
        return 0.0
    return statements / len(lines)
