"""Rules pinned at their edges, so a flipped threshold or condition fails a test (issue: honest contracts)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel import commands as c
from bot.kernel import srs
from bot.kernel.models import DIMENSIONS, Rating, User
from bot.kernel.parsing import parse_action
from bot.kernel.push_rules import in_quiet_hours
from bot.kernel.scoring import rating_from_score, total_score, weights_for
from tests.app import build_test_app

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("score", "rating"),
    [(0, Rating.AGAIN), (39, Rating.AGAIN), (40, Rating.HARD), (64, Rating.HARD), (65, Rating.GOOD),
     (84, Rating.GOOD), (85, Rating.EASY), (100, Rating.EASY)],
)  # fmt: skip
def test_rating_from_score_bands(score: int, rating: Rating) -> None:
    assert rating_from_score(score) == rating


@pytest.mark.parametrize("rating", [Rating.AGAIN, Rating.HARD, Rating.GOOD, Rating.EASY])
def test_every_review_schedules_in_days_not_minutes(rating: Rating) -> None:
    state, due = srs.review(srs.new_state(NOW), rating, NOW, 0.9, fuzz=False)
    assert due - NOW >= timedelta(hours=23)  # no minute-level learning steps for essay answers
    _, due2 = srs.review(state, Rating.AGAIN, due, 0.9, fuzz=False)  # a lapse relearns in days too
    assert due2 - due >= timedelta(hours=23)


def user(start: str | None, end: str | None, tz: str = "UTC") -> User:
    return User(id=1, created_at=NOW, timezone=tz, quiet_start=start, quiet_end=end)


@pytest.mark.parametrize(
    ("start", "end", "hour", "quiet"),
    [
        ("23:00", "08:00", 2, True),  # a window that wraps midnight holds after midnight
        ("23:00", "08:00", 23, True),
        ("23:00", "08:00", 8, False),  # the end is not quiet
        ("23:00", "08:00", 12, False),
        ("13:00", "15:00", 14, True),
        ("13:00", "15:00", 2, False),
        (None, None, 2, False),
    ],
)
def test_quiet_hours(start: str | None, end: str | None, hour: int, quiet: bool) -> None:
    assert in_quiet_hours(user(start, end), NOW.replace(hour=hour)) is quiet


def test_quiet_hours_are_the_users_local_time() -> None:
    # 02:00 in Shanghai is 18:00 UTC the day before
    assert in_quiet_hours(user("23:00", "08:00", "Asia/Shanghai"), datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    assert not in_quiet_hours(user("23:00", "08:00", "Asia/Shanghai"), datetime(2026, 3, 2, 4, 0, tzinfo=UTC))


@pytest.mark.parametrize("action", ["ref:99999999999999999999999", "fu:99999999999999999999999", "rv:9" * 30])
def test_a_huge_number_in_a_button_is_refused_not_raised(action: str) -> None:
    cmd = parse_action(1, action)
    assert isinstance(cmd, c.Invalid)


def test_a_rating_override_with_a_huge_attempt_id_is_refused() -> None:
    assert isinstance(parse_action(1, "rate:99999999999999999999999:3"), c.Invalid)
    assert parse_action(1, "rate:12:3") == c.OverrideRating(1, 12, 3)


async def test_nul_and_control_characters_are_removed_at_the_edge() -> None:
    from bot.kernel.bank import Bank
    from bot.kernel.service import clean_text
    from tests.conftest import make_question
    from tests.fakes import FakeClock, FakeGrader, FakeStore

    assert clean_text("a\x00b\x1bc\td\ne") == "abc\td\ne"
    store = FakeStore()
    svc = build_test_app(Bank([make_question("pipe-a-001")]), grader=FakeGrader(), store=store, clock=FakeClock()).service  # fmt: skip
    uid = (await svc.user_for("test", "nul")).id
    await svc.handle_text(uid, "/review Acme\x00 | What does ZeRO\x00-3 shard? | I said\x07 params")
    from bot.kernel import commands as cmds

    await svc.handle(cmds.LogReview(uid, "Beta\x00", "How is ZeRO-3\x00 sharded?", ""))  # as Discord builds it
    items = list(store.review_items.values())
    assert len(items) == 2
    for item in items:
        assert "\x00" not in item.company + item.question_text + item.answer_text and "\x07" not in item.answer_text


def test_a_new_card_is_due_now_and_the_same_on_every_call() -> None:
    state = srs.new_state(NOW)
    assert state == srs.new_state(NOW) and state["card_id"] == 0  # no id derived from the wall clock
    assert datetime.fromisoformat(state["due"]) == NOW and state["last_review"] is None


def test_a_lower_desired_retention_gives_a_longer_interval() -> None:
    _, strict = srs.review(srs.new_state(NOW), Rating.GOOD, NOW, 0.95, False)
    _, relaxed = srs.review(srs.new_state(NOW), Rating.GOOD, NOW, 0.80, False)
    assert relaxed > strict > NOW


def test_fuzz_spreads_due_dates_and_no_fuzz_repeats_them() -> None:
    state = srs.new_state(NOW)
    for _ in range(4):  # a few Easy reviews: an interval of weeks, where fsrs fuzzes by days
        state, _ = srs.review(state, Rating.EASY, datetime.fromisoformat(state["due"]), 0.9, False)
    at = datetime.fromisoformat(state["due"])
    assert len({srs.review(state, Rating.GOOD, at, 0.9, False)[1] for _ in range(10)}) == 1
    assert len({srs.review(state, Rating.GOOD, at, 0.9, True)[1] for _ in range(30)}) > 1


def test_retrievability_is_zero_before_any_review_and_falls_with_time() -> None:
    assert srs.retrievability(srs.new_state(NOW), NOW, 0.9) == 0.0
    state, _ = srs.review(srs.new_state(NOW), Rating.GOOD, NOW, 0.9, False)
    now, week, month = (srs.retrievability(state, NOW + timedelta(days=d), 0.9) for d in (0, 7, 30))
    assert now > 0.99 and 0.5 < week < now and month < week


def test_dimension_weights_take_only_known_dimensions_from_an_override() -> None:
    w = weights_for("concept", {"coverage": 0.9, "bogus": 5.0})
    assert w["coverage"] == 0.9 and "bogus" not in w and w["correctness"] == 0.30


@pytest.mark.parametrize(
    ("dimensions", "override", "total"),
    [
        ({d: 0 for d in DIMENSIONS}, None, 0),
        ({d: -20 for d in DIMENSIONS}, None, 0),  # each dimension clamped to 0-100
        ({d: 100 for d in DIMENSIONS}, None, 100),
        ({"coverage": 100}, None, 45),  # a missing dimension counts 0 (concept: coverage weighs 0.45)
        ({"coverage": 100}, {"coverage": 1.45}, 72),  # weights that do not sum to 1 are normalised: 145/2
        ({"coverage": 200, "structure": 1}, {"coverage": 1.0, "structure": 1.0, "specificity": 0.0,
                                              "correctness": 0.0}, 50),  # 200 counts as 100: (100 + 1) / 2
    ],
)  # fmt: skip
def test_total_score_is_the_clamped_weighted_mean(
    dimensions: dict[str, float], override: dict[str, float] | None, total: int
) -> None:
    assert total_score(dimensions, "concept", override) == total
