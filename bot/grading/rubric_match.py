"""Match an answer against a question's rubric: key points, specifics, mistakes, reference answer.

A question is prepared once (term profiles, phrases, the reference answer's own levels) and
cached by object identity; an answer is analysed once (terms, stemmed line, sentences) and
then matched against every part of the rubric.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field

from bot.core.models import LANGS, KeyPoint, Lang, Question, Verdict
from bot.core.text import has_cjk, normalize
from bot.grading.features import (
    BREAK,
    Bag,
    Phrase,
    Profile,
    Term,
    compact,
    content_terms,
    profile,
    profile_terms,
    quote,
    sentences,
    stem_line,
    terms,
)
from bot.grading.markers import evidence_level, sentence_count, specificity_level, structure_level

KP_TEXT_FULL = 0.6  # recall of a key point's own text that counts as fully covered
HIT, PARTIAL = 0.67, 0.3
MISTAKE_RECALL = 0.85
SHORT_REFERENCE_SENTENCES = 3
_ONLY = re.compile(r"^\s*(?:only says?|only|just|merely|只说|只会|只|仅仅|仅)\s*", re.I)
_CLAIM = re.compile(r"^\s*(?:says?|claims?|thinks?|believes?|assumes?|说|认为|以为|觉得)\s*", re.I)
# "does not know X", "forgets X": omissions, which coverage already counts; not matchable as text.
_OMISSION = re.compile(
    r"^\s*(?:does not|doesn't|do not|don't|cannot|can't|never|fails? to|forgets?|ignores?|neglects?|misses|"
    r"overlooks?|has no idea|is unaware|"
    r"不知道|不清楚|不了解|不会|不能|不区分|不考虑|说不出|忘了|忘记|忽略|忽视|没有|没)",
    re.I,
)
# Keep what the answer would say, not why it is wrong: cut at "without", "so that", "instead of" ...
_ABSENCE = re.compile(r"\s*,?\s*(?:without\b|而不|却不|但不|但没有|而没有|却没有|不加|没有)", re.I)
_TAIL = re.compile(
    r"\s*(?:,?\s*\b(?:without|so that|so the|which|because|instead of|rather than|when|while|even though)\b"
    r"|而不|却不|但不|但没有|而没有|却没有|而是|导致|以致|从而|因为|以为|而非).*$",
    re.S | re.I,
)
_ZH_NEGATION = re.compile(r"[不没无未非别]")
_QUOTES = re.compile(r"[\"'“”‘’「」『』]")
_NEG_TERMS = frozenset(("not", "instead", "rath", "avoid", "避免", "而非"))


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    bag: Bag
    line: str
    compacted: str


@dataclass(slots=True)
class AnswerView:
    """An answer analysed once: its terms, stemmed line, compact text and sentences."""

    text: str
    bag: Bag
    line: str
    compacted: str
    lang: Lang
    _sentences: list[Sentence] | None = field(default=None)

    @classmethod
    def of(cls, text: str) -> AnswerView:
        n = normalize(text)
        lang: Lang = "zh" if has_cjk(text) else "en"
        return cls(text, Bag(terms(n, True)), stem_line(n, True), compact(n, True), lang)

    @property
    def sentences(self) -> list[Sentence]:
        if self._sentences is None:
            self._sentences = []
            for s in sentences(self.text):
                n = normalize(s)
                self._sentences.append(Sentence(s, Bag(terms(n, True)), stem_line(n, True), compact(n, True)))
        return self._sentences


@dataclass(frozen=True, slots=True)
class PreparedKeyPoint:
    key_point: KeyPoint
    phrases: tuple[tuple[Phrase, bool], ...]  # (phrase, appears in the question itself)
    need: float  # keyword strength that counts as fully covered
    texts: tuple[Profile, ...]


@dataclass(frozen=True, slots=True)
class PreparedMistake:
    index: int
    text: str
    profile: Profile
    only: bool
    negative: bool
    required: frozenset[str]
    refuters: frozenset[str]  # "scales the LR without warmup": a sentence naming warmup does not say it
    lookback: int  # terms before the match that may negate it


@dataclass(frozen=True, slots=True)
class PreparedQuestion:
    question: Question
    key_points: tuple[PreparedKeyPoint, ...]
    references: tuple[Profile, ...]
    reference_for: dict[Lang, Profile]
    specifics: tuple[tuple[int, Profile], ...]
    n_specifics: int
    mistakes: tuple[PreparedMistake, ...]
    reference_levels: dict[Lang, tuple[float, float, float]]  # structure, specificity, evidence


@dataclass(frozen=True, slots=True)
class KeyPointMatch:
    key_point: KeyPoint
    credit: float
    evidence: str

    @property
    def verdict(self) -> Verdict:
        return "hit" if self.credit >= HIT else "partial" if self.credit >= PARTIAL else "missed"


def _prepare_key_point(kp: KeyPoint, q_line: str, q_compact: str, qterms: frozenset[str]) -> PreparedKeyPoint:
    seen: dict[str, tuple[Phrase, bool]] = {}
    # A key point without keywords (a batch CSV's plain text) is its own only keyword.
    sources = kp.keywords.both() or list(dict.fromkeys(t for t in (kp.text.en, kp.text.zh) if t.strip()))
    for kw in sources:
        ph = Phrase.of(kw)
        if ph.key.strip() and ph.key not in seen:
            seen[ph.key] = (ph, ph.found_in(q_line, q_compact))
    per_lang = max(len(kp.keywords.en), len(kp.keywords.zh), 1)
    need = float(min(3, max(1, round(per_lang * 0.35))))
    texts = tuple(profile(t, qterms, 0.1) for t in dict.fromkeys((kp.text.en, kp.text.zh)) if t.strip())
    return PreparedKeyPoint(kp, tuple(seen.values()), need, texts)


def _prepare_mistake(index: int, text: str) -> PreparedMistake | None:
    """A listed mistake as a short phrase to look for; None if it names an omission."""
    core = _QUOTES.sub("", text).strip()
    only = bool(_ONLY.match(core))
    core = _CLAIM.sub("", _ONLY.sub("", core))
    if _OMISSION.match(core):
        return None
    tail = _TAIL.search(core)
    absent = tail.group(0) if tail and _ABSENCE.match(tail.group(0)) else ""
    refuters = frozenset(t.text for t in terms(_ABSENCE.sub("", absent)) if not t.stop)
    core = core[: tail.start()] if tail else core
    prof = profile(core, frozenset(), 0.0)  # the question's own words matter here
    # Numbers and versions (BF16, 3e-4) decide, so they weigh double.
    kept = {k: w * (2.0 if any(c.isdigit() for c in k[0]) else 1.0) for k, w in prof.weights.items()}
    prof = Profile(kept, prof.surface, prof.bigrams)
    if sum(1 for w in kept.values() if w >= 1.0) < (4 if has_cjk(core) else 3):
        return None  # too short to match without false alarms
    required = frozenset(t for t, _ in kept if _ZH_NEGATION.search(t))  # "不需要" must not meet "不能"
    lookback = 6 if has_cjk(core) else 3  # a CJK term is a character bigram: look further back
    return PreparedMistake(index, text, prof, only, _negative(terms(core)), required, refuters, lookback)


def prepare(q: Question) -> PreparedQuestion:
    qterms = content_terms(q.prompt.en) | content_terms(q.prompt.zh)
    by_text = {t: profile(t, qterms) for t in dict.fromkeys(q.reference_answer.get(g) for g in LANGS) if t.strip()}
    refs = {g: by_text[q.reference_answer.get(g)] for g in LANGS if q.reference_answer.get(g) in by_text}
    r = q.rubric
    specifics = tuple(
        (i, profile(s, qterms, 0.0)) for lst in (r.specifics.en, r.specifics.zh) for i, s in enumerate(lst)
    )
    mistakes = tuple(
        m
        for lang in LANGS
        for i, text in enumerate(r.mistakes.get(lang))
        if (m := _prepare_mistake(i, text)) is not None
    )
    n_spec = max(len(r.specifics.en), len(r.specifics.zh))
    levels: dict[Lang, tuple[float, float, float]] = {}
    for lang in ("en", "zh"):
        ref = q.reference_answer.get(lang) or q.reference_answer.en or q.reference_answer.zh
        spec = specifics_share(Bag(list(profile_terms(ref))), specifics, n_spec)
        # A short-answer reference (a sentence or two) calls for no layered structure.
        short = sentence_count(ref) < SHORT_REFERENCE_SENTENCES
        levels[lang] = (0.0 if short else structure_level(ref), specificity_level(ref, spec), evidence_level(ref))
    q_line, q_compact = stem_line(q.prompt.en + " " + q.prompt.zh), compact(q.prompt.zh + q.prompt.en)
    kps = tuple(_prepare_key_point(kp, q_line, q_compact, qterms) for kp in r.key_points)
    return PreparedQuestion(q, kps, tuple(by_text.values()), refs, specifics, n_spec, mistakes, levels)


_CACHE: OrderedDict[int, PreparedQuestion] = OrderedDict()
_CACHE_SIZE = 256


def prepared(q: Question) -> PreparedQuestion:
    """The prepared form of `q`, cached by identity (questions are immutable)."""
    key = id(q)
    hit = _CACHE.get(key)
    if hit is not None and hit.question is q:
        _CACHE.move_to_end(key)
        return hit
    pq = prepare(q)
    _CACHE[key] = pq
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return pq


def reference_similarity(pq: PreparedQuestion, view: AnswerView) -> float:
    """Weighted recall of the reference answer's terms (best language), with a bigram bonus; 0-1."""
    best = 0.0
    for ref in pq.references:
        sim = (ref.recall(view.bag) + 0.2 * ref.bigram_recall(view.bag)) / 1.2
        best = max(best, sim if ref.shares_content(view.bag) else sim / 2)  # only function words in common
    return best


