"""Exports are complete (issue #36, item 6): the Markdown export shows each follow-up question with the answer
given to it and its grade. Through the terminal chat on a real SQLite file, and the rule for answers stored before
the follow-up question was kept with them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import build_app
from bot.features.account.export_markdown import asked_follow_ups, render
from bot.features.mock.models import MockFollowUp, MockItem, MockSession
from bot.kernel.bank import Bank
from bot.kernel.models import Attempt, Grade, Lang, User
from bot.platforms.console.chat import run_console
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for

FOLLOW_UP = "What threshold would you choose, and why?"  # the fake grader's follow-up


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_markdown_export_shows_each_follow_up_question_with_its_answer_and_grade(
    tmp_path: Path, bank: Bank, lang: Lang
) -> None:
    app = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=bank, fuzz=False)
    await app.service.user_for("console", "local", lang)
    script = ["/drill", "the main answer", "2", "clip at 1.0 after measuring the norm", "/export"]  # [2]: follow-up
    out = StringIO()
    try:
        await run_console(app.service, "local", StringIO("\n".join(script) + "\n"), out, tmp_path / "exports")
    finally:
        await app.close()
    (md,) = (tmp_path / "exports").glob("drill-answers-*.md")
    text = md.read_text(encoding="utf-8")
    follow_up = "**Follow-up:** " if lang == "en" else "**追问：**"
    head = "· follow-up · score 70/100 (Good)" if lang == "en" else "· 追问 · 得分 70/100（良好）"
    section = text[text.index(head) :]
    assert section.startswith(f"{head}\n\n{follow_up}{FOLLOW_UP}\n\n> clip at 1.0 after measuring the norm")
    assert text.index("> the main answer") < text.index(head)  # under its question, after the main answer


NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def attempt(n: int, card: int, follow_up: bool = False, asks: str | None = None, **more: object) -> Attempt:
    grade = Grade(score=60, dimensions={}, grader="fake", follow_up=asks)
    return Attempt(id=n, user_id=1, card_id=card, question_id=f"q{card}", answer=f"answer {n}", status="graded",
                   grade=grade, rating=2, is_follow_up=follow_up, created_at=NOW + timedelta(minutes=n), **more)  # type: ignore[arg-type]  # fmt: skip


def test_older_follow_up_answers_get_their_question_from_the_mock_or_the_answer_before_them() -> None:
    attempts = [
        attempt(1, card=7, asks="Why warmup?"),
        attempt(2, card=8, asks="Which norm?"),
        attempt(3, card=7, follow_up=True),  # the drill's: the follow-up of answer 1, the last main one on card 7
        attempt(4, card=9, asks="Ignored: the mock names what it asked"),
        attempt(5, card=9, follow_up=True),
        attempt(6, card=9, follow_up=True, follow_up_question="Stored with it"),
        attempt(7, card=10, follow_up=True),  # nothing before it: unknown, and said so
    ]
    asked_at = NOW + timedelta(minutes=4)
    fu = MockFollowUp(text="And with FP16?", parent=4, asked_at=asked_at, attempt_id=5)
    item = MockItem(question_id="q9", budget_seconds=180, attempt_id=4, follow_ups=[fu])
    mock = MockSession(id=1, user_id=1, focus="mixed", level="engineer", items=[item], created_at=NOW)
    assert asked_follow_ups(attempts, [mock]) == {3: "Why warmup?", 5: "And with FP16?"}
    user = User(id=1, language="en", timezone="UTC", created_at=NOW)
    (md,) = render(attempts, lambda qid: None, user, NOW, "x", None, [mock])
    text = md.data.decode("utf-8")
    assert "**Follow-up:** Why warmup?\n\n> answer 3" in text and "**Follow-up:** And with FP16?\n\n> answer 5" in text
    assert "**Follow-up:** Stored with it\n\n> answer 6" in text
    assert "**Follow-up:** (the question asked was not kept with this older answer)\n\n> answer 7" in text
