"""The rubric's listed mistakes: which an answer states, in its own words or the rubric's.

A listed mistake ("restarts training from scratch", "says BF16 also needs loss scaling") is matched as
a claim: its terms together in one sentence with the same stance, or a close sentence embedding plus a
share of its terms. An omission ("forgets X") is no claim and is not matched; "only says X" is matched
against an answer that says X and little else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from bot.grading.concepts import Concepts, concepts, match_window
from bot.grading.features import Clause, Sentence, analyse_reference, is_cjk
from bot.grading.semantic import Vectors, cosine_matrix
from bot.grading.term_weights import TermWeights


class PreparedQuestion(Protocol):
    """What matching mistakes reads of a prepared question (bot/grading/rubric_match.py PreparedQuestion)."""

    @property
    def mistakes(self) -> tuple[PreparedMistake, ...]: ...


class AnswerView(Protocol):
    """What matching mistakes reads of an analysed answer (bot/grading/rubric_match.py AnswerView)."""

    @property
    def sentences(self) -> list[Sentence]: ...

    @property
    def clauses(self) -> list[Clause]: ...

    def vectors(self) -> Vectors | None: ...

    def window_vector_index(self, kind: int, i: int) -> int | None: ...


MISTAKE_LEX, MISTAKE_LEX_SEM = 0.75, 0.45
MISTAKE_SEM, MISTAKE_SEM_LEX = 0.72, 0.55
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
    r"(?:(?<!\s)\s++)?+(?:(?:,\s*+)?+\b(?:without|so that|which|because|instead of|rather than|even though)\b"
    r"|而不|却不|但不|但没有|而没有|却没有|因为|以为|而非).*$",
    re.S | re.I,
)


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


_ABSENCE = re.compile(r"^\s*+(?:,\s*+)?+(?:without\b|而不|却不|但不|但没有|而没有|却没有|不加|没有)", re.I)


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


def prepare_mistake(index: int, text: str, weights: TermWeights) -> PreparedMistake | None:
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


@dataclass(frozen=True, slots=True)
class MistakeCandidate:
    """A sentence whose terms may state a listed mistake; the embedding decides the rest."""

    mistake: int  # position in `PreparedQuestion.mistakes`
    sentence: int
    lexical: bool  # enough of its terms, with the same stance
    semantic: bool  # enough of them for an embedding match
    quantified: bool  # the sentence names a quantity the mistake does not


def mistake_candidates(pq: PreparedQuestion, view: AnswerView) -> tuple[MistakeCandidate, ...]:
    """The (mistake, sentence) pairs that the terms leave open, in order: the lexical half of
    `claimed_mistakes`, which needs no embedding."""
    out: list[MistakeCandidate] = []
    scripts = {m.cjk for m in pq.mistakes}
    sentences = [(s, s.terms, is_cjk(s.text)) for s in view.sentences]
    for j, m in enumerate(pq.mistakes):
        if m.only:
            continue
        for i, (s, terms, cjk) in enumerate(sentences):
            if m.refuters and not m.refuters.isdisjoint(terms):
                continue
            if m.cjk != cjk and len(scripts) > 1:
                continue  # the mistake's other-language version is there for this sentence
            w = match_window(m.concepts, s.clauses)
            if w.reversed or w.anti > w.recall or (m.concepts.numbers and not w.numbers):
                continue  # a mistake that names a number is made only with that number
            lexical = w.recall >= MISTAKE_LEX and w.hits >= 2
            semantic = w.recall >= MISTAKE_SEM_LEX
            if lexical or semantic:
                quantified = any(ch.isdigit() for t in terms - m.concepts.numbers for ch in t)
                out.append(MistakeCandidate(j, i, lexical, semantic, quantified))
    return tuple(out)


def claimed_mistakes(
    pq: PreparedQuestion,
    view: AnswerView,
    mistake_vectors: Vectors | None,
    candidates: tuple[MistakeCandidate, ...] | None = None,
) -> tuple[dict[int, PreparedMistake], frozenset[int]]:
    """Listed mistakes the answer states (one per index, either language), and the sentences that state
    them, which then earn no key-point credit. Precision over recall. (`candidates`: the answer's
    `mistake_candidates`, when already computed.)"""
    found: dict[int, PreparedMistake] = {}
    where: set[int] = set()
    cands = mistake_candidates(pq, view) if candidates is None else candidates
    vectors = view.vectors() if mistake_vectors is not None and cands else None
    sims = cosine_matrix(vectors, mistake_vectors) if vectors is not None and mistake_vectors is not None else None
    for c in cands:
        m = pq.mistakes[c.mistake]
        row = view.window_vector_index(1, c.sentence)
        sim = float(sims[row, c.mistake]) if sims is not None and row is not None else None
        # The same words can make another claim ("LoRA's best LR is 10x full fine-tuning's"): when the
        # sentence names a quantity the mistake does not, a lexical match needs the embedding to agree.
        agrees = sim is None or sim >= MISTAKE_LEX_SEM or not c.quantified
        if (c.lexical and agrees) or (sim is not None and c.semantic and sim >= MISTAKE_SEM):
            found.setdefault(m.index, m)
            where.add(c.sentence)
    return found, frozenset(where)


def only_mistakes(
    pq: PreparedQuestion, view: AnswerView, kp_coverage: float, already: set[int]
) -> dict[int, PreparedMistake]:
    """ "Only says X" mistakes: the answer says X and little else."""
    found: dict[int, PreparedMistake] = {}
    for m in pq.mistakes:
        if not m.only or m.index in already or m.index in found:
            continue
        whole = match_window(m.concepts, view.clauses)
        if kp_coverage < 0.3 and whole.recall >= 0.5 and not whole.reversed:
            found[m.index] = m
    return found
