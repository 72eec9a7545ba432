"""Match an answer against a question's rubric: key points, specifics and the reference answer (mistakes: `mistakes`).

A key point is credited for what the answer *asserts*: its terms (weighted by how rare they
are in the bank, less when the prompt already uses them) found together in one or two
neighbouring sentences, in clauses with the key point's own stance, or, for paraphrase and the
other language, a sentence whose embedding is close to the key point's text and that shares
at least one of its terms with the same stance. A clause that names the key point's terms
with the opposite stance, or the opposite direction ("increases" where it says "reduces"),
contradicts it: no credit, and a mistake. A key point that names a number needs the number
for full credit. Listed mistakes are found by their terms with their stance, or by embedding
plus a share of their terms.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from bot.grading.concepts import (
    NO_MATCH,
    Concepts,
    WindowMatch,
    clause_facts,
    concepts,
    match_facts,
    match_window,
    relevant,
)
from bot.grading.features import Clause, Sentence, analyse, analyse_reference, is_cjk, quote, terms_of
from bot.grading.markers import evidence_level, sentence_count, specificity_level, structure_level
from bot.grading.mistakes import PreparedMistake, prepare_mistake
from bot.grading.normalize import for_matching
from bot.grading.semantic import Embedder, UseEmbedder, Vectors, cosine_matrix
from bot.grading.term_weights import TermWeights
from bot.kernel.models import LANGS, KeyPoint, Lang, Question, Verdict

HIT, PARTIAL = 0.67, 0.3
LEX_FROM, LEX_FULL = 0.04, 0.42  # weighted recall of a key point's concepts: no credit / full credit
LEX_CURVE = 0.6  # concave: a terse but right statement of a long key point is partial, not missed
SEM_FROM, SEM_FULL = 0.45, 0.72  # cosine of a window and a key point text
SEM_ONLY_CAP = 0.6  # an embedding match without a lexical anchor is at most partial
CROSS_CAP, CROSS_DENIED = 0.85, 0.3  # a point only in the other language: the embedding's cap; when the answer negates
NUMBER_CAP = 0.6  # a key point that names a number, answered without it
CONTRADICTION = 0.35  # share of a key point's weight named with the opposite stance
ENGAGED = 0.12  # share of a key point's weight a sentence must name (either stance) to be about it
REF_SEM = 0.3  # share of the whole-answer embedding in the reference similarity
MAX_EMBEDDED_SENTENCES = 12
# ... and at most this many of the encoder's tokens in all (the encoder's cost grows with them: about 50 us
# each here). 768 is above every answer the bench grades (the longest, a negated reference, has 757), so
# it changes no grade there; it bounds a long Chinese answer's twelve 600-character sentences (~4,000 tokens).
MAX_EMBEDDED_TOKENS = 768
SHORT_REFERENCE_SENTENCES = 3


@dataclass(frozen=True, slots=True)
class PreparedKeyPoint:
    key_point: KeyPoint
    by_lang: dict[Lang, Concepts]
    texts: tuple[str, ...]  # the key point's texts, for embeddings
    negated: bool  # the key point's own text holds a negation
    story: bool = False  # a case question's point: its example numbers are the reference's story, never required


@dataclass(frozen=True, slots=True)
class PreparedQuestion:
    question: Question
    key_points: tuple[PreparedKeyPoint, ...]
    references: tuple[Concepts, ...]
    reference_for: dict[Lang, Concepts]
    reference_texts: tuple[str, ...]
    specifics: tuple[tuple[int, Concepts], ...]
    n_specifics: int
    mistakes: tuple[PreparedMistake, ...]
    reference_levels: dict[Lang, tuple[float, float, float]]  # structure, specificity, evidence
    reference_words: tuple[frozenset[str], ...]  # each reference's words as written (lower case)


@dataclass(frozen=True, slots=True)
class KeyPointMatch:
    key_point: KeyPoint
    credit: float
    evidence: str
    contradicted: bool = False
    missing: str = ""  # what a partial point lacked: a number, or a keyword
    conflict: float = 0.0  # in the sentence most about the point, the share of its terms said with the other stance

    @property
    def verdict(self) -> Verdict:
        return "hit" if self.credit >= HIT else "partial" if self.credit >= PARTIAL else "missed"


@dataclass(slots=True)
class AnswerView:
    """An answer analysed once: sentences with clauses, and (lazily) sentence embeddings."""

    text: str
    sentences: list[Sentence]
    lang: Lang
    embedder: Embedder | None = None
    _vectors: Vectors | None = field(default=None)
    _clauses: list[Clause] | None = field(default=None)
    _n_embedded: int = 0

    @classmethod
    def of(cls, text: str, embedder: Embedder | None = None) -> AnswerView:
        lang: Lang = "zh" if is_cjk(text) else "en"
        return cls(text, analyse(text), lang, embedder)

    @property
    def clauses(self) -> list[Clause]:
        """Every sentence's clauses, in order (worked out once: do not modify)."""
        if self._clauses is None:
            self._clauses = [c for s in self.sentences for c in s.clauses]
        return self._clauses

    def windows(self) -> list[tuple[int, list[Clause]]]:
        """One- and two-sentence windows: (first sentence index, clauses)."""
        out = [(i, list(s.clauses)) for i, s in enumerate(self.sentences)]
        out += [
            (i, [*self.sentences[i].clauses, *self.sentences[i + 1].clauses]) for i in range(len(self.sentences) - 1)
        ]
        return out

    def embedded_texts(self) -> list[str]:
        """The sentences that are embedded: the first `MAX_EMBEDDED_SENTENCES`, and of those (with the sentence
        encoder) the leading ones within `MAX_EMBEDDED_TOKENS`."""
        texts = [s.text for s in self.sentences[:MAX_EMBEDDED_SENTENCES]]
        if isinstance(self.embedder, UseEmbedder) and texts:
            texts = self.embedder.leading(texts, MAX_EMBEDDED_TOKENS)
        return texts

    @property
    def embedded(self) -> int:
        """How many leading sentences have a vector (rows of `vectors()` before the pairs)."""
        if self._vectors is None:
            return min(len(self.sentences), MAX_EMBEDDED_SENTENCES)
        return self._n_embedded

    def vectors(self) -> Vectors | None:
        """Embeddings of the first sentences and of neighbouring pairs (rows align with `windows`)."""
        if self.embedder is None or not self.sentences:
            return None
        if self._vectors is None:
            self.take_vectors(self.embedder.embed(self.embedded_texts()))
        return self._vectors

    def take_vectors(self, single: Vectors) -> None:
        """Use these embeddings of `embedded_texts` (computed in one call with other texts)."""
        n = self._n_embedded = len(single)
        pairs = single[:-1] + single[1:] if n > 1 else single[:0]
        norms = np.linalg.norm(pairs, axis=1, keepdims=True) if len(pairs) else None
        pairs = pairs / np.maximum(norms, 1e-6) if norms is not None else pairs
        self._vectors = np.concatenate([single, pairs]).astype(np.float32)

    def window_vector_index(self, kind: int, i: int) -> int | None:
        """Row of `vectors()` for a window (kind 1 = one sentence, 2 = a pair), if embedded."""
        n = self.embedded
        if kind == 1:
            return i if i < n else None
        return n + i if i + 1 < n else None


