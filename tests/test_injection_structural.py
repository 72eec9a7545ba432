"""The structural defence against prompt injection (issue #34, Medium 3).

(a) A key point credited by the LLM needs a quote that states that point: a span of the answer that shares the
point's own terms (weighted by their rarity in the bank, the question's words left out), not any substring.
"""

from __future__ import annotations

import pytest

from bot.grading.llm_reply import PointVerdict, Reply
from bot.grading.llm_verdicts import STATE_WEIGHT, checked_verdicts, evidence, point_terms, states
from bot.grading.term_weights import bank_weights
from bot.kernel.models import Question
from tests.conftest import example_question


@pytest.fixture(scope="module")
def example() -> Question:
    return example_question()


def reply(quotes: dict[str, str]) -> Reply:
    return Reply(
        points=tuple(PointVerdict(pid, "hit", quote) for pid, quote in quotes.items()),
        mistakes=(),
        levels={"structure": "strong", "specificity": "strong", "evidence": "strong"},
        feedback="Excellent, complete answer.",
        follow_up="f1",
        follow_up_points=(),
        follow_up_reference="",
    )


WEAK = "I would restart the job from the beginning and hope the problem goes away. The loss should come back."


def test_any_substring_of_the_answer_is_no_longer_evidence(example: Question) -> None:
    """What an obeying model does: every point hit, quoting whatever the answer holds. Each quote is the answer's
    own words (the old check took that as evidence); none states its point."""
    ids = [k.id for k in example.rubric.key_points]
    quotes = {pid: q for pid, q in zip(ids, ["restart the job", "from the beginning", "hope the problem goes away",
                                             "The loss should come back", "I would restart", "the problem"],
                                       strict=True)}  # fmt: skip
    assert checked_verdicts(reply(quotes), WEAK) == {pid: ("hit", q) for pid, q in quotes.items()}  # (no terms)
    terms = point_terms(example.rubric.key_points, example, bank_weights())
    assert {v for v, _ in checked_verdicts(reply(quotes), WEAK, terms).values()} == {"missed"}


ANSWER_EN = (
    "First I find the batch that produced the NaN and check it for out-of-range token ids. "
    "Then I log per-layer gradient norms and run anomaly detection to locate the first op that blows up. "
    "If it is FP16 overflow I switch to BF16 and keep FP32 master weights."
)
ANSWER_ZH = "先找出产生 NaN 的那个 batch，检查有没有越界的 token id。然后用 anomaly detection 定位最先溢出的层。"


@pytest.mark.parametrize(
    ("answer", "point", "quote"),
    [
        (ANSWER_EN, "data", "the batch that produced the NaN and check it for out-of-range token ids"),
        (ANSWER_EN, "locate", "per-layer gradient norms and run anomaly detection"),
        (ANSWER_EN, "precision", "switch to BF16 and keep FP32 master weights"),
        (ANSWER_ZH, "data", "检查有没有越界的 token id"),
        (ANSWER_ZH, "locate", "用 anomaly detection 定位最先溢出的层"),
        # cut where a model's quote is cut (60 characters): the sentence it comes from states the point
        (ANSWER_EN, "precision", "If it is FP16 overflow I switch to"),
    ],
)
def test_a_quote_that_states_its_point_keeps_the_hit(example: Question, answer: str, point: str, quote: str) -> None:
    terms = point_terms(example.rubric.key_points, example, bank_weights())
    assert checked_verdicts(reply({point: quote}), answer, terms)[point] == ("hit", quote)


def test_a_quote_of_the_questions_own_words_states_nothing(example: Question) -> None:
    answer = "The loss suddenly becomes NaN midway through training a large model, so I debug it in order."
    terms = point_terms(example.rubric.key_points, example, bank_weights())
    for point in ("data", "locate", "optimizer"):
        assert checked_verdicts(reply({point: "the loss suddenly becomes NaN midway through"}), answer, terms)[
            point
        ] == ("missed", "")


def test_the_evidence_is_the_sentence_the_quote_was_cut_from() -> None:
    answer = "One. Then I log per-layer gradient norms and run anomaly detection. Two."
    assert (
        evidence("Then I log per-layer gra", answer)
        == " Then I log per-layer gradient norms and run anomaly detection."
    )
    assert evidence("not in it at all", answer) == "not in it at all"


def test_states_weighs_the_shared_terms() -> None:
    rare = ({"detect_anomaly": 1.0, "hook": 0.7},)
    common = ({"model": 0.1, "train": 0.1, "data": 0.36},)
    assert STATE_WEIGHT == 1.0  # pinned: the rule below is written for one rare term's worth
    assert states("use detect_anomaly", rare)  # one rare term: 1.0
    assert not states("register a hook", rare)  # 0.7 of the needed 1.0
    assert states("train the model on clean data", common)  # all of a point that weighs 0.56 in all (half: 0.28)
    assert not states("train the model", common)  # 0.2 of the needed 0.28
    assert states("anything", ({}, {}))  # a point made only of the question's words cannot be checked
