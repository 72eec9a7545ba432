"""Follow-ups never put words in the user's mouth (issue #32 item 5), over every follow-up in the bank, in both
languages: a follow-up whose premise comes from the reference story is offered only when the answer states it;
the offline path asks a bank follow-up the answer allows or a generic one, and never quotes a key point back."""

from __future__ import annotations

from functools import cache

import pytest

from bot.grading.feedback import GENERIC_FOLLOW_UPS, follow_up, generic_follow_up
from bot.grading.offline import OfflineGrader
from bot.kernel.models import LANGS, FollowUp, Question, TextList
from bot.kernel.premise import askable_indexes
from tests.shipped import shipped_questions

GRADER = OfflineGrader(semantic=False)


@cache
def bank() -> list[Question]:
    """The shipped bank, loaded when a test first needs it (never at collection)."""
    return shipped_questions()


def premised(q: Question) -> list[tuple[int, FollowUp]]:
    return [(i, f) for i, f in enumerate(q.follow_ups) if f.premise.both()]


@pytest.mark.parametrize("lang", LANGS)
def test_with_only_the_prompt_said_no_premised_follow_up_is_asked(lang: str) -> None:
    for q in bank():
        prompt = q.prompt.get(lang)  # type: ignore[arg-type]
        asked = follow_up(q, lang, [], prompt)  # type: ignore[arg-type]
        allowed = {q.follow_ups[i].get(lang) for i in askable_indexes(q, prompt)}  # type: ignore[arg-type]
        assert asked in allowed | {generic_follow_up(q, lang)}, q.id  # type: ignore[arg-type]
        for i, f in premised(q):
            if not any(term.lower() in prompt.lower() for term in f.premise.both()):
                assert asked != f.get(lang), (q.id, i)  # type: ignore[arg-type]


def test_a_premised_follow_up_is_asked_once_the_answer_states_its_premise() -> None:
    for q in bank():
        for i, f in premised(q):
            for term in f.premise.both():
                assert i in askable_indexes(q, f"In my case it was {term}, measured twice."), (q.id, term)
            assert i not in askable_indexes(q, "An answer that states nothing of the reference story."), q.id


def test_a_graded_answer_gets_an_allowed_follow_up_in_both_languages() -> None:
    """Every bank question graded offline on an answer of its own subject that states no story: the follow-up is
    one the answer allows, in the user's language, and never "You didn't mention ..."."""
    for q in bank()[:60]:
        for lang in LANGS:
            answer = "I would measure first, change one thing at a time, and check the result."
            g = GRADER.grade_sync(q, answer, lang)
            allowed = {q.follow_ups[i].get(lang) for i in askable_indexes(q, answer)} | {generic_follow_up(q, lang)}
            assert g.follow_up in allowed, q.id
            assert "didn't mention" not in (g.follow_up or "") and "你没有提到" not in (g.follow_up or "")


def test_generic_follow_ups_exist_in_both_languages_and_presuppose_nothing() -> None:
    for kind, texts in GENERIC_FOLLOW_UPS.items():
        assert set(texts) == {"en", "zh"}, kind
        for text in texts.values():
            assert "you said" not in text.lower() and "你说" not in text and text.rstrip()[-1] in "?？"


def test_the_rule_catches_a_premised_follow_up_when_the_answer_did_not_state_it() -> None:
    """Control: with the premise, "Why 10 layers?" is not asked of an answer that never said 10 layers."""
    q = next(q for q in bank() if q.type == "case")
    marked = FollowUp(en="Why 10 layers and not 12?", zh="为什么是 10 层而不是 12 层？",
                      premise=TextList(en=["10 layers"], zh=["10 层"]))  # fmt: skip
    q = q.model_copy(update={"follow_ups": [marked]})
    assert follow_up(q, "en", [], "I checkpointed every other layer.") == generic_follow_up(q, "en")
    assert follow_up(q, "en", [], "I checkpointed 10 layers.") == marked.en