def match_key_point(pk: PreparedKeyPoint, view: AnswerView) -> KeyPointMatch:
    strength = 0.0
    found: list[Phrase] = []
    for ph, in_question in pk.phrases:
        if ph.found_in(view.line, view.compacted):
            strength += 0.5 if in_question else 1.0
            found.append(ph)
    kw = min(1.0, strength / pk.need) if pk.phrases else 0.0
    tx = min(1.0, max((p.recall(view.bag) for p in pk.texts), default=0.0) / KP_TEXT_FULL)
    credit = min(1.0, max(kw, tx) + 0.25 * min(kw, tx))
    evidence = _evidence(pk, view, found) if credit >= PARTIAL else ""
    return KeyPointMatch(pk.key_point, credit, evidence)


def _evidence(pk: PreparedKeyPoint, view: AnswerView, found: list[Phrase]) -> str:
    """The sentence that best shows the key point: most matched phrases, then most of its text."""
    candidates: list[tuple[int, Sentence, str]] = []
    for s in view.sentences:
        hits = [ph.source for ph in found if ph.found_in(s.line, s.compacted)]
        candidates.append((len(hits), s, hits[0] if hits else ""))
    top = max((n for n, _, _ in candidates), default=0)
    best: tuple[float, str, str] = (0.0, "", "")
    for n, s, anchor in candidates:
        if n < top:
            continue
        score = n + max((p.recall(s.bag) for p in pk.texts), default=0.0)
        if score > best[0]:
            best = (score, s.text, anchor)
    return quote(best[1], best[2]) if best[0] > 0 else ""


