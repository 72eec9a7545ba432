"""Text features for the offline grader: sentences, and clauses with a stance.

An answer is split into sentences and each sentence into clauses; a clause is *negated* when
it holds a negation cue ("not", "without", "rather than", "independent of", 不, 没, 无, 未 ...
but not 不断, 不同, 非常 ...). A rubric point counts only when the answer says it with the
same stance, so "does not change the direction" never meets "changes the direction". A
clause's terms and its line for phrases (keywords) come from `terms`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from bot.grading.normalize import for_matching
from bot.grading.terms import CJK, STOPWORDS, ZH_NEGATION, ZH_NOT_NEGATION, is_cjk, line_of, stem, terms_of

__all__ = [  # the terms' names stay importable from here
    "STOPWORDS",
    "Clause",
    "Phrase",
    "Sentence",
    "analyse",
    "analyse_reference",
    "is_cjk",
    "line_of",
    "negated",
    "quote",
    "split_sentences",
    "stem",
    "terms_of",
]

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
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+|[。！？!?;；\n]+|(?<=[{CJK}])\.(?=\s|$)")
# Direction words: an answer that names the opposite direction of a key point contradicts it.
# Verbs of change and comparatives only: "small models" and "large batch" name things, not directions.
_UP = frozenset(
    ("increas", "grow", "rise", "rais", "higher", "larger", "bigger", "doubl", "enlarg", "amplifi", "explod")
)
_DOWN = frozenset(("decreas", "reduc", "shrink", "lower", "smaller", "fewer", "halv", "cut", "diminish", "vanish"))
_ZH_UP = frozenset(("增加", "增大", "提高", "升高", "上升", "变大", "更大", "更多", "翻倍", "放大", "变长", "更高"))
_ZH_DOWN = frozenset(("减少", "减小", "降低", "下降", "变小", "更小", "更少", "减半", "缩小", "变短", "更低"))


def direction(terms: Iterable[str]) -> int:
    """+1 if the terms say "up" only, -1 if "down" only, 0 otherwise."""
    up = down = False
    for t in terms:
        if t in _UP or t in _ZH_UP:
            up = True
        elif t in _DOWN or t in _ZH_DOWN:
            down = True
    return (1 if up else 0) - (1 if down else 0) if up != down else 0


def _cue_at(text: str) -> int:
    """Where the first negation cue of a normalised clause starts, or -1 (masking "not only", 不断 ...)."""
    masked = _EN_NOT_NEGATION.sub(lambda m: "_" * len(m.group(0)), text)
    masked = ZH_NOT_NEGATION.sub(lambda m: "_" * len(m.group(0)), masked)
    found = [m.start() for m in (_EN_NEGATION.search(masked),) if m]
    if is_cjk(masked):
        found += [m.start() for m in (ZH_NEGATION.search(masked),) if m]
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


def stance_terms(text: str, answer_side: bool, cue: int | None = None) -> tuple[frozenset[str], frozenset[str]]:
    """(terms said, terms denied) of a normalised clause: a negation reaches from its cue to the clause end,
    so "FlashAttention does not store the s x s matrix" denies storing the matrix, not FlashAttention.
    (`cue`: its `_cue_at`, when already known.)"""
    cue = _cue_at(text) if cue is None else cue
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


# Blanks and a comma before a break word, linear (issue #34): a run of blanks is taken whole and only from its
# start, so `split` and `finditer`, which try every position, never rescan it (`\s*,?\s*` did: cubic time).
_LEAD = r"(?:(?<!\s)\s++)?+(?:,\s*+)?+"
_EN_BREAK_RE = re.compile(
    _LEAD + r"\b(?:" + "|".join(_EN_BREAKS) + r")\b\s*+|,\s++and\s++(?=it\b|they\b|this\b|that\b|we\b|i\b|the\b)"
)
_EN_NEG_BREAK_RE = re.compile(_LEAD + r"\b(?=(?:" + "|".join(_EN_NEGATED_BREAKS) + r")\b)")
_ZH_BREAK_RE = re.compile(  # 冷却 (cooling), 忘却, 退却, 了却 are words, not the contrast word 却
    "(?:" + "|".join(_ZH_NEGATED_BREAKS) + ")|(?:" + "|".join(_ZH_BREAKS).replace("|却|", "|(?<![冷忘退了])却|") + ")"
)
_PROBE = re.compile(
    # possessive, each lead word whole and the longest first: "i i i … x" fails at once (it backtracked
    # exponentially, issue #34)
    r"^\s*+(?:(?:i would|we would|i will|we will|i'd|we'd|first|then|next|finally|also|i|we|you)\b\s*+,?+\s*+)*+"
    r"(?:check|verify|inspect|examine|look at|look for|see whether|see if|test whether|rule out|confirm|make sure)\b"
    r"|^\s*+(?:首先|然后|接着|再|最后|我会|我们会|先)*+\s*+(?:检查|查看|排查|排除|确认|看看|看一下|核对|检验)"
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
            cue = _cue_at(c)
            pos, neg = stance_terms(c, answer_side, cue)
            if not pos and not neg:
                continue
            said = direction(pos)
            turn = said if said else -direction(neg)  # "does not grow" points down
            neg_cue = cue >= 0
            probe = not neg_cue and bool(_PROBE.match(c))
            clauses.append(
                Clause(pos | neg, pos, neg, line_of(c, answer_side), c.replace(" ", ""), turn, neg_cue, probe)
            )
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
