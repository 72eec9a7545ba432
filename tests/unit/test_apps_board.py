"""The board's rules: stage words in both languages, the next stage, a move kept in the history, the
board's numbers, and the text board's columns (closed stages summarised)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.features.apps.attach import Attached
from bot.features.apps.board import by_number, columns, days_since, move, next_number, next_stage, parse_stage
from bot.features.apps.view import board_data, board_text
from bot.features.career.models import Application, StageChange
from bot.kernel.models import InterviewLog

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def app(number: int, company: str, stage: str = "applied", round_: int = 0, days_ago: int = 1) -> Application:
    at = NOW - timedelta(days=days_ago)
    return Application(id=100 + number, user_id=1, company=company, role="LLM infra", stage=stage, round=round_,
                       number=number, history=[StageChange(stage=stage, round=round_, at=at)],  # type: ignore[arg-type]
                       created_at=at, updated_at=at)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("applied", ("applied", 0)),
        ("投递", ("applied", 0)),
        ("screen", ("screen", 0)),
        ("简历筛选", ("screen", 0)),
        ("technical 2", ("technical", 2)),
        ("Tech3", ("technical", 3)),
        ("一面", ("technical", 1)),
        ("二面", ("technical", 2)),
        ("HR面", ("hr", 0)),
        ("hr", ("hr", 0)),
        ("Offer", ("offer", 0)),
        ("拒", ("rejected", 0)),
        ("rejected", ("rejected", 0)),
        ("放弃", ("withdrawn", 0)),
        ("withdrawn", ("withdrawn", 0)),
    ],
)
def test_stage_words_in_both_languages(text: str, expected: tuple[str, int]) -> None:
    assert parse_stage(text) == expected


def test_garbage_and_impossible_rounds_are_no_stage() -> None:
    assert parse_stage("banana") is None
    assert parse_stage("") is None
    assert parse_stage("technical 0") is None and parse_stage("technical 12") is None
    assert parse_stage("offer 2") is None  # only technical rounds are numbered


def test_technical_alone_is_the_next_round() -> None:
    assert parse_stage("technical", app(1, "A", "screen")) == ("technical", 1)
    assert parse_stage("technical", app(1, "A", "technical", 2)) == ("technical", 3)


def test_next_stage_walks_the_pipeline_and_stops_when_closed() -> None:
    walk = [("applied", 0), ("screen", 0), ("technical", 1), ("technical", 2)]
    for (stage, round_), expected in zip(walk, [*walk[1:], ("technical", 3)], strict=True):
        assert next_stage(app(1, "A", stage, round_)) == expected
    assert next_stage(app(1, "A", "hr")) == ("offer", 0)
    for closed in ("offer", "rejected", "withdrawn"):
        assert next_stage(app(1, "A", closed)) is None


def test_a_move_is_kept_in_the_history_and_a_same_stage_move_is_none() -> None:
    a = app(1, "A", "screen", days_ago=4)
    moved = move(a, "technical", 1, NOW)
    assert moved is not None and (moved.stage, moved.round) == ("technical", 1)
    assert [(c.stage, c.round) for c in moved.history] == [("screen", 0), ("technical", 1)]
    assert moved.history[-1].at == NOW == moved.updated_at and days_since(moved, NOW) == 0
    assert days_since(a, NOW) == 4
    assert move(moved, "technical", 1, NOW) is None
    assert move(moved, "hr", 3, NOW).round == 0  # type: ignore[union-attr]  # a round only for technical


def test_numbers_are_kept_when_one_is_deleted() -> None:
    apps = [app(1, "A"), app(2, "B"), app(3, "C")]
    del apps[1]
    assert next_number(apps) == 4
    assert by_number(apps, 3) is apps[1] and by_number(apps, 2) is None


def test_the_text_board_has_a_column_per_open_stage_and_summarises_the_closed() -> None:
    apps = [app(1, "ByteDance", "technical", 2, days_ago=3), app(2, "Alibaba", "applied"), app(3, "Baidu", "rejected"),
            app(4, "Tencent", "offer"), app(5, "Moonshot", "withdrawn")]  # fmt: skip
    log = InterviewLog(id=1, user_id=1, company="ByteDance", at=NOW, created_at=NOW)
    text = board_text("en", apps, {101: Attached(interviews=[log])}, NOW)
    assert text.startswith("Application board: open 2, closed 3")
    lines = text.splitlines()
    tech = lines.index("Technical (1)")
    assert lines[tech + 1] == "  #1 ByteDance · LLM infra · Technical round 2 · 3 days · 1 interview"
    assert lines[lines.index("Screen (0)") + 1] == "  –"
    assert "Closed: Offer 1 (#4 Tencent), Rejected 1 (#3 Baidu), Withdrawn 1 (#5 Moonshot AI)" in text
    zh = board_text("zh", apps, {}, NOW)
    assert "第 2 轮技术面" in zh and "已结束：Offer 1（#4 腾讯）、未通过 1（#3 百度）" in zh
    assert [c.heading for c in board_data("en", apps, {}, NOW).columns] == [
        "Applied (1)", "Screen (0)", "Technical (1)", "HR (0)", "Closed (3)"]  # fmt: skip
    assert [len(v) for v in columns(apps).values()] == [1, 0, 1, 0, 3]
