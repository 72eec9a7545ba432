"""The shipped question bank, as the bot and its worker processes load it: the content folder from the settings, the
cache folder for its derived data (bot/content/cache.py), the prompts checked, /review's matcher."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.content import cache
from bot.content.loader import DEFAULT_CONTENT_DIR, BankMissing, check_present, load_bank
from bot.grading.prompts import PromptError, load_prompts
from bot.kernel.bank import Bank
from bot.kernel.models import Question
from bot.kernel.ports import QuestionMatcher


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
    from bot.grading.question_match import SemanticMatcher, bank_matcher
    from bot.grading.semantic import default_embedder
    from bot.grading.term_weights import TermWeights, documents

    embedder = default_embedder()
    if embedder is None:
        return None
    if root is None:
        return SemanticMatcher(questions, embedder, TermWeights(documents(questions)))
    return bank_matcher(root, questions, embedder)
