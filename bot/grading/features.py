"""Text features for the offline grader: sentences, clauses with a stance, and their terms.

An answer is split into sentences and each sentence into clauses; a clause is *negated* when
it holds a negation cue ("not", "without", "rather than", "independent of", 不, 没, 无, 未 ...
but not 不断, 不同, 非常 ...). A rubric point counts only when the answer says it with the
same stance, so "does not change the direction" never meets "changes the direction".
English words are stemmed with Snowball (Porter 2) after `normalize.for_matching`, plus a
few irregular forms ("frozen" -> "freeze"); hyphenated words are one term ("micro-batch" ->
"microbatch"), and the answer side also offers their parts and the joins of neighbouring
words, so "micro batch", "micro-batch" and "microbatch" meet. Chinese has no spaces: a CJK
run becomes its character bigrams, and phrases are matched as compact substrings.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import snowballstemmer  # type: ignore[import-untyped]

from bot.grading.normalize import canonical_number, for_matching

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
# Clause boundaries inside a sentence: what follows is a new claim with its own stance.
_EN_BREAKS = (
    "but",
    "however",
    "whereas",
    "although",
    "though",
    "while",
    "because",
    "since",
    "so",
    "therefore",
    "thus",
    "hence",
    "which",
    "then",
    "otherwise",
    "and then",
)
_EN_NEGATED_BREAKS = ("instead of", "rather than", "unlike", "as opposed to")
_ZH_BREAKS = (
    "但是",
    "但",
    "然而",
    "不过",
    "而是",
    "却",
    "反而",
    "因为",
    "所以",
    "因此",
    "从而",
    "导致",
    "然后",
    "否则",
    "于是",
)
_ZH_NEGATED_BREAKS = ("而不是", "而非", "不是因为", "并非")
_SUBORDINATE = re.compile(
    r"^\s*(?:if|when|once|after|before|unless|since|because|although|though|whether|even if|as soon as|"
    r"如果|若|假如|要是|当|一旦|虽然|即使|只要|除非)",
    re.I,
)
_EN_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|nobody|nor|neither|cannot|without|lacks?|lacking|absent|"
    r"independent(?:ly)?\s+of|regardless\s+of|unrelated|irrelevant|fails?\s+to|failed\s+to|"
    r"instead\s+of|rather\s+than|unlike|as\s+opposed\s+to|[a-z]+n't)\b"
)
_EN_NOT_NEGATION = re.compile(
    r"\b(?:not only|no more than|no less than|not more than|not less than|no later than|"
    r"no matter|nothing but|not just|not exceed(?:ing)?|does not exceed|never exceeds?|whether or not|or not)\b"
)
_ZH_NEGATION = re.compile(r"[不没无未非]|毫无|并非|别再")
_ZH_NOT_NEGATION = re.compile(
    r"不断|不同|不仅|不只|不少|不久|不管|不论|无论|非常|不得不|不停|无数|除非|不过|不错|不妨|"
    r"不超过|不大于|不高于|不多于|不少于|不低于|不小于|无穷|无限|未来|莫非|是非|并不只|"
    r"有没有|是不是|会不会|能不能|要不要|对不对|好不好|可不可以|不然|保持不变|维持不变"
)
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+|[。！？!?;；\n]+|(?<=[{CJK}])\.(?=\s|$)")
_TOKEN = re.compile(
    rf"[{CJK}]+"
    r"|\d+(?:\.\d+)?(?:e[-+]?\d+)?(?:%|k\b)?"
    r"|[a-z_][a-z0-9_]*(?:[-/][a-z0-9_]+)*(?:'s\b)?"
)
# Direction words: an answer that names the opposite direction of a key point contradicts it.
# Verbs of change and comparatives only: "small models" and "large batch" name things, not directions.
_UP = frozenset(
    ("increas", "grow", "rise", "rais", "higher", "larger", "bigger", "doubl", "enlarg", "amplifi", "explod")
)
_DOWN = frozenset(("decreas", "reduc", "shrink", "lower", "smaller", "fewer", "halv", "cut", "diminish", "vanish"))
_ZH_UP = frozenset(("增加", "增大", "提高", "升高", "上升", "变大", "更大", "更多", "翻倍", "放大", "变长", "更高"))
_ZH_DOWN = frozenset(("减少", "减小", "降低", "下降", "变小", "更小", "更少", "减半", "缩小", "变短", "更低"))


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


def direction(terms: Iterable[str]) -> int:
    """+1 if the terms say "up" only, -1 if "down" only, 0 otherwise."""
    up = down = False
    for t in terms:
        if t in _UP or t in _ZH_UP:
            up = True
        elif t in _DOWN or t in _ZH_DOWN:
            down = True
    return (1 if up else 0) - (1 if down else 0) if up != down else 0


_ZH_CUE = re.compile(r"[不没无未非]")


def _cjk_pieces(run: str) -> list[str]:
    """The run cut at its negation characters (the stance is the clause's, not a term's)."""
    keep = [False] * len(run)
    for m in _ZH_NOT_NEGATION.finditer(run):
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
    """Space-padded stemmed tokens, stop words kept, for matching English phrases in order."""
    toks: list[str] = []
    for tok in _TOKEN.findall(text):
        if _CJK_RE.match(tok):
            toks.append(tok)
        elif tok[0].isdigit():
            toks.append(canonical_number(tok))
        elif "-" in tok or "/" in tok:
            for alt in (a for a in tok.split("/") if a):
                parts = [p for p in alt.split("-") if p]
                toks.append(stem("".join(parts)))
                if answer_side and len(parts) > 1:
                    toks.extend(stem(p) for p in parts)
        else:
            toks.append(stem(tok))
    return " " + " ".join(toks) + " "


def _cue_at(text: str) -> int:
    """Where the first negation cue of a normalised clause starts, or -1 (masking "not only", 不断 ...)."""
    masked = _EN_NOT_NEGATION.sub(lambda m: "_" * len(m.group(0)), text)
    masked = _ZH_NOT_NEGATION.sub(lambda m: "_" * len(m.group(0)), masked)
    found = [m.start() for m in (_EN_NEGATION.search(masked),) if m]
    if is_cjk(masked):
        found += [m.start() for m in (_ZH_NEGATION.search(masked),) if m]
    return min(found) if found else -1


def negated(text: str) -> bool:
    """Whether a normalised clause holds a negation cue."""
    return _cue_at(text) >= 0


_ANTONYMS = {  # a word that says "not X": folded into X with the opposite stance, on both sides
    "differ": "same",
    "separ": "connect",
    "disconnect": "connect",
    "unequ": "equal",
    "incomplet": "complet",
    "unchang": "chang",
    "unstabl": "stabl",
    "instabl": "stabl",
    "instabil": "stabil",
    "nondeterminist": "determinist",
    "不同": "相同",
    "不稳": "稳定",
}


def stance_terms(text: str, answer_side: bool) -> tuple[frozenset[str], frozenset[str]]:
    """(terms said, terms denied) of a normalised clause: a negation reaches from its cue to the clause end,
    so "FlashAttention does not store the s x s matrix" denies storing the matrix, not FlashAttention."""
    cue = _cue_at(text)
    head, tail = (text, "") if cue < 0 else (text[:cue], text[cue:])
    pos, neg = set(terms_of(head, answer_side)), set(terms_of(tail, answer_side))
    for t in list(pos | neg):
        if t in _ANTONYMS:
            flip = _ANTONYMS[t]
            if t in pos:
                pos.discard(t)
                neg.add(flip)
            if t in neg:
                neg.discard(t)
                pos.add(flip)
    return frozenset(pos), frozenset(neg - pos)


@dataclass(frozen=True, slots=True)
class Clause:
    """One claim: the terms it says and the terms it denies, and its text for phrase matching."""

    terms: frozenset[str]
    pos: frozenset[str]
    neg: frozenset[str]
    line: str  # stemmed, for English phrases
    compact: str  # no spaces, for Chinese phrases
    direction: int
    negated: bool  # it holds a negation cue (an antonym such as "differs" denies one term, not the claim)
    probe: bool = False  # "check whether the warmup ...": asks about its terms, asserts no stance on them


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    clauses: tuple[Clause, ...]

    @property
    def terms(self) -> frozenset[str]:
        return frozenset().union(*(c.terms for c in self.clauses)) if self.clauses else frozenset()


_EN_BREAK_RE = re.compile(r"\s*,?\s*\b(?:" + "|".join(_EN_BREAKS) + r")\b\s*|,\s+and\s+(?=it\b|they\b|this\b|that\b|we\b|i\b|the\b)")
_EN_NEG_BREAK_RE = re.compile(r"\s*,?\s*\b(?=(?:" + "|".join(_EN_NEGATED_BREAKS) + r")\b)")
_ZH_BREAK_RE = re.compile("(?:" + "|".join(_ZH_NEGATED_BREAKS) + ")|(?:" + "|".join(_ZH_BREAKS) + ")")
_PROBE = re.compile(
    r"^\s*(?:(?:first|then|next|finally|also|i|we|i'd|we'd|i would|we would|i will|we will|you)\s*,?\s*)*"
    r"(?:check|verify|inspect|examine|look at|look for|see whether|see if|test whether|rule out|confirm|make sure)\b"
    r"|^\s*(?:首先|然后|接着|再|最后|我会|我们会|先)*\s*(?:检查|查看|排查|排除|确认|看看|看一下|核对|检验)"
)
_EN_NEG_START = re.compile(r"^\s*(?:" + "|".join(_EN_NEGATED_BREAKS) + r")\b")
_ASIDE = re.compile(r"[()\[\]]|:(?!\d)| - ")
_CJK_COMMA = re.compile(rf"(?<=[{CJK}]),|,(?=\s*[{CJK}])|、(?=[{CJK}]{{4,}})")


def _split_clauses(sentence: str) -> list[str]:
    """Clauses of a normalised sentence; the split keeps a negating break word with its clause."""
    parts: list[str] = []
    for piece in _ASIDE.split(sentence):  # a parenthesis, a label before a colon, a dash: own stance
        # "If the loss does not fall, lower the LR": the comma ends the conditional clause.
        if _SUBORDINATE.match(piece) and "," in piece:
            parts.extend(piece.split(",", 1))
        else:
            parts.append(piece)
    out: list[str] = []
    for p in parts:
        for q in _CJK_COMMA.split(p):
            for r in _EN_NEG_BREAK_RE.split(q):
                if _EN_NEG_START.match(r) and "," in r:  # "rather than X, sweep first": the denial ends at the comma
                    denied, rest = r.split(",", 1)
                    out.append(denied)
                    r = rest
                out.extend(_EN_BREAK_RE.split(r))
    final: list[str] = []
    for p in out:
        if is_cjk(p):
            pos = 0
            for m2 in _ZH_BREAK_RE.finditer(p):
                if m2.group(0) in _ZH_NEGATED_BREAKS:
                    final.append(p[pos : m2.start()])
                    pos = m2.start()  # the negating word stays with what it negates
                else:
                    final.append(p[pos : m2.start()])
                    pos = m2.end()
            final.append(p[pos:])
        else:
            final.append(p)
    return [c.strip(" ,") for c in final if c.strip(" ,")]


def split_sentences(text: str) -> list[str]:
    """Sentences of a raw text (Chinese and English punctuation, line breaks)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


