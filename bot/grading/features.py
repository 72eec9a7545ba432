"""Text features for the offline grader: stemmed terms with negation polarity, CJK bigrams, recall.

English words are lower-cased and lightly stemmed (plural, -ed, -ing, -ion ...) so that
"connected" meets "connection"; a negation ("not", "no", "doesn't") flips the polarity of the
next two content words, and a few antonyms are folded into a negated term ("different" is
"not same", "open" is "not closed"), so "the terminals are not connected" does not match
"the terminals are connected". Chinese has no spaces and jieba is not a dependency, so a CJK
run becomes its character bigrams. Function words and particles stay, with a small weight.
The weights and the two-word negation scope were tuned on the SemEval-2013 train splits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from bot.core.text import normalize

STOP_WEIGHT = 0.25  # function words: phrasing counts a little
QUESTION_WEIGHT = 0.3  # words of the question itself: repeating them shows little
NEGATION_SCOPE = 2  # content words after a negation that it applies to

STOPWORDS = frozenset(
    """
    a an the and or but if so of to in on at by for with from as is are was were be been being am do
    does did this that these those it its it's they them their there here he she his her we our you your
    i me my us will would can could should shall may might must have has had having which who whom what
    when where why how just also about into because while one get got then very
    """.split()  # noqa: SIM905
)
NEGATIONS = frozenset(("not", "no", "never", "none", "nothing", "cannot", "without", "nor", "neither"))
_CLAUSE_BREAKS = frozenset(("but", "however", "although", "though", "while", "whereas", "because", "since", "so"))
_ZH_STOP_BIGRAMS = frozenset(
    """
    我们 你们 他们 一个 这个 那个 可以 如果 就是 然后 因为 所以 什么 怎么 进行 需要 时候 的话 还是 或者
    以及 这样 那么 一些 这些 那些 其中 通过 对于 比如 例如 已经 不是 也是 都是 会是
    """.split()  # noqa: SIM905
)
_ZH_PARTICLES = frozenset("的了是在和与也就都而及或把被着过吗呢吧啊很")
_CJK_CHAR = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK_CHAR}]+|\d+(?:\.\d+)?(?:e[-+]?\d+)?%?|[a-z_][a-z0-9_]*(?:'[a-z]+)?|[,;.!?。；！？、:：]")
_PUNCT = frozenset(",;.!?。；！？、:：")
_SUFFIXES = ("ations", "ation", "ings", "ing", "ions", "ion", "ed", "ies", "es", "s", "ly", "er", "e")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix stripper; both sides of a comparison are stemmed the same way."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if suffix == "ies":
                word += "y"
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "ls":
                word = word[:-1]
            return word
    return word


_ANTONYMS = {
    stem(a): stem(b)
    for a, b in (
        ("different", "same"),
        ("separate", "connect"),
        ("disconnected", "connect"),
        ("open", "closed"),
        ("incomplete", "complete"),
        ("unequal", "equal"),
    )
}


@dataclass(frozen=True, slots=True)
class Term:
    text: str
    negated: bool
    stop: bool


_NEGATION_MARK = Term("not", False, True)
BREAK = Term("|", False, True)  # punctuation: ends a clause; ignored by bags and profiles


@lru_cache(maxsize=65536)
def _word(tok: str) -> tuple[str, bool, bool]:
    """(term, is a stop word, flips polarity) for one Latin token."""
    if tok in _CLAUSE_BREAKS or tok in STOPWORDS:
        return tok, True, False
    s = stem(tok)
    if s in _ANTONYMS:
        return _ANTONYMS[s], False, True
    return s, False, False


def terms(text: str, normalized: bool = False) -> list[Term]:
    """The text's terms in order: stemmed words (with polarity) and CJK bigrams."""
    out: list[Term] = []
    scope = 0
    for tok in _TOKEN.findall(text if normalized else normalize(text)):
        first = tok[0]
        if "\u3400" <= first <= "\ufaff":
            out.extend(_cjk_terms(tok))
            continue
        if tok in _PUNCT:
            scope = 0
            if out and out[-1] is not BREAK:
                out.append(BREAK)
            continue
        if tok in NEGATIONS or tok.endswith("n't"):
            out.append(_NEGATION_MARK)
            scope = NEGATION_SCOPE
            continue
        text_, stop, flip = _word(tok)
        if stop:
            if tok in _CLAUSE_BREAKS:
                scope = 0
            out.append(Term(text_, False, True))
            continue
        out.append(Term(text_, (scope > 0) != flip, False))
        if scope:
            scope -= 1
    return out


def _cjk_terms(run: str) -> Iterable[Term]:
    if len(run) == 1:
        yield Term(run, False, run in _ZH_PARTICLES)
        return
    for i in range(len(run) - 1):
        bigram = run[i : i + 2]
        stop = bigram in _ZH_STOP_BIGRAMS or bigram[0] in _ZH_PARTICLES or bigram[1] in _ZH_PARTICLES
        yield Term(bigram, False, stop)


