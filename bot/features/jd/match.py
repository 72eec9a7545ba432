"""Reading a job description offline: which bank subtopics it asks for, and which of its skills the bank
does not cover. No LLM: the JD's words are matched against the bank's own vocabulary.

Three kinds of phrase are looked for, in English and Chinese alike (Chinese needs no word splitting: a
phrase is found as a run of characters):
- the hand-written, reviewed table of common JD phrases per subtopic (bot/features/jd/terms.py), weight 1;
- each subtopic's display name in both languages (bot/kernel/locales/names/zh.po), weight 1;
- the rubric keywords of the subtopic's questions that no other subtopic uses and that are specific enough
  to mean something alone, weight 1/2 (so one such keyword is not enough; two are).
A subtopic is matched at a weight of 1; the strongest (then the earliest named) come first. The skills the
bank has no subtopic for come from a known list (bot/features/jd/terms.py UNCOVERED_SKILLS); a skill nobody
listed is not guessed at. bench/jd_match.py measures this on tests/data/jds/."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from bot.features.career.models import MAX_FOCUS
from bot.features.jd.terms import SUBTOPIC_PHRASES, UNCOVERED_SKILLS
from bot.kernel.bank import Bank
from bot.kernel.i18n import MESSAGES
from bot.kernel.models import Question
from bot.text.fold import fold

MATCHED = 1.0  # the weight at which a subtopic counts as asked for
KEYWORD_WEIGHT = 0.5
MIN_KEYWORD_WORDS = 2  # a rubric keyword is taken as evidence when it has this many Latin words ...
MIN_KEYWORD_CJK = 4  # ... or this many Chinese characters (single words are too common in a JD)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_EDGE = re.compile(r"[a-z0-9]")


@dataclass(frozen=True)
class JdMatch:
    skills: list[str]
    """The bank phrases found, as written in the JD, in the order they first appear."""
    subtopics: list[str]
    """Bank subtopics asked for, the most strongly matched first."""
    uncovered: list[str]
    """Known skills the bank has no subtopic for, in the order they first appear."""
    scores: dict[str, float] = field(default_factory=dict)
    """Each matched subtopic's weight: how much of the JD names it (phrases counted once each)."""


MIN_FOCUS = 3
STRONG_SHARE = 0.5
"""A subtopic is among a JD's strongest when it scores at least this share of the top one."""


def split_focus(subtopics: list[str], scores: dict[str, float] | None = None) -> tuple[list[str], list[str]]:
    """(focus, also mentioned): the JD's strongest subtopics, 3 to 6 of them (every one when there are fewer than
    3), and the rest in order. The strong ones are those scoring at least half the top score; with no scores (an
    LLM's reading, in its order) the first 6."""
    if scores:
        top = max(scores.get(s, 0.0) for s in subtopics) if subtopics else 0.0
        strong = sum(1 for s in subtopics if scores.get(s, 0.0) >= top * STRONG_SHARE)
    else:
        strong = MAX_FOCUS
    n = min(len(subtopics), max(MIN_FOCUS, min(MAX_FOCUS, strong)))
    return subtopics[:n], subtopics[n:]


@dataclass(frozen=True)
class _Phrase:
    source: str
    """Its pattern (compiled when first needed)."""
    probe: str
    """Its first word: a match starts where it does, and `str.find` is much cheaper than a search."""
    subtopics: tuple[tuple[str, float], ...]
    """The subtopics it names, each with its weight."""
    skill: str = ""
    """For an uncovered skill: the name shown; empty for a bank phrase."""


def _phrase(phrase: str, subtopics: tuple[tuple[str, float], ...], skill: str = "") -> _Phrase | None:
    """A phrase as a pattern: a Latin end is a word boundary (with an optional plural on the last word),
    spaces and hyphens inside match either or nothing."""
    words = [w for w in re.split(r"[\s\-]+", fold(phrase).strip()) if w]
    if not words:
        return None
    body = r"[\s\-]*".join(re.escape(w) for w in words)
    head = r"(?<![a-z0-9])" if _LATIN_EDGE.match(words[0][0]) else ""
    tail = r"(?:e?s)?(?![a-z0-9])" if _LATIN_EDGE.match(words[-1][-1]) else ""
    return _Phrase(head + body + tail, words[0], subtopics, skill)


@cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


def _specific(keyword: str) -> bool:
    """A rubric keyword that means something alone: several words, or a long Chinese term."""
    k = fold(keyword).strip()
    cjk = len(_CJK.findall(k))
    return cjk >= MIN_KEYWORD_CJK if cjk else len(re.findall(r"[a-z]{2,}", k)) >= MIN_KEYWORD_WORDS


