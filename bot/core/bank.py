"""The read-only question bank: lookup, eligibility by topic and level, and matching free text."""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.models import LEVELS, Level, Question
from bot.core.text import cosine, features

MATCH_THRESHOLD = 0.45


class Bank:
    def __init__(self, questions: Iterable[Question]) -> None:
        self._by_id = {q.id: q for q in questions}
        self._features = {q.id: (features(q.prompt.en), features(q.prompt.zh)) for q in self._by_id.values()}

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

    def match(self, text: str) -> tuple[Question | None, float]:
        """The closest bank question to a free-text question, and its similarity (0-1)."""
        f = features(text)
        best, best_sim = None, 0.0
        for qid, (en, zh) in self._features.items():
            sim = max(cosine(f, en), cosine(f, zh))
            if sim > best_sim:
                best, best_sim = self._by_id[qid], sim
        return best, best_sim
