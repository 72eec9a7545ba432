"""/export's Markdown of the user's answers: grouped by question, in the user's language, split to fit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.features.account.export_markdown import render
from bot.kernel.models import Attempt, Grade, Question, User
from tests.conftest import make_question

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
QUESTIONS = {q.id: q for q in (make_question("pipe-a-001"), make_question("pipe-b-001"))}


def attempt(n: int, qid: str, answer: str, **update: object) -> Attempt:
    values: dict[str, object] = {
        "id": n, "user_id": 1, "card_id": 1, "question_id": qid, "answer": answer, "status": "graded",
        "grade": Grade(score=72, dimensions={}, grader="fake"), "rating": 3,
        "created_at": NOW - timedelta(days=10 - n),
    }  # fmt: skip
    return Attempt.model_validate(values | update)


def question(qid: str) -> Question | None:
    return QUESTIONS.get(qid)


def user(lang: str = "en") -> User:
    return User(id=1, language=lang, timezone="Asia/Shanghai", created_at=NOW)  # type: ignore[arg-type]


ATTEMPTS = [
    attempt(1, "pipe-a-001", "first try\nsecond line"),
    attempt(2, "pipe-b-001", "about b"),
    attempt(3, "pipe-a-001", "", status="revealed", grade=None, rating=1),
    attempt(4, "pipe-a-001", "a follow-up answer", is_follow_up=True),
    attempt(5, "gone-001", "kept though its question left the bank", status="regrade", grade=None, rating=None),
]


def test_answers_are_grouped_by_question_oldest_first_with_date_and_score() -> None:
    (md,) = render(ATTEMPTS, question, user(), NOW, "drill-answers-x", None)
    assert md.filename == "drill-answers-x.md" and md.mime == "text/markdown"
    text = md.data.decode("utf-8")
    assert text.startswith("# My interview drill answers (5 answers to 3 questions, exported 2026-03-02 17:00)")
    a, b, gone = text.index("## Question pipe-a-001?"), text.index("## Question pipe-b-001?"), text.index("## gone-001")
    assert a < b < gone and text.count("## Question pipe-a-001?") == 1
    section_a = text[a:b]
    assert "### 2026-02-21 17:00 · score 72/100 (Good)\n\n> first try\n> second line" in section_a
    assert "reference answer shown (Again)" in section_a and "(no answer)" in section_a
    assert "### 2026-02-24 17:00 · follow-up · score 72/100 (Good)" in section_a
    assert "not graded yet" in text[gone:]


def test_the_markdown_is_in_the_users_language() -> None:
    (md,) = render(ATTEMPTS[:2], question, user("zh"), NOW, "x", None)
    text = md.data.decode("utf-8")
    assert text.startswith("# 我的面试练习作答记录（2 道题，2 次作答，导出于 2026-03-02 17:00）")
    assert "## 问题 pipe-a-001" in text and "得分 72/100（良好）" in text


def test_over_the_limit_it_comes_in_parts_that_each_fit_and_name_the_question_again() -> None:
    many = [attempt(n, "pipe-a-001" if n < 30 else "pipe-b-001", f"answer {n} " + "x" * 900) for n in range(40)]
    (whole,) = render(many, question, user(), NOW, "a", None)
    limit = len(whole.data) // 3
    parts = render(many, question, user(), NOW, "a", limit)
    assert len(parts) >= 3 and all(len(p.data) <= limit for p in parts)
    assert [p.filename for p in parts] == [f"a-part{k}of{len(parts)}.md" for k in range(1, len(parts) + 1)]
    texts = [p.data.decode("utf-8") for p in parts]
    assert all(f"({k}/{len(parts)})" in x.splitlines()[0] for k, x in enumerate(texts, 1))
    assert "## Question pipe-a-001? (continued)" in texts[1]  # the question goes on in the next part
    found = [line for x in texts for line in x.splitlines() if line.startswith("> answer ")]
    assert [line.split()[2] for line in found] == [str(n) for n in range(40)]  # every answer once, in order


def test_an_offline_check_shows_what_it_found_and_the_users_rating_never_a_score() -> None:
    from bot.kernel.models import KeyPointResult

    checked = Grade(score=88, dimensions={"coverage": 80}, grader="offline", key_points=[
        KeyPointResult(id="k0", verdict="hit"), KeyPointResult(id="k1", verdict="missed"),
        KeyPointResult(id="k2", verdict="missed"),
    ])  # fmt: skip
    rows = [
        attempt(1, "pipe-a-001", "unrated", grade=checked, rating=1, rating_by="unrated"),
        attempt(2, "pipe-a-001", "rated", grade=checked, rating=3, rating_by="user", ticked=["k1"]),
    ]
    text = render(rows, question, user(), NOW, "x", None)[0].data.decode("utf-8")
    assert "offline check: key points found 1/3; not rated by you yet" in text
    assert "offline check: key points found 2/3; your rating Good" in text  # the ticked point counts
    assert "88" not in text and "score" not in text
    zh = render(rows[1:], question, user("zh"), NOW, "x", None)[0].data.decode("utf-8")
    assert "离线检查：找到 2/3 个要点；你的评级：良好" in zh


def test_a_disagreement_with_the_grader_shows_both() -> None:
    rows = [attempt(1, "pipe-a-001", "mine", rating=2, rating_by="user"), attempt(2, "pipe-b-001", "same", rating=3,
                                                                                rating_by="user")]  # fmt: skip
    text = render(rows, question, user(), NOW, "x", None)[0].data.decode("utf-8")
    assert "score 72/100 (Good); you disagreed: Hard" in text
    assert "score 72/100 (Good)\n" in text  # agreeing with the grader is no disagreement
