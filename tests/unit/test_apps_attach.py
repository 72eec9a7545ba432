"""Which application an interview or a /review question belongs to: the same company through the alias
table, the application created most recently before it (the earliest when none was), and the stage the
application was at when a question was asked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.features.apps.attach import ASKED_WITHIN, asked_at, attach_all, owner, stage_at
from bot.features.career.models import Application, StageChange
from bot.kernel.models import InterviewLog, ReviewItem

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def app(app_id: int, company: str, days: float, *moves: tuple[str, int, float]) -> Application:
    created = T0 + timedelta(days=days)
    history = [StageChange(stage="applied", at=created)]
    history += [StageChange(stage=s, round=r, at=T0 + timedelta(days=d)) for s, r, d in moves]  # type: ignore[arg-type]
    last = history[-1]
    return Application(id=app_id, user_id=1, company=company, stage=last.stage, round=last.round, history=history,
                       created_at=created, updated_at=last.at)  # fmt: skip


def interview(log_id: int, company: str, days: float) -> InterviewLog:
    at = T0 + timedelta(days=days)
    return InterviewLog(id=log_id, user_id=1, company=company, at=at, created_at=at)


def item(item_id: int, company: str, days: float, subtopic: str = "nan-loss") -> ReviewItem:
    return ReviewItem(id=item_id, user_id=1, company=company, question_text="?", question_id="q", matched_bank=True,
                      topic="stability", subtopic=subtopic, created_at=T0 + timedelta(days=days))  # fmt: skip


def test_an_alias_attaches_to_the_company_in_any_language() -> None:
    apps = [app(1, "ByteDance", 0), app(2, "阿里巴巴", 0)]
    assert owner(apps, "字节", T0 + timedelta(days=1)) is apps[0]
    assert owner(apps, "Alibaba Cloud", T0 + timedelta(days=1)) is apps[1]
    assert owner(apps, "Tencent", T0 + timedelta(days=1)) is None


def test_the_application_created_most_recently_before_it_takes_it() -> None:
    first, second = app(1, "ByteDance", 0), app(2, "字节跳动", 30)
    apps = [second, first]  # any order in
    assert owner(apps, "字节", T0 + timedelta(days=10)) is first
    assert owner(apps, "字节", T0 + timedelta(days=30)) is second  # created at that very moment: before it
    assert owner(apps, "字节", T0 + timedelta(days=40)) is second
    assert owner(apps, "字节", T0 - timedelta(days=5)) is first  # before both: the earliest


def test_attach_all_splits_interviews_and_questions_between_applications() -> None:
    first, second, other = app(1, "Meta", 0), app(2, "Facebook", 30), app(3, "Google", 0)
    logs = [interview(1, "Meta", 5), interview(2, "FAIR", 35), interview(3, "Amazon", 5)]
    items = [item(1, "meta", 6), item(2, "脸书", 36), item(3, "Google DeepMind", 2)]
    found = attach_all([first, second, other], logs, items)
    assert [x.id for x in found[1].interviews] == [1] and [x.id for x in found[1].items] == [1]
    assert [x.id for x in found[2].interviews] == [2] and [x.id for x in found[2].items] == [2]
    assert [x.id for x in found[3].items] == [3]
    assert all(x.id != 3 for f in found.values() for x in f.interviews)  # Amazon: no application


def test_the_stage_at_a_time_comes_from_the_history() -> None:
    a = app(1, "Baidu", 0, ("screen", 0, 2), ("technical", 1, 5), ("technical", 2, 9))
    assert stage_at(a, T0 + timedelta(days=1)) == ("applied", 0)
    assert stage_at(a, T0 + timedelta(days=6)) == ("technical", 1)
    assert stage_at(a, T0 + timedelta(days=9)) == ("technical", 2)
    assert stage_at(a, T0 - timedelta(days=1)) == ("applied", 0)  # before it was created: its first stage


def test_a_question_logged_after_an_interview_was_asked_at_that_interview() -> None:
    logs = [interview(1, "Baidu", 5), interview(2, "Baidu", 9)]
    assert asked_at(item(1, "Baidu", 10), logs) == T0 + timedelta(days=9)
    assert asked_at(item(1, "Baidu", 6), logs) == T0 + timedelta(days=5)
    late = item(1, "Baidu", 9 + ASKED_WITHIN.days + 1)
    assert asked_at(late, logs) == late.created_at  # too long after any interview: when it was logged


@pytest.mark.parametrize(
    ("interviews", "logged", "expected"),
    [
        ([5], 5 + ASKED_WITHIN.days, 5),  # exactly ASKED_WITHIN after the interview: still asked there
        ([5, 10], 10, 10),  # logged at the very moment of an interview: asked in that one, not the one before
    ],
    ids=["at-the-window-edge", "at-the-interview-moment"],
)
def test_the_asked_within_window_includes_both_ends(interviews: list[float], logged: float, expected: float) -> None:
    logs = [interview(n, "Baidu", d) for n, d in enumerate(interviews, start=1)]
    assert asked_at(item(1, "Baidu", logged), logs) == T0 + timedelta(days=expected)