# --- preparation ---------------------------------------------------------------------------------


def _prepare_key_point(
    kp: KeyPoint, weights: TermWeights, qterms: frozenset[str], story: bool = False
) -> PreparedKeyPoint:
    by_lang: dict[Lang, Concepts] = {}
    for lang in LANGS:
        text = kp.text.get(lang)
        kws = kp.keywords.get(lang)
        if not text.strip() and not kws:
            continue
        by_lang[lang] = concepts(text, weights, qterms, kws)
    texts = tuple(dict.fromkeys(t for t in (kp.text.en, kp.text.zh) if t.strip()))
    negated_text = any(c.negated for t in texts for s in analyse_reference(t) for c in s.clauses)
    return PreparedKeyPoint(kp, by_lang, texts, negated_text, story)


def prepare(q: Question, weights: TermWeights) -> PreparedQuestion:
    qterms = frozenset(terms_of(for_matching(q.prompt.en))) | frozenset(terms_of(for_matching(q.prompt.zh)))
    ref_texts = tuple(dict.fromkeys(t for t in (q.reference_answer.get(g) for g in LANGS) if t.strip()))
    by_text = {t: concepts(t, weights, qterms) for t in ref_texts}
    refs = {g: by_text[q.reference_answer.get(g)] for g in LANGS if q.reference_answer.get(g) in by_text}
    r = q.rubric
    specifics = tuple(
        (i, concepts(s, weights, qterms)) for lst in (r.specifics.en, r.specifics.zh) for i, s in enumerate(lst)
    )
    mistakes = tuple(
        m
        for lang in LANGS
        for i, text in enumerate(r.mistakes.get(lang))
        if (m := prepare_mistake(i, text, weights)) is not None
    )
    n_spec = max(len(r.specifics.en), len(r.specifics.zh))
    levels: dict[Lang, tuple[float, float, float]] = {}
    for lang in LANGS:
        ref = q.reference_answer.get(lang) or q.reference_answer.en or q.reference_answer.zh
        spec = specifics_share(AnswerView.of(ref), specifics, n_spec)
        short = sentence_count(ref) < SHORT_REFERENCE_SENTENCES  # a short reference calls for no layers
        levels[lang] = (0.0 if short else structure_level(ref), specificity_level(ref, spec), evidence_level(ref))
    kps = tuple(_prepare_key_point(kp, weights, qterms, q.type == "case") for kp in r.key_points)
    words = tuple(frozenset(t.lower().split()) for t in ref_texts if not is_cjk(t))
    return PreparedQuestion(
        q, kps, tuple(by_text.values()), refs, ref_texts, specifics, n_spec, mistakes, levels, words
    )