def _keywords(questions: Iterable[Question]) -> dict[str, set[str]]:
    """Each specific rubric keyword used by exactly one subtopic, with that subtopic."""
    users: dict[str, set[str]] = defaultdict(set)
    for q in questions:
        if q.personal:
            continue
        for kp in q.rubric.key_points:
            for k in [*kp.keywords.en, *kp.keywords.zh]:
                if _specific(k):
                    users[fold(k).strip()].add(q.subtopic)
    return {k: subs for k, subs in users.items() if len(subs) == 1}


class JdMatcher:
    """The phrase table for one bank; `match` reads a job description against it."""

    def __init__(self, questions: Iterable[Question]) -> None:
        questions = list(questions)
        bank = {q.subtopic for q in questions if not q.personal}
        weights: dict[tuple[str, str], float] = {}  # (phrase, subtopic) -> weight, the strongest kept
        for subtopic, phrases in SUBTOPIC_PHRASES.items():
            for phrase in phrases:
                weights[(fold(phrase), subtopic)] = 1.0
        for subtopic in bank:
            names = MESSAGES.get(f"subtopic.{subtopic}", {})
            for name in names.values():
                weights[(fold(name), subtopic)] = 1.0
        listed = {phrase for phrase, _ in weights}
        for keyword, subs in _keywords(questions).items():
            if keyword not in listed:  # a listed phrase says which subtopics it names
                weights[(keyword, next(iter(subs)))] = KEYWORD_WEIGHT
        by_phrase: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for (phrase, subtopic), weight in weights.items():
            if subtopic in bank:
                by_phrase[phrase].append((subtopic, weight))
        made = [_phrase(phrase, tuple(sorted(targets))) for phrase, targets in by_phrase.items()]
        made += [_phrase(phrase, (), skill) for skill, phrases in UNCOVERED_SKILLS.items() for phrase in phrases]
        self._phrases: list[_Phrase] = [p for p in made if p is not None]

    def match(self, text: str) -> JdMatch:
        folded = fold(text)
        found: list[tuple[int, int, _Phrase]] = []
        for phrase in self._phrases:
            at = folded.find(phrase.probe)
            while at != -1:
                m = _compiled(phrase.source).match(folded, at)
                if m is not None:
                    found.append((m.start(), m.end(), phrase))
                at = folded.find(phrase.probe, at + 1)
        taken: list[tuple[int, int, _Phrase]] = []
        used = bytearray(len(folded))  # 1 where a phrase already taken lies
        for start, end, phrase in sorted(found, key=lambda f: (f[0] - f[1], f[0])):  # the longest first
            if used.find(1, start, end) == -1:
                taken.append((start, end, phrase))
                used[start:end] = b"\x01" * (end - start)
        taken.sort(key=lambda f: f[0])
        score: dict[str, float] = defaultdict(float)
        first: dict[str, int] = {}
        counted: set[tuple[str, str]] = set()  # a phrase counts once per subtopic, however often and however spelt
        skills: dict[str, None] = {}
        shown: set[str] = set()  # phrases whose skill is listed (the first spelling met)
        uncovered: dict[str, None] = {}
        in_place = len(folded) == len(text)  # folding kept every character where it was
        for start, end, phrase in taken:
            if phrase.skill:
                uncovered.setdefault(phrase.skill)
                continue
            for subtopic, weight in phrase.subtopics:
                if (phrase.source, subtopic) not in counted:
                    counted.add((phrase.source, subtopic))
                    score[subtopic] += weight
                    first.setdefault(subtopic, start)
            if phrase.source not in shown and any(weight >= MATCHED for _, weight in phrase.subtopics):
                shown.add(phrase.source)
                skills.setdefault(" ".join((text[start:end] if in_place else folded[start:end]).split()))
        matched = [s for s, w in score.items() if w >= MATCHED]
        matched.sort(key=lambda s: (-score[s], first[s], s))
        return JdMatch(skills=list(skills), subtopics=matched, uncovered=list(uncovered),
                       scores={s: score[s] for s in matched})  # fmt: skip


@lru_cache(maxsize=4)
def matcher_for(bank: Bank) -> JdMatcher:
    """The matcher of a bank, built once (a bank is read-only)."""
    return JdMatcher(bank.all())


def read_offline(bank: Bank, text: str) -> JdMatch:
    return matcher_for(bank).match(text)