@lru_cache(maxsize=4096)
def analyse_reference(text: str) -> tuple[Sentence, ...]:
    """`analyse` of a rubric-side text (cached; rubric texts repeat across grades)."""
    return tuple(analyse(text, answer_side=False))


def analyse(text: str, answer_side: bool = True) -> list[Sentence]:
    """The text's sentences, each with its clauses, terms and stances."""
    out = []
    for raw in split_sentences(text):
        norm = for_matching(raw)
        clauses = []
        for c in _split_clauses(norm):
            pos, neg = stance_terms(c, answer_side)
            if not pos and not neg:
                continue
            said = direction(pos)
            turn = said if said else -direction(neg)  # "does not grow" points down
            neg_cue = negated(c)
            probe = not neg_cue and bool(_PROBE.match(c))
            clauses.append(Clause(pos | neg, pos, neg, line_of(c, answer_side), c.replace(" ", ""), turn, neg_cue, probe))
        if clauses:
            out.append(Sentence(raw, tuple(clauses)))
    return out


# --- phrases (keywords) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Phrase:
    """A keyword, matched as stemmed words in order (Latin) or as a compact substring (CJK)."""

    source: str
    cjk: bool
    key: str
    negated: bool
    terms: frozenset[str]

    @classmethod
    def of(cls, text: str) -> Phrase:
        norm = for_matching(text)
        cjk = is_cjk(norm)
        key = norm.replace(" ", "") if cjk else line_of(norm)
        return cls(text, cjk, key, negated(norm), frozenset(terms_of(norm)))

    def in_clause(self, clause: Clause) -> bool:
        """Found in the clause with the same stance."""
        if not self.key.strip() or not self.terms:
            return False
        found = self.key in clause.compact if self.cjk else self.key in clause.line
        return found and self.terms <= (clause.neg if self.negated else clause.pos)

    def denied_in(self, clause: Clause) -> bool:
        """Its terms are in the clause with the opposite stance."""
        return bool(self.terms) and self.terms <= (clause.pos if self.negated else clause.neg)


def quote(sentence: str, anchor: str = "", limit: int = 80) -> str:
    """The sentence trimmed to about `limit` characters, around `anchor` when it is long."""
    s = " ".join(sentence.split())
    if len(s) <= limit:
        return s
    pos = s.lower().find(anchor.lower()) if anchor else -1
    start = max(0, min(pos - limit // 3, len(s) - limit)) if pos > 0 else 0
    end = start + limit - 2
    if start and s[start - 1] != " " and " " in s[start : start + 15]:
        start = s.index(" ", start) + 1  # do not cut a word at the front
    if end < len(s) and s[end] != " " and " " in s[end - 15 : end]:
        end = s.rindex(" ", end - 15, end)  # ... nor at the back
    return ("…" if start else "") + s[start:end].strip() + ("…" if end < len(s) else "")
