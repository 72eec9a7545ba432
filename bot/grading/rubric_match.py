"""Match an answer against a question's rubric: key points, specifics, mistakes, reference answer.

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

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.core.models import LANGS, KeyPoint, Lang, Question, Verdict
from bot.grading.features import (
    Clause,
    Phrase,
    Sentence,
    analyse,
    analyse_reference,
    is_cjk,
    quote,
    terms_of,
)
from bot.grading.markers import evidence_level, sentence_count, specificity_level, structure_level
from bot.grading.normalize import for_matching
from bot.grading.semantic import Embedder, Vectors, cosine_matrix
from bot.grading.term_weights import TermWeights

HIT, PARTIAL = 0.67, 0.3
LEX_FROM, LEX_FULL = 0.04, 0.42  # weighted recall of a key point's concepts: no credit / full credit
LEX_CURVE = 0.6  # concave: a terse but right statement of a long key point is partial, not missed
SEM_FROM, SEM_FULL = 0.45, 0.72  # cosine of a window and a key point text
SEM_ONLY_CAP = 0.6  # an embedding match without a lexical anchor is at most partial
CROSS_CAP, CROSS_DENIED = 0.85, 0.3  # a point only in the other language: the embedding's cap; when the answer negates
NUMBER_CAP = 0.6  # a key point that names a number, answered without it
QUESTION_FACTOR = 0.35  # terms the prompt itself uses say little
LABEL_FACTOR = 0.3  # the words of a key point's label ("Clip by norm: ...") say little too
_LABEL = re.compile(r"^[^:：。.;；]{2,40}[:：]")
CONTRADICTION = 0.35  # share of a key point's weight named with the opposite stance
ENGAGED = 0.12  # share of a key point's weight a sentence must name (either stance) to be about it
MISTAKE_LEX, MISTAKE_LEX_SEM = 0.75, 0.45
MISTAKE_SEM, MISTAKE_SEM_LEX = 0.72, 0.55
REF_SEM = 0.3  # share of the whole-answer embedding in the reference similarity
MAX_EMBEDDED_SENTENCES = 12
SHORT_REFERENCE_SENTENCES = 3
_QUOTES = re.compile(r"[\"'“”‘’「」『』]")
_ONLY = re.compile(r"^\s*(?:only says?|only|just|merely|只说|只会|只|仅仅|仅)\s*", re.I)
_CLAIM = re.compile(r"^\s*(?:says?|claims?|thinks?|believes?|assumes?|states?|说|认为|以为|觉得|声称)\s*", re.I)
_OMISSION = re.compile(
    r"^\s*(?:does not|doesn't|do not|don't|cannot|can't|never|fails? to|forgets?|ignores?|neglects?|misses|"
    r"overlooks?|has no idea|is unaware|is unable to|unable to|no\b|"
    r"不知道|不清楚|不了解|不会|不能|不区分|不考虑|说不出|说不清|讲不清|分不清|不懂|忘了|忘记|忽略|忽视|没有|没)",
    re.I,
)
_TAIL = re.compile(
    r"\s*(?:,?\s*\b(?:without|so that|which|because|instead of|rather than|even though)\b"
    r"|而不|却不|但不|但没有|而没有|却没有|因为|以为|而非).*$",
    re.S | re.I,
)


@dataclass(frozen=True, slots=True)
class Concepts:
    """A text's weighted terms with their stance, and its keywords."""

    terms: dict[tuple[str, bool], float]
    # each clause: its terms with stance, direction, negated, and its weight per term (either stance)
    clauses: tuple[tuple[dict[tuple[str, bool], float], int, bool, dict[str, float]], ...]
    phrases: tuple[tuple[Phrase, float], ...]
    numbers: frozenset[str]
    direction: int
    total: float


@dataclass(frozen=True, slots=True)
class PreparedKeyPoint:
    key_point: KeyPoint
    by_lang: dict[Lang, Concepts]
    texts: tuple[str, ...]  # the key point's texts, for embeddings
    negated: bool  # the key point's own text holds a negation