def specifics_share(bag: Bag, specifics: tuple[tuple[int, Profile], ...], n_specifics: int) -> float | None:
    """Share (0-1) of the rubric's expected specifics the answer names; None when there are none."""
    if not n_specifics:
        return None
    credit: dict[int, float] = {}
    for i, prof in specifics:
        r = prof.recall(bag)
        c = min(1.0, r / 0.6) if r >= 0.3 else 0.0
        credit[i] = max(credit.get(i, 0.0), c)
    return sum(credit.values()) / n_specifics


def _negative(items: list[Term]) -> bool:
    """Whether a stretch of terms negates or rejects something ("not", "instead", "不", "避免")."""
    return any(t.text in _NEG_TERMS or _ZH_NEGATION.search(t.text) for t in items)


def _says(m: PreparedMistake, s: Sentence) -> bool:
    """Whether the sentence says the mistake: its terms close together, with the same negation."""
    items = s.bag.items
    span = 2 * len(m.profile.weights) + 2
    for start in range(0, max(1, len(items) - span + 1)):
        window = items[start : start + span]
        if m.profile.recall(Bag(window)) < MISTAKE_RECALL:
            continue
        where = [i for i, t in enumerate(window) if (t.text, t.negated) in m.profile.weights]
        lo = start + where[0]
        while lo > 0 and start + where[0] - lo < m.lookback and items[lo - 1] is not BREAK:
            lo -= 1  # negation cues just before the match, within its clause
        tight = items[lo : start + where[-1] + 1]
        if _negative(tight) == m.negative and all(any(t.text == r for t in tight) for r in m.required):
            return True
    return False


def detect_mistakes(pq: PreparedQuestion, view: AnswerView, kp_coverage: float) -> list[PreparedMistake]:
    """Listed mistakes the answer makes (one per index, either language); precision over recall."""
    found: dict[int, PreparedMistake] = {}
    for m in pq.mistakes:
        if m.index in found:
            continue
        if m.only:
            # "only says X": the answer says X and little else.
            if kp_coverage < 0.3 and m.profile.recall(view.bag) >= 0.5:
                found[m.index] = m
            continue
        for s in view.sentences:
            if m.refuters and not m.refuters.isdisjoint(s.bag.polarity):
                continue
            if m.profile.recall(s.bag) >= MISTAKE_RECALL and _says(m, s):
                found[m.index] = m
                break
    return [found[i] for i in sorted(found)]
