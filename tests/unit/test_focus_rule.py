"""The job-description focus rule (bot/features/jd/focus.py) on its own: which new question each turn takes, with
and without a focus, and where the level keeps a focus question in its place."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.features.career.models import JobDescription
from bot.features.jd import focus
from bot.kernel.models import Question
from tests.conftest import make_question


def q(qid: str, subtopic: str, level: str = "engineer") -> Question:
    return make_question(qid, level=level).model_copy(update={"subtopic": subtopic})


OTHERS = [q(f"o{i}", "optimizers") for i in range(1, 5)]
FOCUS = [q(f"f{i}", "rlhf") for i in range(1, 5)]
BANK_ORDER = OTHERS + FOCUS  # as new_candidates gives them: the focus ones last


def ids(questions: list[Question]) -> list[str]:
    return [x.id for x in questions]


def test_without_a_focus_the_candidates_keep_their_order() -> None:
    assert ids(focus.weighted(BANK_ORDER, (), "engineer")) == ids(BANK_ORDER)
    assert ids(focus.weighted(BANK_ORDER, ("no-such-subtopic",), "engineer")) == ids(BANK_ORDER)


def test_three_of_every_four_turns_take_a_focus_question_and_the_rest_still_appear() -> None:
    ordered = focus.weighted(BANK_ORDER, ("rlhf",), "engineer")
    assert ids(ordered) == ["f1", "f2", "f3", "o1", "f4", "o2", "o3", "o4"]
    assert sorted(ids(ordered)) == sorted(ids(BANK_ORDER))  # a weighting: nothing is dropped


def test_the_turn_counts_from_the_questions_already_introduced() -> None:
    assert ids(focus.weighted(BANK_ORDER, ("rlhf",), "engineer", turn=3))[:2] == ["o1", "f1"]
    assert ids(focus.weighted(BANK_ORDER, ("rlhf",), "engineer", turn=4))[:2] == ["f1", "f2"]
    assert [focus.is_focus_turn(n) for n in range(8)] == [True, True, True, False] * 2


def test_the_strongest_subtopic_leads_among_focus_questions_of_one_level() -> None:
    mixed = [q("a", "memory"), q("b", "rlhf"), q("c", "optimizers"), q("d", "memory")]
    assert ids(focus.weighted(mixed, ("memory", "rlhf"), "engineer")) == ["a", "d", "b", "c"]
    assert ids(focus.weighted(mixed, ("rlhf", "memory"), "engineer")) == ["b", "a", "d", "c"]


def test_a_focus_question_two_levels_away_keeps_its_usual_place() -> None:
    near = q("near", "rlhf", "engineer")
    far = q("far", "rlhf", "researcher")
    campus = [q("c1", "optimizers", "campus"), q("c2", "optimizers", "campus"), near, far]
    assert ids(focus.weighted(campus, ("rlhf",), "campus")) == ["near", "c1", "c2", "far"]
    # the same questions for an engineer: both are within reach, the nearer level first
    engineer = [near, q("e1", "optimizers"), far]
    assert ids(focus.weighted(engineer, ("rlhf",), "engineer")) == ["near", "far", "e1"]


def test_the_users_own_level_leads_a_level_below_it_among_focus_questions() -> None:
    below = q("below", "rlhf", "campus")  # first in the bank's order, one level from an engineer's
    own = q("own", "rlhf", "engineer")
    assert ids(focus.weighted([below, own], ("rlhf",), "engineer")) == ["own", "below"]


def test_the_focus_subtopics_are_the_active_job_descriptions() -> None:
    jd = JobDescription(user_id=1, text="x", subtopics=["rlhf", "memory"], created_at=datetime(2026, 3, 1, tzinfo=UTC))
    assert focus.subtopics(jd) == ("rlhf", "memory")
    assert focus.subtopics(None) == ()