@dataclass(frozen=True, slots=True)
class PreparedMistake:
    index: int
    text: str
    core: str
    concepts: Concepts
    only: bool
    negative: bool
    refuters: frozenset[str]  # "extends the vocabulary without measuring fertility": naming fertility refutes it
    cjk: bool  # written in Chinese: matched against Chinese sentences only (the other version covers English)


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

    @classmethod
    def of(cls, text: str, embedder: Embedder | None = None) -> AnswerView:
        lang: Lang = "zh" if is_cjk(text) else "en"
        return cls(text, analyse(text), lang, embedder)

    @property
    def clauses(self) -> list[Clause]:
        return [c for s in self.sentences for c in s.clauses]

    def windows(self) -> list[tuple[int, list[Clause]]]:
        """One- and two-sentence windows: (first sentence index, clauses)."""
        out = [(i, list(s.clauses)) for i, s in enumerate(self.sentences)]
        out += [
            (i, [*self.sentences[i].clauses, *self.sentences[i + 1].clauses]) for i in range(len(self.sentences) - 1)
        ]
        return out

    def vectors(self) -> Vectors | None:
        """Embeddings of the first sentences and of neighbouring pairs (rows align with `windows`)."""
        if self.embedder is None or not self.sentences:
            return None
        if self._vectors is None:
            n = min(len(self.sentences), MAX_EMBEDDED_SENTENCES)
            single = self.embedder.embed([s.text for s in self.sentences[:n]])
            pairs = single[:-1] + single[1:] if n > 1 else single[:0]
            norms = np.linalg.norm(pairs, axis=1, keepdims=True) if len(pairs) else None
            pairs = pairs / np.maximum(norms, 1e-6) if norms is not None else pairs
            self._vectors = np.concatenate([single, pairs]).astype(np.float32)
        return self._vectors

    def window_vector_index(self, kind: int, i: int) -> int | None:
        """Row of `vectors()` for a window (kind 1 = one sentence, 2 = a pair), if embedded."""
        n = min(len(self.sentences), MAX_EMBEDDED_SENTENCES)
        if kind == 1:
            return i if i < n else None
        return n + i if i + 1 < n else None


# --- preparation ---------------------------------------------------------------------------------


def concepts(text: str, weights: TermWeights, qterms: frozenset[str], keywords: Sequence[str] = ()) -> Concepts:
    terms: dict[tuple[str, bool], float] = {}
    clauses: list[tuple[dict[tuple[str, bool], float], int, bool, dict[str, float]]] = []
    numbers: set[str] = set()
    direction = 0
    labelled = bool(_LABEL.match(text))
    for si, s in enumerate(analyse_reference(text)):
        for ci, c in enumerate(s.clauses):
            direction = direction or c.direction
            own: dict[tuple[str, bool], float] = {}
            label = labelled and si == 0 and ci == 0  # "Clip by norm: ..." names the topic, it claims nothing
            for t in c.terms:
                if t == "x":
                    continue  # the times sign: "2x" is the number 2
                w = weights(t) * (QUESTION_FACTOR if t in qterms else 1.0) * (LABEL_FACTOR if label else 1.0)
                key = (t, t in c.neg)
                own[key] = w
                terms[key] = max(terms.get(key, 0.0), w)
                if any(ch.isdigit() for ch in t) and t not in qterms:
                    numbers.add(t)
            by_term: dict[str, float] = {}
            for (t, _), w in own.items():
                by_term[t] = by_term.get(t, 0.0) + w
            clauses.append((own, c.direction, c.negated, by_term))
    phrases = []
    seen = set()
    for kw in keywords:
        ph = Phrase.of(kw)
        if not ph.key.strip() or ph.key in seen:
            continue
        seen.add(ph.key)
        if len(ph.terms) == 1 and (next(iter(ph.terms)), ph.negated) in terms:
            continue  # the same word as the text: counted once
        w = max((weights(t) * (QUESTION_FACTOR if t in qterms else 1.0) for t in ph.terms), default=0.0)
        if w > 0:
            phrases.append((ph, w))
    total = sum(terms.values()) + sum(w for _, w in phrases)
    return Concepts(terms, tuple(clauses), tuple(phrases), frozenset(numbers), direction, total)


