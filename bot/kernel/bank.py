"""The read-only question bank: lookup, eligibility by topic and level, and matching free text."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.kernel.models import LEVELS, Level, Question
from bot.kernel.ports import QuestionMatcher
from bot.text.tokens import cosine, features

MATCH_THRESHOLD = 0.45  # the lexical fallback's bar; a QuestionMatcher brings its own (see `sure`)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*")
_JOINERS = re.compile(r"[-.\s]")
GENERIC_NAMES = frozenset({"llm", "llms", "gpu", "gpus", "ai", "ml", "nlp", "cpu", "api"})  # name no method


def named_terms(text: str) -> frozenset[str]:
    """The names a question asks about, as written: words with a capital past their first letter or letters
    with digits ("Pre-LN", "DeepNorm", "FP16", "H100s"), folded ("preln", "h100"); generic ones ("LLMs") left out."""
    names = set()
    for token in _TOKEN.findall(text):
        if not (re.search(r"[A-Z]", token[1:]) or re.search(r"\d", token)):
            continue
        name = _JOINERS.sub("", token).casefold()
        if len(name) > 2 and name.endswith("s") and (token[-2].isupper() or token[-2].isdigit()):
            name = name[:-1]  # a plural: "H100s", "LLMs"
        if name not in GENERIC_NAMES:
            names.add(name)
    return frozenset(names)


def _folded(text: str) -> str:
    return _JOINERS.sub("", text).casefold()


class Bank:
    def __init__(self, questions: Iterable[Question], matcher: QuestionMatcher | None = None) -> None:
        self._by_id = {q.id: q for q in questions}
        self._features = {q.id: (features(q.prompt.en), features(q.prompt.zh)) for q in self._by_id.values()}
        self.matcher = matcher

    def __len__(self) -> int:
        return len(self._by_id)

    def get(self, question_id: str) -> Question | None:
        return self._by_id.get(question_id)

    def all(self) -> list[Question]:
        return list(self._by_id.values())

    def new_candidates(self, topics: list[str], level: Level, exclude: set[str]) -> list[Question]:
        """Questions not yet in the deck, the user's level first, then easier ones first.

        Other levels are not hidden (a campus hire may still meet an engineer question) but come
        later, by their distance from the user's level.
        """
        rank = LEVELS.index(level)
        pool = [q for q in self._by_id.values() if q.topic in topics and q.id not in exclude]
        return sorted(pool, key=lambda q: (abs(LEVELS.index(q.level) - rank), q.difficulty, q.id))

    def candidates(self, text: str, limit: int = 3) -> list[tuple[Question, float]]:
        """The bank questions closest to a free-text question, best first, with a similarity 0-1."""
        if self.matcher is not None:
            return self.matcher.candidates(text, limit)
        f = features(text)
        scored = [(self._by_id[qid], max(cosine(f, en), cosine(f, zh))) for qid, (en, zh) in self._features.items()]
        scored.sort(key=lambda x: (-x[1], x[0].id))
        return scored[:limit]

    def subtopics(self) -> frozenset[str]:
        return frozenset(q.subtopic for q in self._by_id.values())

    def bars(self) -> tuple[float, float]:
        """(taken as the same question, offered to confirm) for scores from `candidates`."""
        if self.matcher is not None:
            return self.matcher.sure, self.matcher.unsure
        return MATCH_THRESHOLD, MATCH_THRESHOLD

    def is_sure(self, candidates: list[tuple[Question, float]], text: str = "") -> bool:
        """Whether the best of `candidates` (from `candidates(text)`, best first) is taken as the same question:
        at the sure bar, clearly ahead of the runner-up (two about as close are offered to choose from), and
        asking about every name `text` asks about ("Pre-LN vs Post-LN" is not the DeepNorm question, however
        close their wording: it is offered instead)."""
        if not candidates or candidates[0][1] < self.bars()[0]:
            return False
        margin = self.matcher.margin if self.matcher is not None else 0.0
        if len(candidates) >= 2 and candidates[0][1] - candidates[1][1] < margin:
            return False
        best = candidates[0][0]
        asked = _folded(best.prompt.en + " " + best.prompt.zh)
        return all(name in asked for name in named_terms(text))

    def match(self, text: str) -> tuple[Question | None, float]:
        """The closest bank question to a free-text question, and its similarity (0-1)."""
        best = self.candidates(text, 1)
        return (best[0][0], best[0][1]) if best else (None, 0.0)
