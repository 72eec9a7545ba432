"""A rubric text as weighted terms with their stance, and how one stretch of an answer matches it.

Each clause of a rubric text (a key point, a reference answer, a listed mistake, a specific) keeps its
terms with their stance, weighted by how rare they are in the bank (`term_weights`) and less when the
prompt uses them; an answer's clauses are aligned with them one by one (`match_window`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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