def _prepare_key_point(kp: KeyPoint, weights: TermWeights, qterms: frozenset[str]) -> PreparedKeyPoint:
    by_lang: dict[Lang, Concepts] = {}
    for lang in LANGS:
        text = kp.text.get(lang)
        kws = kp.keywords.get(lang)
        if not text.strip() and not kws:
            continue
        by_lang[lang] = concepts(text, weights, qterms, kws)
    texts = tuple(dict.fromkeys(t for t in (kp.text.en, kp.text.zh) if t.strip()))
    negated_text = any(c.negated for t in texts for s in analyse_reference(t) for c in s.clauses)
    return PreparedKeyPoint(kp, by_lang, texts, negated_text)


_ABSENCE = re.compile(r"^\s*,?\s*(?:without\b|而不|却不|但不|但没有|而没有|却没有|不加|没有)", re.I)


def mistake_core(text: str) -> tuple[str, bool, str] | None:
    """A listed mistake as (the claim an answer would make, "only", what its absence is); None for an omission."""
    core = _QUOTES.sub("", text).strip()
    only = bool(_ONLY.match(core))
    if _OMISSION.match(_ONLY.sub("", core)):
        return None
    core = _CLAIM.sub("", _ONLY.sub("", core)).strip()
    if _OMISSION.match(core):
        return None
    tail = _TAIL.search(core)
    absent = _ABSENCE.sub("", tail.group(0)) if tail and _ABSENCE.match(tail.group(0)) else ""
    core = core[: tail.start()] if tail else core
    return (core, only, absent) if core.strip() else None


def _prepare_mistake(index: int, text: str, weights: TermWeights) -> PreparedMistake | None:
    found = mistake_core(text)
    if found is None:
        return None
    core, only, absent = found
    con = concepts(core, weights, frozenset())
    n_terms = len({t for t, _ in con.terms})
    if n_terms < (4 if is_cjk(core) else 3) and not (con.numbers and n_terms >= 2):
        return None  # too short to match without false alarms
    negative = any(neg for _, neg in con.terms)
    refuters = frozenset(t for s in analyse_reference(absent) for t in s.terms) if absent.strip() else frozenset()
    return PreparedMistake(index, text, core, con, only, negative, refuters, is_cjk(core))


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
        if (m := _prepare_mistake(i, text, weights)) is not None
    )
    n_spec = max(len(r.specifics.en), len(r.specifics.zh))
    levels: dict[Lang, tuple[float, float, float]] = {}
    for lang in LANGS:
        ref = q.reference_answer.get(lang) or q.reference_answer.en or q.reference_answer.zh
        spec = specifics_share(AnswerView.of(ref), specifics, n_spec)
        short = sentence_count(ref) < SHORT_REFERENCE_SENTENCES  # a short reference calls for no layers
        levels[lang] = (0.0 if short else structure_level(ref), specificity_level(ref, spec), evidence_level(ref))
    kps = tuple(_prepare_key_point(kp, weights, qterms) for kp in r.key_points)
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


@dataclass(frozen=True, slots=True)
class WindowMatch:
    recall: float  # weighted, same stance
    anti: float  # weighted, opposite stance only
    hits: int  # distinct concepts with the same stance
    anti_hits: int
    numbers: bool  # one of the concept's numbers is there
    reversed: bool  # the opposite direction
    anchor: str  # a matched phrase, for the quote