_CACHE: OrderedDict[int, PreparedQuestion] = OrderedDict()
_CACHE_SIZE = 256


def prepared(q: Question, weights: TermWeights) -> PreparedQuestion:
    """The prepared form of `q`, cached by identity (questions are immutable)."""
    key = id(q)
    hit = _CACHE.get(key)
    if hit is not None and hit.question is q:
        _CACHE.move_to_end(key)
        return hit
    pq = prepare(q, weights)
    _CACHE[key] = pq
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return pq


# --- matching ------------------------------------------------------------------------------------


def _ramp(x: float, start: float, full: float) -> float:
    return max(0.0, min(1.0, (x - start) / (full - start)))


def _lex_credit(m: WindowMatch, n_concepts: int) -> float:
    if m.reversed:
        return 0.0
    credit: float = _ramp(m.recall, LEX_FROM, LEX_FULL) ** LEX_CURVE
    need = min(3, max(2, n_concepts // 4))
    if m.hits < need:  # one word is not a point
        credit = min(credit, 0.25 * m.hits)
    if m.anti:  # the point's terms said with the opposite stance weigh against it
        credit *= m.recall / (m.recall + m.anti)
    return credit


def _contradicts(m: WindowMatch) -> bool:
    return (m.reversed and m.recall >= 0.2) or (m.anti >= CONTRADICTION and m.anti_hits >= 2 and m.recall < 0.12)


@dataclass(frozen=True, slots=True)
class WindowLexical:
    """How one window of the answer matches a key point on its terms (every language), before embeddings."""

    lex: float
    anchors: tuple[str, ...]  # the quotes its better-matching languages offer, in order
    contra: bool
    engaged: tuple[tuple[float, float], ...]  # one sentence: per language, the share named and the share denied
    sem_gate: bool  # a term with the point's stance: the embedding may count
    numbers: bool
    denies: bool  # one of its clauses holds a negation


def lexical_windows(pk: PreparedKeyPoint, view: AnswerView) -> tuple[WindowLexical, ...]:
    """The lexical match of every window (`AnswerView.windows` order). Each sentence's clauses are matched
    once: a pair of sentences is matched again only when both share terms with the point."""
    cons = list(pk.by_lang.values())
    sentences = view.sentences
    facts = [[[clause_facts(con, c) for c in relevant(con, s.clauses)] for s in sentences] for con in cons]
    singles = [[match_facts(con, f) for f in fs] for con, fs in zip(cons, facts, strict=True)]
    sizes = [len(con.terms) + len(con.phrases) for con in cons]
    n = len(sentences)
    negated = [any(c.negated for c in s.clauses) for s in sentences]
    out: list[WindowLexical] = []
    for w_index in range(2 * n - 1 if n else 0):
        kind, i = (1, w_index) if w_index < n else (2, w_index - n)
        lex, anchors, contra, engaged, gate, numbers = 0.0, [], False, [], False, False
        for ci, con in enumerate(cons):
            if kind == 1:
                m = singles[ci][i]
            else:
                a, b = facts[ci][i], facts[ci][i + 1]
                m = singles[ci][i] if not b else singles[ci][i + 1] if not a else match_facts(con, a + b)
            if m is NO_MATCH:  # no term in common: no credit, no contradiction, nothing named
                if kind == 1:
                    engaged.append((0.0, 0.0))
                continue
            lex_c = _lex_credit(m, sizes[ci])
            if lex_c > lex:
                lex = lex_c
                anchors.append(m.anchor)
            if kind == 1:
                contra = contra or _contradicts(m)
                engaged.append((m.recall + m.anti, m.anti))
            gate = gate or (m.hits >= 1 and m.anti <= m.recall and not m.reversed)
            numbers = numbers or m.numbers
        denies = negated[i] or (kind == 2 and negated[i + 1])
        out.append(WindowLexical(lex, tuple(anchors), contra, tuple(engaged), gate, numbers, denies))
    return tuple(out)


def match_key_point(
    pk: PreparedKeyPoint,
    view: AnswerView,
    kp_vectors: Vectors | None,
    exclude: frozenset[int] = frozenset(),
    lexical: tuple[WindowLexical, ...] | None = None,
) -> KeyPointMatch:
    """Credit 0-1 for one key point, its evidence quote, and whether the answer contradicts it
    (`lexical`: its `lexical_windows`, when already computed)."""
    windows = lexical_windows(pk, view) if lexical is None else lexical
    vectors = view.vectors() if kp_vectors is not None else None
    sims = cosine_matrix(vectors, kp_vectors).max(axis=1) if vectors is not None and kp_vectors is not None else None
    best, best_i, contradicted, number_seen, anchor = 0.0, -1, False, False, ""
    cross = all(is_cjk(t) != (view.lang == "zh") for t in pk.texts)
    engaged, conflict = 0.0, 0.0
    n_single = len(view.sentences)
    for w_index, w in enumerate(windows):
        kind, i = (1, w_index) if w_index < n_single else (2, w_index - n_single)
        if i in exclude or (kind == 2 and i + 1 in exclude):
            continue  # a sentence that states a listed mistake earns nothing
        for a in w.anchors:
            if kind == 1 or not anchor:
                anchor = a or anchor
        for named, denied in w.engaged:
            if named > max(engaged, ENGAGED):
                engaged, conflict = named, denied / named
        sem = 0.0
        row = view.window_vector_index(kind, i)
        if sims is not None and row is not None and not w.contra:
            s = _ramp(float(sims[row]), SEM_FROM, SEM_FULL)
            if cross:  # the point is written only in the other language: the embedding is the evidence
                denies = w.denies and not pk.negated
                sem = min(s, CROSS_CAP) * (CROSS_DENIED if denies else 1.0)
            else:
                sem = s if w.sem_gate and w.lex >= 0.25 else min(s, SEM_ONLY_CAP) if w.sem_gate else 0.0
        credit = max(w.lex, sem)
        if w.contra:
            contradicted = True
            credit = 0.0
        number_seen = number_seen or w.numbers
        if credit > best:
            best, best_i = credit, w_index
    needs_number = not pk.story and any(con.numbers for con in pk.by_lang.values())
    missing = ""
    if needs_number and not number_seen and best > NUMBER_CAP:
        best = NUMBER_CAP
        missing = "number"
    if contradicted and best < HIT:
        best = 0.0
    evidence = ""
    if best >= PARTIAL and best_i >= 0:
        first = best_i if best_i < n_single else best_i - n_single
        evidence = quote(view.sentences[first].text, anchor)
    return KeyPointMatch(pk.key_point, best, evidence, contradicted and best == 0.0, missing, conflict)


def specific_credits(view: AnswerView, specifics: tuple[tuple[int, Concepts], ...]) -> list[float]:
    """The credit (0-1) of each of the rubric's specifics, in order (both languages)."""
    clauses = view.clauses
    out = []
    for _, con in specifics:
        m = match_window(con, clauses)
        out.append(min(1.0, m.recall / 0.6) if m.recall >= 0.3 else 0.0)
    return out


def specifics_share(
    view: AnswerView,
    specifics: tuple[tuple[int, Concepts], ...],
    n_specifics: int,
    credits: list[float] | None = None,
) -> float | None:
    """Share (0-1) of the rubric's expected specifics the answer names (the better language of each);
    None when there are none. (`credits`: their `specific_credits`, when already computed.)"""
    if not n_specifics:
        return None
    best: dict[int, float] = {}
    for (i, _), c in zip(specifics, specific_credits(view, specifics) if credits is None else credits, strict=True):
        best[i] = max(best.get(i, 0.0), c)
    return sum(best.values()) / n_specifics


def reference_similarity(
    pq: PreparedQuestion, view: AnswerView, ref_vectors: Vectors | None, exclude: frozenset[int] = frozenset()
) -> float:
    """How much of the reference answer the answer says (best language), 0-1: terms with their stance,
    blended with the embedding similarity of the whole answer when there is one."""
    clauses = [c for i, s in enumerate(view.sentences) if i not in exclude for c in s.clauses]
    pos = frozenset().union(*(c.pos for c in clauses)) if clauses else frozenset()
    neg = frozenset().union(*(c.neg for c in clauses)) if clauses else frozenset()
    best = 0.0
    for con in pq.references:
        m = match_window(con, clauses)
        aligned = max(0.0, m.recall - 0.5 * m.anti)
        # A one-sentence reference (a batch row) said across two clauses: the bag of terms, with stance.
        bag = sum(w for (t, n), w in con.terms.items() if t in (neg if n else pos)) / con.total if con.total else 0.0
        best = max(best, aligned, 0.9 * bag if not pq.key_points else 0.0)
    if not pq.key_points and pq.reference_words:
        # A reference-only row (a batch CSV): its words as written, function words too, say something of
        # the phrasing that stems and stances do not.
        answer_words = set(view.text.lower().split())
        surface = max(len(ref & answer_words) / len(ref) for ref in pq.reference_words)
        best = 0.55 * best + 0.45 * surface
    vectors = view.vectors()
    if vectors is not None and ref_vectors is not None and len(vectors):
        n = view.embedded
        doc = vectors[:n].mean(axis=0, keepdims=True)
        doc = doc / max(float(np.linalg.norm(doc)), 1e-6)
        sim = float(cosine_matrix(doc, ref_vectors).max())
        best = (1 - REF_SEM) * best + REF_SEM * _ramp(sim, 0.35, 0.85) * min(1.0, best / 0.15 + 0.2)
    return best