class Bag:
    """The terms an answer (or a sentence of it) contains, with the polarities seen."""

    __slots__ = ("bigrams", "items", "polarity", "seq")

    def __init__(self, items: list[Term]) -> None:
        self.items = items
        self.polarity: dict[str, int] = {}
        for t in items:
            if t is not BREAK:
                self.polarity[t.text] = self.polarity.get(t.text, 0) | (2 if t.negated else 1)
        self.seq = [t.text for t in items if t is not BREAK]
        self.bigrams = set(pairwise(self.seq))

    def has(self, term: str, negated: bool) -> bool:
        return bool(self.polarity.get(term, 0) & (2 if negated else 1))


class Profile:
    """What a reference text expects: weighted terms with polarity, plus its term bigrams."""

    __slots__ = ("bigrams", "content", "content_terms", "neg", "pos", "surface", "total", "weights")

    def __init__(
        self,
        weights: Mapping[tuple[str, bool], float],
        surface: Mapping[str, str],
        bigrams: frozenset[tuple[str, str]],
    ) -> None:
        self.weights = weights
        self.surface = surface  # stemmed term -> the word as written, for feedback
        self.bigrams = bigrams
        self.total = sum(weights.values())
        self.content = sum(1 for w in weights.values() if w >= QUESTION_WEIGHT)
        self.content_terms = frozenset(t for (t, _), w in weights.items() if w >= QUESTION_WEIGHT)
        self.pos = {t: w for (t, neg), w in weights.items() if not neg}
        self.neg = {t: w for (t, neg), w in weights.items() if neg}

    def recall(self, bag: Bag) -> float:
        """Share of the weight whose term the bag has with the same polarity."""
        if not self.total:
            return 0.0
        pol = bag.polarity
        hit = sum(self.pos[t] for t in self.pos.keys() & pol.keys() if pol[t] & 1)
        if self.neg:
            hit += sum(self.neg[t] for t in self.neg.keys() & pol.keys() if pol[t] & 2)
        return hit / self.total

    def shares_content(self, bag: Bag) -> bool:
        """Whether the bag has any content term of the reference (in either polarity)."""
        return not self.content_terms.isdisjoint(bag.polarity)

    def bigram_recall(self, bag: Bag) -> float:
        if not self.bigrams:
            return 0.0
        return len(self.bigrams & bag.bigrams) / len(self.bigrams)

    def missing(self, bag: Bag, limit: int) -> list[str]:
        """Content terms (weight 1) the bag lacks entirely, in the reference's order, as written."""
        out = [self.surface.get(t, t) for (t, _), w in self.weights.items() if w >= 1.0 and t not in bag.polarity]
        return out[:limit]


@lru_cache(maxsize=512)
def profile_terms(text: str) -> tuple[Term, ...]:
    """`terms` of a reference-side text (reference answer, key point, specific), cached."""
    return tuple(terms(text))


@lru_cache(maxsize=2048)
def profile(text: str, question_terms: frozenset[str] = frozenset(), stop_weight: float = STOP_WEIGHT) -> Profile:
    """Weighted terms of a reference text; terms the question already uses count less.

    Cached: the same reference or key point text is profiled once per process (the batch CLI
    builds a new Question per row). Profiles are never mutated.
    """
    items = [t for t in profile_terms(text) if t is not BREAK]
    words_as_written = [
        t for t in _TOKEN.findall(normalize(text)) if t not in _PUNCT and not ("\u3400" <= t[0] <= "\ufaff")
    ]
    surface = {stem(w): w for w in reversed(words_as_written)}
    weights: dict[tuple[str, bool], float] = {}
    for t in items:
        key = (t.text, t.negated)
        if key in weights:
            continue
        if t.stop:
            w = stop_weight
        elif t.text in question_terms:
            w = QUESTION_WEIGHT
        else:
            w = 1.0
        if w > 0:
            weights[key] = w
    seq = [t.text for t in items]
    return Profile(weights, surface, frozenset(pairwise(seq)))


def content_terms(text: str) -> frozenset[str]:
    return frozenset(t.text for t in terms(text) if not t.stop)


# --- phrases (keywords) ------------------------------------------------------------------------


def compact(text: str, normalized: bool = False) -> str:
    """Normalised text without spaces, for matching Chinese or mixed phrases."""
    return (text if normalized else normalize(text)).replace(" ", "")


def stem_line(text: str, normalized: bool = False) -> str:
    """Space-padded stemmed token sequence (stop words kept), for matching English phrases."""
    toks = [stem(t) for t in _TOKEN.findall(text if normalized else normalize(text)) if t not in _PUNCT]
    return " " + " ".join(toks) + " "


@dataclass(frozen=True, slots=True)
class Phrase:
    """A keyword or specific, matched as stemmed words (Latin) or as a compact substring (CJK)."""

    source: str
    cjk: bool
    key: str

    @classmethod
    def of(cls, text: str) -> Phrase:
        cjk = bool(re.search(f"[{_CJK_CHAR}]", text))
        return cls(text, cjk, compact(text) if cjk else stem_line(text))

    def found_in(self, line: str, compacted: str) -> bool:
        if not self.key.strip():
            return False
        return self.key in compacted if self.cjk else self.key in line


# --- sentences ---------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|[。！？；;\n]+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


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