def match_window(con: Concepts, clauses: Sequence[Clause]) -> WindowMatch:
    """Align each clause of the rubric text with the answer clause that shares most of its terms;
    the terms count for it when the two clauses have the same stance, against it when not."""
    if not con.total:
        return WindowMatch(0.0, 0.0, 0, 0, False, False, "")
    hit_w = anti_w = 0.0
    hits = anti_hits = 0
    credited: set[tuple[str, bool]] = set()
    seen: set[str] = set()
    rev = False
    for c in clauses:
        seen |= c.terms
    for own, own_direction, own_negated, by_term in con.clauses:
        best: Clause | None = None
        best_overlap = 0.0
        for c in clauses:
            shared = by_term.keys() & c.terms
            if not shared:
                continue
            overlap = sum(by_term[t] for t in shared)
            if overlap > best_overlap:
                best, best_overlap = c, overlap
        if best is None:
            continue
        if own_direction and best.direction == -own_direction:
            rev = rev or sum(1 for t, _ in own if t in best.terms) >= 2  # "increases" where it says "reduces"
        # A claim's stance is its clause's: "X does not store the matrix" does not say "X stores the matrix",
        # not even about X.
        same = best.negated == own_negated or best.probe  # a check of X neither says nor denies X
        for (t, negated), w in own.items():
            if t not in best.terms or (t, negated) in credited:
                continue
            credited.add((t, negated))
            if same:
                hit_w += w
                hits += 1
            else:
                anti_w += w
                anti_hits += 1
    anchor = ""
    for ph, w in con.phrases:
        if any(ph.in_clause(c) for c in clauses):
            hit_w += w
            hits += 1
            anchor = anchor or ph.source
        elif any(ph.denied_in(c) for c in clauses):
            anti_w += w
            anti_hits += 1
    numbers = bool(con.numbers & seen)
    return WindowMatch(hit_w / con.total, anti_w / con.total, hits, anti_hits, numbers, rev, anchor)


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


def match_key_point(
    pk: PreparedKeyPoint, view: AnswerView, kp_vectors: Vectors | None, exclude: frozenset[int] = frozenset()
) -> KeyPointMatch:
    """Credit 0-1 for one key point, its evidence quote, and whether the answer contradicts it."""
    windows = view.windows()
    vectors = view.vectors() if kp_vectors is not None else None
    sims = cosine_matrix(vectors, kp_vectors).max(axis=1) if vectors is not None and kp_vectors is not None else None
    best, best_i, contradicted, number_seen, anchor = 0.0, -1, False, False, ""
    cross = all(is_cjk(t) != (view.lang == "zh") for t in pk.texts)
    engaged, conflict = 0.0, 0.0
    n_single = len(view.sentences)
    for w_index, (i, clauses) in enumerate(windows):
        kind = 1 if w_index < n_single else 2
        if i in exclude or (kind == 2 and i + 1 in exclude):
            continue  # a sentence that states a listed mistake earns nothing
        lex, sem_gate, contra, seen_numbers = 0.0, False, False, False
        for con in pk.by_lang.values():
            m = match_window(con, clauses)
            n_concepts = len(con.terms) + len(con.phrases)
            lex_c = _lex_credit(m, n_concepts)
            if lex_c > lex:
                lex, anchor_c = lex_c, m.anchor
                if kind == 1 or not anchor:
                    anchor = anchor_c or anchor
            contra = contra or (kind == 1 and _contradicts(m))
            if kind == 1 and m.recall + m.anti > max(engaged, ENGAGED):
                engaged, conflict = m.recall + m.anti, m.anti / (m.recall + m.anti)
            sem_gate = sem_gate or (m.hits >= 1 and m.anti <= m.recall and not m.reversed)
            seen_numbers = seen_numbers or m.numbers
        sem = 0.0
        row = view.window_vector_index(kind, i)
        if sims is not None and row is not None and not contra:
            s = _ramp(float(sims[row]), SEM_FROM, SEM_FULL)
            if cross:  # the point is written only in the other language: the embedding is the evidence
                denies = any(c.negated for c in clauses) and not pk.negated
                sem = min(s, CROSS_CAP) * (CROSS_DENIED if denies else 1.0)
            else:
                sem = s if sem_gate and lex >= 0.25 else min(s, SEM_ONLY_CAP) if sem_gate else 0.0
        credit = max(lex, sem)
        if contra:
            contradicted = True
            credit = 0.0
        number_seen = number_seen or seen_numbers
        if credit > best:
            best, best_i = credit, w_index
    needs_number = any(con.numbers for con in pk.by_lang.values())
    missing = ""
    if needs_number and not number_seen and best > NUMBER_CAP:
        best = NUMBER_CAP
        missing = "number"
    if contradicted and best < HIT:
        best = 0.0
    evidence = ""
    if best >= PARTIAL and best_i >= 0:
        first = windows[best_i][0]
        evidence = quote(view.sentences[first].text, anchor)
    return KeyPointMatch(pk.key_point, best, evidence, contradicted and best == 0.0, missing, conflict)


