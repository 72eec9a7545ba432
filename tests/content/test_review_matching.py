"""/review finds the bank's question: the real matcher on real phrasings, and the confirm step with a fake one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.grading.question_match import SURE, UNSURE, DeferredMatcher, SemanticMatcher
from bot.kernel.bank import Bank
from bot.kernel.i18n import t
from bot.kernel.models import Question
from bot.kernel.service import Service
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.shipped import shipped_bank, shipped_questions
from tests.unit.test_service import new_user, onboard

PHRASINGS = Path(__file__).resolve().parents[1] / "data" / "review_phrasings.yaml"


@pytest.fixture(scope="module")
def matcher() -> SemanticMatcher:
    """The shipped bank's matcher, as the bot builds it (the bank's term weights, the encoder's vectors)."""
    deferred = shipped_bank().matcher
    assert isinstance(deferred, DeferredMatcher)  # None would mean the encoder did not load
    return deferred.matcher()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Why does pre-LN train more stably than post-LN?", "stab-norm-002"),
        ("训练中 loss 突然出现尖刺该怎么排查？", "stab-spike-001"),
    ],
)
def test_the_issue_examples_find_their_bank_question(matcher: SemanticMatcher, text: str, expected: str) -> None:
    (best, score), *_ = matcher.candidates(text)
    assert best.id == expected and score >= UNSURE


def test_real_phrasings_match_and_out_of_bank_questions_do_not(matcher: SemanticMatcher) -> None:
    rows = yaml.safe_load(PHRASINGS.read_text(encoding="utf-8"))
    inside = [r for r in rows if r["expected"]]
    outside = [r for r in rows if not r["expected"]]
    assert len(inside) >= 30 and len(outside) >= 10
    top1 = sum(matcher.candidates(r["text"], 1)[0][0].id in {r["expected"], *(r.get("also") or [])} for r in inside)
    assert top1 / len(inside) >= 0.9
    false_sure = [r["text"] for r in outside if matcher.candidates(r["text"], 1)[0][1] >= SURE]
    assert false_sure == []


def test_two_bank_questions_about_as_close_are_offered_not_taken(matcher: SemanticMatcher) -> None:
    """ "为什么大模型预训练常用 warmup？" scores the continual-pretraining question a hair above the warmup one:
    neither is taken at once."""
    real = Bank(shipped_questions(), matcher)
    close = real.candidates("为什么大模型预训练常用 warmup？", 3)
    assert close[0][1] >= SURE and close[0][1] - close[1][1] < matcher.margin
    assert "stab-warmup-adam-001" in [q.id for q, _ in close[:2]] and not real.is_sure(close)
    clear = real.candidates("为什么要做学习率 warmup？", 3)
    assert clear[0][0].id == "stab-warmup-adam-001" and real.is_sure(clear)


class FixedMatcher:
    """A hand-written matcher that returns the scores a test sets."""

    sure, unsure, margin = 0.8, 0.5, 0.03

    def __init__(self, questions: list[Question]) -> None:
        self.questions = questions
        self.scores: list[float] = []

    def candidates(self, text: str, limit: int = 3) -> list[tuple[Question, float]]:
        return list(zip(self.questions, self.scores, strict=False))[:limit]


@pytest.fixture
def fixed() -> FixedMatcher:
    return FixedMatcher(
        [
            make_question("stab-a-001", prompt_en="Why is pre-LN more stable?", prompt_zh="为什么 pre-LN 更稳定？"),
            make_question("stab-b-001", prompt_en="How do you handle a loss spike?", prompt_zh="loss 尖刺怎么处理？"),
            make_question("pipe-c-001", prompt_en="What does ZeRO-3 shard?", prompt_zh="ZeRO-3 切分什么？"),
        ]
    )


@pytest.fixture
def svc(fixed: FixedMatcher, store: FakeStore) -> Service:
    bank = Bank(fixed.questions, fixed)
    return build_test_app(bank, grader=FakeGrader(), store=store, clock=FakeClock()).service


async def test_a_sure_match_is_taken_at_once(svc: Service, fixed: FixedMatcher, store: FakeStore) -> None:
    uid = await new_user(svc)
    await onboard(svc, uid)
    fixed.scores = [0.8, 0.6]
    r = await svc.handle_text(uid, "/review Acme | why is pre-LN more stable?")
    assert "graded with the rubric of the bank question “Why is pre-LN more stable?”" in r[0].text
    assert "stab-a-001" not in r[0].text  # named by its words, not a raw id
    (item,) = store.review_items.values()
    assert item.matched_bank and item.question_id == "stab-a-001"


async def test_a_sure_score_only_just_ahead_of_the_next_is_offered(
    svc: Service, fixed: FixedMatcher, store: FakeStore
) -> None:
    uid = await new_user(svc)
    await onboard(svc, uid)
    fixed.scores = [0.85, 0.83]  # both over the sure bar, 0.02 apart: the user picks
    r = await svc.handle_text(uid, "/review Acme | pre-LN or post-LN?")
    assert "as your own question for now" in r[0].text and r[0].actions()[:2] == ["rv:0", "rv:1"]
    fixed.scores = [0.85, 0.82]  # 0.03 ahead: taken at once
    r = await svc.handle_text(uid, "/review Acme | why is pre-LN more stable?")
    assert "graded with the rubric of the bank question" in r[0].text


