"""The rules of honest verdicts, pinned with literal numbers (bot/kernel/verdicts.py, non_answer.py, premise.py,
render.point_label)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.kernel.models import (
    Attempt,
    FollowUp,
    Grade,
    KeyPoint,
    KeyPointResult,
    Question,
    Rating,
    Rubric,
    Text,
    TextList,
)
from bot.kernel.non_answer import is_non_answer
from bot.kernel.premise import askable_indexes, stated
from bot.kernel.render import point_label
from bot.kernel.verdicts import (
    UNRATED,
    borderline,
    checklist_share,
    counted_score,
    is_estimate,
    suggested_rating,
)

NOW = datetime(2026, 12, 5, tzinfo=UTC)


def grade(coverage: int = 50, verdicts: str = "hmp", *, grader: str = "offline", **more: object) -> Grade:
    names = {"h": "hit", "p": "partial", "m": "missed"}
    points = [KeyPointResult(id=f"k{i}", verdict=names[v]) for i, v in enumerate(verdicts)]  # type: ignore[arg-type]
    fields: dict[str, object] = {"score": coverage, "dimensions": {"coverage": coverage}, "key_points": points}
    fields.update(grader=grader, **more)
    return Grade.model_validate(fields)


@pytest.mark.parametrize(
    ("coverage", "rating"),
    [(0, 1), (39, 1), (40, 2), (64, 2), (65, 3), (84, 3), (85, 4), (100, 4)],
)
def test_the_suggestion_follows_coverage_in_the_rating_bands(coverage: int, rating: int) -> None:
    assert suggested_rating(grade(coverage), {}) == Rating(rating)


def test_a_spotted_mistake_or_an_injection_makes_the_suggestion_again() -> None:
    assert suggested_rating(grade(95, mistakes=["says BF16 has fewer exponent bits"]), {}) == Rating.AGAIN
    assert suggested_rating(grade(95, injection=True), {}) == Rating.AGAIN
    assert suggested_rating(grade(95), {}) == Rating.EASY


def test_ticks_count_a_point_as_found_and_can_only_raise_the_suggestion() -> None:
    g = grade(30, "hmmm")  # weights 1 each: 1 of 4 found = 25
    assert checklist_share(g, {}) == 25
    assert checklist_share(g, {}, ["k1"]) == 50
    assert checklist_share(g, {"k0": 1, "k1": 3, "k2": 1, "k3": 1}, ["k1"]) == 67  # (1 + 3) / 6
    assert checklist_share(grade(30, "hpmm"), {}) == 38  # a partial point counts half: 1.5 / 4
    assert suggested_rating(g, {}) == Rating.AGAIN
    assert suggested_rating(g, {}, ["k1"]) == Rating.HARD
    assert suggested_rating(g, {}, ["k1", "k2", "k3"]) == Rating.EASY
    assert suggested_rating(grade(70, "hmmm"), {}, ["k1"]) == Rating.GOOD  # 50 < 70: coverage stands
    assert checklist_share(grade(30, ""), {}) == 0
    assert checklist_share(grade(30, "h"), {}) == 100 and checklist_share(grade(30, "hh"), {}) == 100


def test_without_a_coverage_figure_the_suggestion_follows_the_score() -> None:
    bare = Grade(score=90, dimensions={}, grader="offline")
    assert suggested_rating(bare, {}) == Rating.EASY
    assert suggested_rating(bare.model_copy(update={"score": 50}), {}) == Rating.HARD


def test_only_the_offline_grader_gives_estimates_and_unrated_is_again() -> None:
    assert is_estimate(grade(grader="offline")) and not is_estimate(grade(grader="llm:gpt-4o-mini"))
    assert UNRATED == Rating.AGAIN


def test_an_llm_grade_is_borderline_far_from_the_estimate_or_mostly_partial() -> None:
    assert not borderline(grade(70, "hhmm", grader="llm:x", offline_score=45))  # 25 apart
    assert borderline(grade(70, "hhmm", grader="llm:x", offline_score=44))  # 26 apart
    assert borderline(grade(20, "hhmm", grader="llm:x", offline_score=46))  # either way
    assert not borderline(grade(70, "hhmm", grader="llm:x"))  # no estimate beside it
    assert not borderline(grade(70, "ppmm", grader="llm:x"))  # half partial
    assert borderline(grade(70, "pppm", grader="llm:x"))  # most partial
    assert not borderline(grade(70, "pppm", grader="offline", offline_score=0))  # an estimate is never asked


def attempt(g: Grade | None, rating: int | None, by: str | None) -> Attempt:
    return Attempt(id=1, user_id=1, card_id=1, question_id="q", answer="a", grade=g, rating=rating,
                   rating_by=by, created_at=NOW)  # type: ignore[arg-type]  # fmt: skip


def test_stats_count_an_llm_score_or_the_users_own_rating_of_an_estimate() -> None:
    assert counted_score(attempt(grade(90, grader="llm:x"), 4, "grade")) == 90
    assert counted_score(attempt(grade(90), 1, "unrated")) is None  # an estimate is not a verdict
    assert [counted_score(attempt(grade(90), r, "user")) for r in (1, 2, 3, 4)] == [20, 52, 75, 92]
    assert counted_score(attempt(None, None, None)) is None


@pytest.mark.parametrize(
    "text",
    ["", "   ", "🤔🔥💯🚀", "???", "...", "idk", "IDK!", "I don't know", "I don’t know.", "no idea", "dunno",
     "不知道", "不知道。", "我不会", "不清楚……", "pass", "—", "🙃 🙃"],
)  # fmt: skip
def test_non_answers(text: str) -> None:
    assert is_non_answer(text)


@pytest.mark.parametrize(
    "text",
    ["2", "clip at 1.0", "I don't know the exact number, but I'd clip the global norm at 1.0", "BF16", "先查数据",
     "no warmup", "不知道具体数值，但会先查数据", "🤔 lower the LR"],
)  # fmt: skip
def test_answers_however_short(text: str) -> None:
    assert not is_non_answer(text)


def test_only_a_short_text_can_be_a_way_of_saying_idk_but_symbols_are_never_an_answer() -> None:
    assert not is_non_answer("idk " * 30)
    assert is_non_answer("I don't know" + "!" * 68)  # 80 characters
    assert not is_non_answer("I don't know" + "!" * 69)  # 81: an attempt, however it begins
    assert is_non_answer("🤔" * 500) and is_non_answer("?" * 81)


def test_a_premise_is_stated_by_a_whole_term_in_either_language() -> None:
    premise = TextList(en=["10 layers", "32K"], zh=["10 层"])
    assert stated(premise, "I checkpointed 10 layers of 32")
    assert stated(premise, "我只对10层做了 checkpoint")  # spaces ignored in Chinese
    assert stated(TextList(zh=["10层"]), "我只对 10 层做了 checkpoint")  # on either side
    assert stated(premise, "sequence length 32k")  # case folded
    assert not stated(premise, "I checkpointed 100 layers")  # not inside a longer number
    assert not stated(premise, "I checkpointed some layers")
    assert stated(TextList(), "anything")  # no premise: it stands on its own


def test_askable_follow_ups_keep_the_banks_order() -> None:
    q = Question(
        id="q", topic="pipeline", subtopic="s", type="case", level="engineer", difficulty=3,
        prompt=Text.same("Tell me about a time"), rubric=Rubric(), reference_answer=Text.same("ref"),
        follow_ups=[
            FollowUp(en="Why 10 layers?", zh="为什么 10 层？", premise=TextList(en=["10 layers"], zh=["10 层"])),
            FollowUp(en="How did you choose?", zh="你怎么选的？"),
        ],
    )  # fmt: skip
    assert askable_indexes(q, "I checkpointed 10 layers") == [0, 1]
    assert askable_indexes(q, "I checkpointed 8 layers") == [1]


def kp(en: str, zh: str = "要点") -> KeyPoint:
    return KeyPoint(id="k", weight=1, text=Text(en=en, zh=zh))


def test_a_point_label_is_never_cut_mid_sentence() -> None:
    long = (
        "Save the data position as a global consumed-samples count and the sampler's seed and epoch, so that a "
        "resume on another world size replays nothing"
    )
    label = point_label(kp(long), "en")
    assert label == "Save the data position as a global consumed-samples count and the sampler's seed…"
    assert point_label(kp("Check the data first: NaN/Inf, outliers"), "en") == "Check the data first"
    assert point_label(kp("Lesson: measure first"), "en") == "Lesson: measure first"  # the head alone says too little
    assert point_label(kp("Short point"), "en") == "Short point"
    zh = "按顺序行动：先全量 checkpoint 确认能跑、记录代价；再利用剩余显存只对部分层做 checkpoint；认识到有了 FlashAttention 后只重算注意力收益很小"
    assert point_label(kp("x", zh), "zh") == "按顺序行动"  # the head names it
    assert point_label(kp("x", zh.replace("：", "，")), "zh") == "按顺序行动，先全量 checkpoint 确认能跑、记录代价…"
    assert point_label(kp("x", "先测量再动手：用 memory snapshot"), "zh") == "先测量再动手"
    assert point_label(kp("Verify: rerun the batch"), "en") == "Verify: rerun the batch"  # a bare head says little
    cut = point_label(kp("Use a warmup of a few thousand steps and " + "then decay " * 10), "en", 40)
    assert cut == "Use a warmup of a few thousand steps…"  # never ends on "and"
