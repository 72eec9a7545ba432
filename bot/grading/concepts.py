"""A rubric text as weighted terms with their stance, and how one stretch of an answer matches it.

Each clause of a rubric text (a key point, a reference answer, a listed mistake, a specific) keeps its
terms with their stance, weighted by how rare they are in the bank (`term_weights`) and less when the
prompt uses them; an answer's clauses are aligned with them one by one (`match_window`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.grading.features import Clause, Phrase, analyse_reference
from bot.grading.term_weights import TermWeights

QUESTION_FACTOR = 0.35  # terms the prompt itself uses say little
LABEL_FACTOR = 0.3  # the words of a key point's label ("Clip by norm: ...") say little too
_LABEL = re.compile(r"^[^:：。.;；]{2,40}[:：]")


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
    vocab: frozenset[str]  # every term of its clauses and keywords: an answer clause sharing none cannot match
    # a text of many clauses (a reference answer): each term's clauses, in order, so an answer clause meets
    # only the clauses it shares a term with; None for a short text, whose clauses are simply scanned
    index: dict[str, tuple[int, ...]] | None = None


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
    vocab = frozenset(t for t, _ in terms).union(*(ph.terms for ph, _ in phrases))
    index: dict[str, list[int]] | None = None
    if len(clauses) > _INDEXED_FROM:
        index = {}
        for k, (_, _, _, by_term) in enumerate(clauses):
            for t in by_term:
                index.setdefault(t, []).append(k)
    return Concepts(
        terms,
        tuple(clauses),
        tuple(phrases),
        frozenset(numbers),
        direction,
        total,
        vocab,
        None if index is None else {t: tuple(ks) for t, ks in index.items()},
    )


_INDEXED_FROM = 4  # clauses: a longer text gets a term index
_NONE: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class WindowMatch:
    recall: float  # weighted, same stance
    anti: float  # weighted, opposite stance only
    hits: int  # distinct concepts with the same stance
    anti_hits: int
    numbers: bool  # one of the concept's numbers is there
    reversed: bool  # the opposite direction
    anchor: str  # a matched phrase, for the quote


NO_MATCH = WindowMatch(0.0, 0.0, 0, 0, False, False, "")


def relevant(con: Concepts, clauses: Sequence[Clause]) -> tuple[Clause, ...]:
    """The clauses that share a term with the text: the others cannot change its match."""
    vocab = con.vocab
    return tuple(c for c in clauses if not vocab.isdisjoint(c.terms))


@dataclass(frozen=True, slots=True)
class ClauseFacts:
    """What one answer clause offers a rubric text, worked out once and reused by every window holding it."""

    clause: Clause
    overlap: dict[int, float]  # rubric clause -> weight of the terms they share
    found: dict[int, tuple[tuple[tuple[str, bool], float], ...]]  # rubric clause -> its terms here (`shared`)
    phrases: frozenset[int]  # keywords said here with their stance
    denied: frozenset[int]  # keywords whose terms are here with the other stance
    numbers: bool  # names one of the text's numbers

    def shared(self, con: Concepts, k: int) -> tuple[tuple[tuple[str, bool], float], ...]:
        """The rubric clause's terms (with stance) and weights that this clause names, worked out on first use."""
        found = self.found.get(k)
        if found is None:
            terms = self.clause.terms
            found = self.found[k] = tuple((key, w) for key, w in con.clauses[k][0].items() if key[0] in terms)
        return found


def clause_facts(con: Concepts, clause: Clause) -> ClauseFacts:
    terms = clause.terms
    overlap: dict[int, float] = {}
    rubric = con.clauses
    if con.index is None:
        candidates: Iterable[int] = range(len(rubric))
    else:
        index = con.index
        candidates = sorted({k for t in terms if t in index for k in index[t]})
    for k in candidates:
        by_term = rubric[k][3]
        if not terms.isdisjoint(by_term):
            overlap[k] = sum(map(by_term.__getitem__, by_term.keys() & terms))
    hit = denied = _NONE
    if con.phrases:
        named = [(i, ph) for i, (ph, _) in enumerate(con.phrases) if ph.terms and ph.terms <= terms]
        if named:
            hit = frozenset(i for i, ph in named if ph.in_clause(clause))
            denied = frozenset(i for i, ph in named if i not in hit and ph.denied_in(clause))
    numbers = bool(con.numbers) and not con.numbers.isdisjoint(terms)
    return ClauseFacts(clause, overlap, {}, hit, denied, numbers)


def match_window(con: Concepts, clauses: Sequence[Clause]) -> WindowMatch:
    """Align each clause of the rubric text with the answer clause that shares most of its terms;
    the terms count for it when the two clauses have the same stance, against it when not."""
    if not con.total:
        return NO_MATCH
    return match_facts(con, [clause_facts(con, c) for c in relevant(con, clauses)])


def match_facts(con: Concepts, facts: Sequence[ClauseFacts]) -> WindowMatch:
    """`match_window` of a window given as its clauses' facts, in order."""
    if not con.total or not facts:
        return NO_MATCH
    if len(facts) == 1:
        only = facts[0]
        best_of = {k: only for k, overlap in only.overlap.items() if overlap > 0.0}
        said, denied = only.phrases, only.denied
    else:
        best_of = {}
        best_overlap: dict[int, float] = {}
        for f in facts:  # the first clause with the largest overlap, for each rubric clause
            for k, overlap in f.overlap.items():
                if overlap > best_overlap.get(k, 0.0):
                    best_of[k], best_overlap[k] = f, overlap
        best_of = dict(sorted(best_of.items()))
        said = frozenset().union(*(f.phrases for f in facts))
        denied = frozenset().union(*(f.denied for f in facts)) - said
    hit_w = anti_w = 0.0
    hits = anti_hits = 0
    credited: set[tuple[str, bool]] = set()
    rev = False
    for k, best in best_of.items():
        _, own_direction, own_negated, _ = con.clauses[k]
        found = best.shared(con, k)
        c = best.clause
        if own_direction and c.direction == -own_direction:
            rev = rev or len(found) >= 2  # "increases" where it says "reduces"
        # A claim's stance is its clause's: "X does not store the matrix" does not say "X stores the matrix",
        # not even about X.
        same = c.negated == own_negated or c.probe  # a check of X neither says nor denies X
        for key, w in found:
            if key in credited:
                continue
            credited.add(key)
            if same:
                hit_w += w
                hits += 1
            else:
                anti_w += w
                anti_hits += 1
    anchor = ""
    for i in sorted(said | denied):
        ph, w = con.phrases[i]
        if i in said:
            hit_w += w
            hits += 1
            anchor = anchor or ph.source
        else:
            anti_w += w
            anti_hits += 1
    numbers = any(f.numbers for f in facts)
    return WindowMatch(hit_w / con.total, anti_w / con.total, hits, anti_hits, numbers, rev, anchor)