def specifics_share(view: AnswerView, specifics: tuple[tuple[int, Concepts], ...], n_specifics: int) -> float | None:
    """Share (0-1) of the rubric's expected specifics the answer names; None when there are none."""
    if not n_specifics:
        return None
    credit: dict[int, float] = {}
    clauses = view.clauses
    for i, con in specifics:
        m = match_window(con, clauses)
        c = min(1.0, m.recall / 0.6) if m.recall >= 0.3 else 0.0
        credit[i] = max(credit.get(i, 0.0), c)
    return sum(credit.values()) / n_specifics


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
        n = min(len(view.sentences), MAX_EMBEDDED_SENTENCES)
        doc = vectors[:n].mean(axis=0, keepdims=True)
        doc = doc / max(float(np.linalg.norm(doc)), 1e-6)
        sim = float(cosine_matrix(doc, ref_vectors).max())
        best = (1 - REF_SEM) * best + REF_SEM * _ramp(sim, 0.35, 0.85) * min(1.0, best / 0.15 + 0.2)
    return best


def claimed_mistakes(
    pq: PreparedQuestion, view: AnswerView, mistake_vectors: Vectors | None
) -> tuple[dict[int, PreparedMistake], frozenset[int]]:
    """Listed mistakes the answer states (one per index, either language), and the sentences that state
    them, which then earn no key-point credit. Precision over recall."""
    found: dict[int, PreparedMistake] = {}
    where: set[int] = set()
    vectors = view.vectors() if mistake_vectors is not None else None
    sims = cosine_matrix(vectors, mistake_vectors) if vectors is not None and mistake_vectors is not None else None
    for j, m in enumerate(pq.mistakes):
        if m.only:
            continue
        for i, s in enumerate(view.sentences):
            if m.refuters and not m.refuters.isdisjoint(s.terms):
                continue
            if m.cjk != is_cjk(s.text) and any(x.cjk != m.cjk for x in pq.mistakes):
                continue  # the mistake's other-language version is there for this sentence
            w = match_window(m.concepts, s.clauses)
            if w.reversed or w.anti > w.recall or (m.concepts.numbers and not w.numbers):
                continue  # a mistake that names a number is made only with that number
            row = view.window_vector_index(1, i)
            sim = float(sims[row, j]) if sims is not None and row is not None else None
            # The same words can make another claim ("LoRA's best LR is 10x full fine-tuning's"): when the
            # sentence names a quantity the mistake does not, a lexical match needs the embedding to agree.
            quantified = any(ch.isdigit() for t in s.terms - m.concepts.numbers for ch in t)
            agrees = sim is None or sim >= MISTAKE_LEX_SEM or not quantified
            lexical = w.recall >= MISTAKE_LEX and w.hits >= 2 and agrees
            if lexical or (sim is not None and w.recall >= MISTAKE_SEM_LEX and sim >= MISTAKE_SEM):
                found.setdefault(m.index, m)
                where.add(i)
    return found, frozenset(where)


def only_mistakes(
    pq: PreparedQuestion, view: AnswerView, kp_coverage: float, already: set[int]
) -> dict[int, PreparedMistake]:
    """"Only says X" mistakes: the answer says X and little else."""
    found: dict[int, PreparedMistake] = {}
    for m in pq.mistakes:
        if not m.only or m.index in already or m.index in found:
            continue
        whole = match_window(m.concepts, view.clauses)
        if kp_coverage < 0.3 and whole.recall >= 0.5 and not whole.reversed:
            found[m.index] = m
    return found