async def test_an_unsure_match_is_logged_at_once_and_the_pick_relinks_it(
    svc: Service, fixed: FixedMatcher, store: FakeStore
) -> None:
    uid = await new_user(svc)
    await onboard(svc, uid)
    fixed.scores = [0.79, 0.55, 0.49]  # the third is under the bar: not offered
    r = await svc.handle_text(uid, "/review Acme | loss jumps, what now?")
    assert "as your own question for now" in r[0].text and "no close match" not in r[0].text
    assert r[0].actions() == ["rv:0", "rv:1", "rv:none"] and "How do you handle a loss spike?" in r[0].text
    (item,) = store.review_items.values()  # logged before the user answers: nothing waits on a button
    assert not item.matched_bank and item.subtopic == fixed.questions[0].subtopic
    personal_card = next(c for c in store.cards.values() if c.question_id == item.question_id)
    r = await svc.handle_action(uid, "rv:1")
    assert "graded with the rubric of the bank question" in r[0].text and "stab-b-001" not in r[0].text
    (item,) = store.review_items.values()
    assert item.matched_bank and item.question_id == "stab-b-001" and item.company == "Acme"
    bank_card = next(c for c in store.cards.values() if c.question_id == "stab-b-001")
    assert not bank_card.suspended and store.cards[personal_card.id].suspended
    r = await svc.handle_action(uid, "rv:0")  # a second press of a stale button changes nothing
    assert r[0].text == t("en", "flow.expired") and store.review_items[item.id].question_id == "stab-b-001"


async def test_a_typed_number_picks_from_the_questions_just_offered(
    svc: Service, fixed: FixedMatcher, store: FakeStore
) -> None:
    """On Telegram the offer is a list "1. ... 2. ..." with buttons; typing "2" is the second, as pressing it."""
    uid = await new_user(svc)
    await onboard(svc, uid)
    fixed.scores = [0.79, 0.55]
    await svc.handle_text(uid, "/review Acme | loss jumps, what now?")
    r = await svc.handle_text(uid, "3")  # not one of those offered: not a pick, and told what the offer waits for
    assert r[0].text == t("en", "waits.review_pick") and r[0].actions() == ["rv:0", "rv:1", "rv:none"]
    r = await svc.handle_text(uid, "2")
    assert r[0].text.startswith("Logged for Acme: your question, in your words, graded with the rubric")
    (item,) = store.review_items.values()
    assert item.matched_bank and item.question_id == "stab-b-001"


async def test_none_of_these_keeps_the_personal_question_under_the_nearest_subtopic(
    svc: Service, fixed: FixedMatcher, store: FakeStore
) -> None:
    uid = await new_user(svc)
    await onboard(svc, uid)
    fixed.scores = [0.6, 0.55]
    await svc.handle_text(uid, "/review Acme | something close but different")
    r = await svc.handle_action(uid, "rv:none")
    assert r[0].text == t("en", "review.kept_personal")
    (item,) = store.review_items.values()
    near = fixed.questions[0]
    assert not item.matched_bank and (item.topic, item.subtopic) == (near.topic, near.subtopic)
    assert not any(c.suspended for c in store.cards.values())


async def test_no_close_question_is_personal_under_the_nearest_subtopic_without_asking(
    svc: Service, fixed: FixedMatcher, store: FakeStore
) -> None:
    uid = await new_user(svc)
    await onboard(svc, uid)
    fixed.scores = [0.49, 0.3]
    r = await svc.handle_text(uid, "/review Acme | speculative decoding acceptance rate?")
    assert len(r) == 1 and "personal question" in r[0].text
    (item,) = store.review_items.values()
    assert not item.matched_bank and item.subtopic == fixed.questions[0].subtopic


async def test_a_relink_names_only_the_users_own_review_item(store: FakeStore) -> None:
    from bot.kernel.models import ReviewItem
    from tests.fakes import FakeClock as Clock

    now = Clock().now()
    mine = await store.add_review_item(
        ReviewItem(
            id=0,
            user_id=1,
            company="A",
            question_text="q",
            question_id="p1",
            matched_bank=False,
            topic="stability",
            subtopic="x",
            created_at=now,
        )
    )
    other = mine.model_copy(update={"user_id": 2, "question_id": "stab-b-001"})
    assert await store.relink_review_item(other) is False
    assert store.review_items[mine.id].question_id == "p1"


def test_the_names_a_question_asks_about_are_read_as_written() -> None:
    from bot.kernel.bank import named_terms

    assert named_terms("Why is Pre-LN more stable than Post-LN for LLMs on H100s, with FP16 and DeepNorm?") == {
        "preln", "postln", "h100", "fp16", "deepnorm"
    }  # fmt: skip
    assert named_terms("Why does warmup matter? Adam and the learning rate") == frozenset()  # capitals alone: no


async def test_a_name_the_question_asks_about_that_the_best_match_lacks_is_offered_not_linked(
    svc: Service, fixed: FixedMatcher, store: FakeStore
) -> None:
    uid = await new_user(svc)
    await onboard(svc, uid)
    fixed.scores = [0.9, 0.5]  # sure and far ahead, but the best asks about pre-LN only
    r = await svc.handle_text(uid, "/review Acme | why is pre-LN more stable than post-LN?")
    assert "as your own question for now" in r[0].text and r[0].actions()[0] == "rv:0"
    r = await svc.handle_text(uid, "/review Acme | why is Pre-LN more stable?")  # its names are all there
    assert "graded with the rubric of the bank question" in r[0].text
