"""Rules pinned at their edges, so a flipped threshold or condition fails a test (issue: honest contracts)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core import commands as c
from bot.core import srs
from bot.core.models import Rating, User
from bot.core.parsing import parse_action
from bot.core.push_rules import in_quiet_hours
from bot.core.scoring import rating_from_score

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
    state, due = srs.review(srs.new_state(NOW), rating, NOW, fuzz=False)
    assert due - NOW >= timedelta(hours=23)  # no minute-level learning steps for essay answers
    _, due2 = srs.review(state, Rating.AGAIN, due, fuzz=False)  # a lapse relearns in days too
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
    from bot.core.bank import Bank
    from bot.core.deps import Deps, Limits
    from bot.core.service import Service, clean_text
    from tests.conftest import make_question
    from tests.fakes import FakeClock, FakeGrader, FakeStore

    assert clean_text("a\x00b\x1bc\td\ne") == "abc\td\ne"
    store = FakeStore()
    svc = Service(Deps(store=store, bank=Bank([make_question("pipe-a-001")]), grader=FakeGrader(),
                       clock=FakeClock(), limits=Limits(fuzz=False)))  # fmt: skip
    uid = (await svc.user_for("test", "nul")).id
    await svc.handle_text(uid, "/review Acme\x00 | What does ZeRO\x00-3 shard? | I said\x07 params")
    from bot.core import commands as cmds

    await svc.handle(cmds.LogReview(uid, "Beta\x00", "How is ZeRO-3\x00 sharded?", ""))  # as Discord builds it
    items = list(store.review_items.values())
    assert len(items) == 2
    for item in items:
        assert "\x00" not in item.company + item.question_text + item.answer_text and "\x07" not in item.answer_text
