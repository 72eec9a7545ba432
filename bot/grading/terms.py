"""Terms: a normalised text as stemmed content terms, and as a stemmed line for phrases.

English words are stemmed with Snowball (Porter 2) after `normalize.for_matching`, plus a few
irregular forms ("frozen" -> "freeze"); hyphenated words are one term ("micro-batch" ->
"microbatch"), and the answer side also offers their parts and the joins of neighbouring words,
so "micro batch", "micro-batch" and "microbatch" meet. Chinese has no spaces: a CJK run is cut at
its negation characters (the stance is the clause's, see `features`) and segmented with jieba.
The stance of what is said, sentences and clauses are `features`'.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

import snowballstemmer  # type: ignore[import-untyped]

from bot.grading.normalize import canonical_number

CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{CJK}]")
_STEMMER = snowballstemmer.stemmer("english")
_IRREGULAR = {
    "frozen": "freeze",
    "froze": "freeze",
    "chosen": "choose",
    "chose": "choose",
    "written": "write",
    "wrote": "write",
    "grown": "grow",
    "grew": "grow",
    "shown": "show",
    "known": "know",
    "knew": "know",
    "taken": "take",
    "took": "take",
    "given": "give",
    "gave": "give",
    "fallen": "fall",
    "fell": "fall",
    "broken": "break",
    "broke": "break",
    "held": "hold",
    "kept": "keep",
    "lost": "lose",
    "made": "make",
    "sent": "send",
    "spent": "spend",
    "built": "build",
    "thrown": "throw",
    "threw": "throw",
    "led": "lead",
    "fed": "feed",
    "ran": "run",
    "began": "begin",
    "begun": "begin",
    "data": "data",
}
STOPWORDS = frozenset(
    """
    a an the and or but if so of to in on at by for with from as is are was were be been being am do does did
    done doing this that these those it its they them their theirs there here he she his her we our ours you your
    i me my mine us will would can could should shall may might must have has had having which who whom whose
    what when where why how just also about into onto because while then than too very one ones get gets got
    such each every any some all both either other others another same own only more most much many few
    up down out off over under again further once thing things way ways lot lots really quite rather
    e.g i.e etc vs via per let lets make makes made use uses used using need needs needed
    not no never none nothing nobody nor neither cannot without unlike instead regardless
    doesn don isn aren wasn weren won couldn shouldn wouldn didn hasn haven hadn mustn
    """.split()  # noqa: SIM905
)
# Chinese negation: a cue character or word, and the words that hold one but negate nothing
ZH_NEGATION = re.compile(r"[不没无未非]|毫无|并非|别再")
ZH_NOT_NEGATION = re.compile(
    r"不断|不同|不仅|不只|不少|不久|不管|不论|无论|非常|不得不|不停|无数|除非|不过|不错|不妨|"
    r"不超过|不大于|不高于|不多于|不少于|不低于|不小于|无穷|无限|未来|莫非|是非|并不只|"
    r"有没有|是不是|会不会|能不能|要不要|对不对|好不好|可不可以|不然|保持不变|维持不变"
)
_TOKEN = re.compile(
    rf"[{CJK}]+"
    r"|\d+(?:\.\d+)?(?:e[-+]?\d+)?(?:%|k\b)?"
    r"|[a-z_][a-z0-9_]*(?:[-/][a-z0-9_]+)*(?:'s\b)?"
)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball (Porter 2) stem of a lower-case word, after a few irregular forms."""
    if word.endswith("'s"):
        word = word[:-2]
    word = _IRREGULAR.get(word, word)
    if not word.isalpha() or len(word) <= 2:
        return word
    return str(_STEMMER.stemWord(word))


def is_cjk(text: str) -> bool:
    return bool(_CJK_RE.search(text))


_ZH_CUE = re.compile(r"[不没无未非]")


def _cjk_pieces(run: str) -> list[str]:
    """The run cut at its negation characters (the stance is the clause's, not a term's)."""
    keep = [False] * len(run)
    for m in ZH_NOT_NEGATION.finditer(run):
        for i in range(m.start(), m.end()):
            keep[i] = True
    pieces, start = [], 0
    for m in _ZH_CUE.finditer(run):
        if not keep[m.start()]:
            pieces.append(run[start : m.start()])
            start = m.end()
    pieces.append(run[start:])
    return [p for p in pieces if p]


_ZH_FUNCTION_CHARS = frozenset("的了是在和与也就都而及或把被着过吗呢吧啊很个这那其之以为对从将给让")


@lru_cache(maxsize=65536)
def _cjk_terms_cached(run: str) -> tuple[str, ...]:
    out: list[str] = []
    for piece in _cjk_pieces(run):
        # jieba's search mode gives the words and the shorter words inside long ones ("改变方向" ->
        # 改变, 方向, 改变方向), so "方向会改变" and "改变方向" share their terms.
        words: list[str] = _segmenter().lcut_for_search(piece, HMM=False)
        for word in words:
            if len(word) >= 2 or (word not in _ZH_FUNCTION_CHARS and _CJK_RE.match(word)):
                out.append(word)
    return tuple(out)


def _cjk_terms(run: str) -> list[str]:
    return list(_cjk_terms_cached(run))


@lru_cache(maxsize=1)
def _segmenter() -> Any:
    """jieba's default dictionary (in its wheel), loaded once (about half a second) and quiet."""
    import jieba  # type: ignore[import-untyped]

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


def _latin(tok: str, answer_side: bool) -> list[str]:
    if tok[0].isdigit():
        return [canonical_number(tok)]
    if "/" in tok:  # "NaN/Inf", "TP/PP": alternatives, each its own term
        return [t for part in tok.split("/") if part for t in _latin(part, answer_side)]
    parts = [p for p in tok.split("-") if p]
    if len(parts) == 1:
        return [] if tok in STOPWORDS else [stem(tok)]
    joined = stem("".join(parts))  # "micro-batch" is one word
    if not answer_side:
        return [joined]
    return [joined, *(stem(p) for p in parts if p not in STOPWORDS)]


def terms_of(text: str, answer_side: bool = False) -> list[str]:
    """Content terms of an already normalised text, in order (stop words left out)."""
    out: list[str] = []
    prev = ""
    for tok in _TOKEN.findall(text):
        if _CJK_RE.match(tok):
            out.extend(_cjk_terms(tok))
            prev = ""
            continue
        out.extend(_latin(tok, answer_side))
        content = tok.isalpha() and tok not in STOPWORDS
        if answer_side and prev and content:
            out.append(stem(prev + tok))  # "micro batch" meets "microbatch"
        prev = tok if content else ""
    return out


def line_of(text: str, answer_side: bool = False) -> str:
    """Space-padded stemmed tokens, stop words kept, for matching English phrases in order. A hyphenated
    word is one token ("micro-batch" -> "microbatch"); the answer side adds the line once more with it
    in parts, after a "|" no phrase holds, so "micro-batch size" meets both "microbatch size" and
    "micro batch size"."""
    joined: list[str] = []
    parts_line: list[str] = []
    for tok in _TOKEN.findall(text):
        if _CJK_RE.match(tok):
            joined.append(tok)
            parts_line.append(tok)
        elif tok[0].isdigit():
            joined.append(canonical_number(tok))
            parts_line.append(joined[-1])
        elif "-" in tok or "/" in tok:
            for alt in (a for a in tok.split("/") if a):
                parts = [p for p in alt.split("-") if p]
                joined.append(stem("".join(parts)))
                if len(parts) > 1:
                    parts_line.extend(stem(p) for p in parts)
                else:
                    parts_line.append(joined[-1])
        else:
            joined.append(stem(tok))
            parts_line.append(joined[-1])
    line = " " + " ".join(joined) + " "
    if answer_side and parts_line != joined:
        line += "| " + " ".join(parts_line) + " "
    return line
