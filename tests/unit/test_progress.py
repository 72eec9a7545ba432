"""Progress figures (/stats) from deterministic histories: streaks, weekly means, mastery, interviews."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from statistics import fmean

import fsrs
import pytest

from bot.features.deps import Deps
from bot.features.stats.progress import compute_progress, due_forecast, streaks
from bot.features.stats.report import progress_text
from bot.kernel import srs
from bot.kernel.bank import Bank
from bot.kernel.models import DIMENSIONS, Attempt, Card, Grade, InterviewLog, Question, ReviewItem, User
from bot.kernel.service import Service
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeChartRenderer, FakeClock, FakeGrader, FakeStore

NOW = datetime(2026, 3, 10, 4, 0, tzinfo=UTC)  # 12:00 on 10 March in Shanghai
SHANGHAI = User(id=1, timezone="Asia/Shanghai", created_at=NOW)


def q(qid: str, topic: str = "stability", subtopic: str = "nan-loss") -> Question:
    return make_question(qid, topic=topic).model_copy(update={"subtopic": subtopic})


def attempt(at: datetime, qid: str = "s1", score: int | None = 70, grader: str = "llm:test", **kw: object) -> Attempt:
    grade = None if score is None else Grade(score=score, dimensions={d: score for d in DIMENSIONS}, grader=grader)
    status = "graded" if score is not None else "revealed"
    return Attempt(id=0, user_id=1, card_id=1, question_id=qid, answer="a", status=status, grade=grade,
                   created_at=at, **kw)  # type: ignore[arg-type]  # fmt: skip


def card(qid: str, stability: float | None = None, reviewed_days_ago: float | None = None, **kw: object) -> Card:
    state = srs.new_state(NOW)
    if stability is not None and reviewed_days_ago is not None:
        last = NOW - timedelta(days=reviewed_days_ago)
        state |= {"state": 2, "stability": stability, "difficulty": 5.0, "last_review": last.isoformat()}
    fields: dict[str, object] = {"due": NOW + timedelta(days=3), "created_at": NOW - timedelta(days=30), **kw}
    return Card(id=0, user_id=1, question_id=qid, fsrs=state, **fields)  # type: ignore[arg-type]


QUESTIONS: dict[str, Question | None] = {
    "s1": q("s1"),
    "s2": q("s2"),
    "s3": q("s3", subtopic="mixed-precision"),
    "p1": q("p1", topic="pipeline", subtopic="lora"),
}


# --- streaks ---------------------------------------------------------------------------------------


def test_streak_counts_local_days_across_midnight_and_breaks_on_a_missed_day() -> None:
    # 15:30 UTC is 23:30 in Shanghai, 16:30 UTC is 00:30 the next day: one hour apart, two local days.
    history = [
        attempt(datetime(2026, 3, 4, 15, 30, tzinfo=UTC)),  # 4 March local
        attempt(datetime(2026, 3, 4, 16, 30, tzinfo=UTC)),  # 5 March local
        attempt(datetime(2026, 3, 5, 16, 30, tzinfo=UTC)),  # 6 March local
        # 7 and 8 March local: missed
        attempt(datetime(2026, 3, 9, 1, 0, tzinfo=UTC)),  # 9 March local
        attempt(datetime(2026, 3, 10, 1, 0, tzinfo=UTC)),  # 10 March local (today)
    ]
    data = compute_progress(SHANGHAI, NOW, history, [], QUESTIONS)
    assert (data.streak, data.best_streak) == (2, 3)
    assert data.today.isoformat() == "2026-03-10"
    # Counted in UTC the same instants fall on 4, 4, 5, 9 and 10 March: no run of three.
    utc = compute_progress(SHANGHAI.model_copy(update={"timezone": "UTC"}), NOW, history, [], QUESTIONS)
    assert (utc.streak, utc.best_streak) == (2, 2)


def test_streak_survives_until_the_end_of_the_next_local_day() -> None:
    days = {NOW.date() - timedelta(days=i) for i in (1, 2)}
    assert streaks(days, NOW.date()) == (2, 2)  # nothing yet today: yesterday's streak still stands
    assert streaks(days, NOW.date() + timedelta(days=1)) == (0, 2)  # a whole day missed


async def test_streak_through_the_service_with_an_injected_clock() -> None:
    clock = FakeClock(datetime(2026, 3, 2, 15, 50, tzinfo=UTC))  # 23:50 in Shanghai
    store = FakeStore()
    bank = Bank([make_question(f"pipe-{i}") for i in range(6)])
    service = build_test_app(bank, grader=FakeGrader(), store=store, clock=clock).service
    user = await service.user_for("test", "u1")
    await store.save_user(user.model_copy(update={"timezone": "Asia/Shanghai", "onboarded": True, "new_per_day": 9}))

    async def answer() -> None:
        await service.handle_text(user.id, "/drill")
        await service.handle_text(user.id, "an answer")

    await answer()  # 2 March local
    clock.advance(minutes=20)
    await answer()  # 00:10 on 3 March local
    clock.advance(days=2)
    await answer()  # 5 March local: 4 March was missed
    r = await service.handle_text(user.id, "/stats")
    assert "streak: 1 day (best 2 days)" in r[0].text
    assert "reviews: 3 in all" in r[0].text


# --- weekly figures, daily counts, forecast --------------------------------------------------------


def test_this_week_against_last_week_in_local_days() -> None:
    history = [
        attempt(NOW - timedelta(days=10), score=50),
        attempt(NOW - timedelta(days=8), score=60),
        attempt(NOW - timedelta(days=2), score=80),
        attempt(NOW - timedelta(hours=1), score=90),
        attempt(NOW - timedelta(hours=2), score=None),  # revealed: a review without a score
        attempt(NOW - timedelta(hours=3), score=10, is_follow_up=True),  # follow-ups are not reviews
    ]
    data = compute_progress(SHANGHAI, NOW, history, [], QUESTIONS)
    assert data.total_reviews == 5 and data.week_reviews == 3
    assert (data.week_mean, data.last_week_mean) == (85, 55)
    assert data.daily[-1] == (data.today, 2) and len(data.daily) == 30
    assert sum(n for _, n in data.daily) == 5
    # Weekly means run Monday to Sunday (10 March 2026 is a Tuesday).
    assert [(w.week_start.isoformat(), w.mean, w.answers) for w in data.trend] == [
        ("2026-02-23", 50, 1),
        ("2026-03-02", 70, 2),
        ("2026-03-09", 90, 1),
    ]


def test_due_forecast_puts_overdue_cards_on_today_and_skips_suspended() -> None:
    cards = [
        card("s1", due=NOW - timedelta(days=5)),  # overdue
        card("s2", due=NOW + timedelta(hours=2)),  # later today
        card("s3", due=NOW + timedelta(days=1)),
        card("p1", due=NOW + timedelta(days=13)),
        card("x1", due=NOW + timedelta(days=20)),  # beyond the window
        card("x2", due=NOW, suspended=True),
    ]
    forecast = due_forecast(cards, NOW.date(), "Asia/Shanghai")
    assert len(forecast) == 14
    assert [n for _, n in forecast][:2] == [2, 1] and forecast[13][1] == 1
    assert sum(n for _, n in forecast) == 4


# --- mastery ---------------------------------------------------------------------------------------


def fsrs_recall(stability: float, days: float) -> float:
    """FSRS-6's forgetting curve, written out: R(S) = 0.9, the power decay from the scheduler's parameters."""
    decay = fsrs.Scheduler().parameters[20]
    factor = 0.9 ** (-1 / decay) - 1
    return float((1 + factor * days / stability) ** -decay)


def week_recall(stability: float, days_ago: float) -> float:
    return fmean(fsrs_recall(stability, days_ago + d) for d in range(1, 8))


def test_mastery_is_mean_recall_over_the_next_week_and_mean_score_weakest_first() -> None:
    cards = [
        card("s1", stability=10, reviewed_days_ago=10),  # R = 0.9 now (stability is the 90% interval), lower later
        card("s2", stability=10, reviewed_days_ago=0),  # just reviewed: R = 1 now, but not over the week
        card("s3", stability=2, reviewed_days_ago=30),  # long overdue: low recall
        card("p1"),  # never reviewed: not part of recall
    ]
    history = [
        attempt(NOW - timedelta(days=10), "s1", 40),
        attempt(NOW - timedelta(days=1), "s2", 80),
        attempt(NOW - timedelta(days=30), "s3", 75),
    ]
    data = compute_progress(SHANGHAI, NOW, history, cards, QUESTIONS)
    by_sub = {m.subtopic: m for m in data.mastery}
    nan = by_sub["nan-loss"]
    assert fsrs_recall(10, 10) == pytest.approx(0.9)
    assert nan.recall == pytest.approx(fmean([week_recall(10, 10), week_recall(10, 0)]), abs=1e-6)
    assert 0.9 < week_recall(10, 0) < 0.96  # recall right after a review is not shown as 100%
    assert (nan.mean_score, nan.cards, nan.answers) == (60, 2, 2)
    mp = by_sub["mixed-precision"]
    assert mp.recall is not None and mp.recall < 0.7 and mp.mean_score == 75
    assert "lora" not in by_sub  # a subtopic with no review yet has no mastery
    assert [m.subtopic for m in data.mastery] == ["mixed-precision", "nan-loss"]
    # The suggestion is the subtopic's card least likely recalled now.
    assert nan.suggestion is not None and nan.suggestion.question_id == "s1"
    assert data.weakest[0].suggestion is not None and data.weakest[0].suggestion.question_id == "s3"


def test_topic_means_count_answers_to_questions_that_left_the_bank() -> None:
    history = [attempt(NOW, "gone", 30), attempt(NOW, "p1", 90)]
    data = compute_progress(SHANGHAI, NOW, history, [], QUESTIONS)
    assert data.topic_means == [("other", 30, 1), ("pipeline", 90, 1)]
    assert [m.subtopic for m in data.mastery] == ["lora"]


# --- interview insights ----------------------------------------------------------------------------


def interview(company: str, days_ago: float) -> InterviewLog:
    at = NOW - timedelta(days=days_ago)
    return InterviewLog(id=0, user_id=1, company=company, at=at, created_at=at)


def asked(company: str, qid: str, days_ago: float) -> ReviewItem:
    question = QUESTIONS[qid]
    assert question is not None
    return ReviewItem(id=0, user_id=1, company=company, question_text=question.prompt.en, question_id=qid,
                      matched_bank=True, topic=question.topic, subtopic=question.subtopic,
                      created_at=NOW - timedelta(days=days_ago))  # fmt: skip


def test_interview_insights_count_by_topic_subtopic_and_company() -> None:
    interviews = [interview("ByteDance", 20), interview("bytedance ", 6), interview("Moonshot", 5)]
    items = [asked("ByteDance", "s1", 20), asked("ByteDance", "p1", 6), asked("Moonshot", "s2", 5)]
    history = [
        attempt(NOW - timedelta(days=25), "s1", 40),  # before nan-loss was first asked
        attempt(NOW - timedelta(days=10), "s1", 60),
        attempt(NOW - timedelta(days=2), "s2", 80),
    ]
    ins = compute_progress(SHANGHAI, NOW, history, [], QUESTIONS, interviews, items).insights
    assert (ins.interviews, ins.questions) == (3, 3)
    assert ins.topics == [("stability", 2), ("pipeline", 1)]
    assert ins.subtopics[0] == (("stability", "nan-loss"), 2)
    bytedance, moonshot = ins.companies
    assert (bytedance.company, bytedance.interviews, bytedance.questions) == ("ByteDance", 2, 2)
    assert (moonshot.interviews, moonshot.questions, moonshot.subtopics) == (1, 1, [(("stability", "nan-loss"), 1)])
    nan = next(m for m in ins.moves if m.subtopic == "nan-loss")
    assert (nan.asked, nan.before, nan.since, nan.answers_since) == (2, 40, 70, 2)
    lora = next(m for m in ins.moves if m.subtopic == "lora")
    assert (lora.before, lora.since, lora.answers_since) == (None, None, 0)


def test_progress_text_names_weakest_subtopics_and_what_interviews_asked() -> None:
    cards = [card("s1", stability=10, reviewed_days_ago=10), card("p1", stability=30, reviewed_days_ago=1)]
    history = [attempt(NOW - timedelta(days=10), "s1", 40), attempt(NOW - timedelta(days=1), "p1", 90)]
    items = [asked("ByteDance", "s1", 3)]
    data = compute_progress(SHANGHAI, NOW, history, cards, QUESTIONS, [interview("ByteDance", 3)], items)
    en = progress_text(data, "en")
    assert "the chance you still remember them, on average over the next 7 days" in en
    assert f"- NaN loss: recall {round(week_recall(10, 10) * 100)}%, mean score 40\n  try: Question s1?" in en
    assert "Real interviews logged: 1 interview, 1 question." in en
    assert "Subtopics asked most: NaN loss ×1" in en
    assert "- ByteDance: 1 interview, 1 question (NaN loss ×1)" in en
    assert "- NaN loss: not practised since" in en
    zh = progress_text(data, "zh")
    assert f"\n- Loss 变 NaN：记忆保持 {round(week_recall(10, 10) * 100)}%，平均分 40" in zh
    assert "- 字节跳动：1 场面试、1 道题（Loss 变 NaN ×1）" in zh  # the company by its Chinese name
    assert "/company" not in en and "/company" not in zh  # one company: nothing to merge


# --- /stats through the service --------------------------------------------------------------------


@pytest.fixture
def charts() -> FakeChartRenderer:
    return FakeChartRenderer()


async def answered_user(service: Service, store: FakeStore, lang: str = "en") -> int:
    user = await service.user_for("test", "u1")
    await store.save_user(user.model_copy(update={"language": lang, "onboarded": True}))
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, "an answer")
    return user.id


async def test_stats_sends_the_chart_with_the_text(deps: Deps, store: FakeStore, charts: FakeChartRenderer) -> None:
    deps.charts = charts
    service = Service(deps)
    uid = await answered_user(service, store, "zh")
    (reply,) = await service.handle_text(uid, "/stats")
    assert reply.image is not None and reply.image.data == FakeChartRenderer.PNG
    assert reply.image.mime == "image/png" and reply.image.filename == "progress-2026-03-02.png"
    assert "学习进度" in reply.text and "连续练习：1 天" in reply.text
    ((data, lang),) = charts.calls
    assert lang == "zh" and data.total_reviews == 1


async def test_stats_is_text_only_when_the_chart_fails_or_there_is_no_renderer(
    deps: Deps, store: FakeStore, charts: FakeChartRenderer
) -> None:
    charts.fail = True
    deps.charts = charts
    service = Service(deps)
    uid = await answered_user(service, store)
    (reply,) = await service.handle_text(uid, "/stats")
    assert reply.image is None and "reviews: 1 in all" in reply.text and reply.kind == "stats"
    deps.charts = None
    (reply,) = await service.handle_text(uid, "/stats")
    assert reply.image is None and "reviews: 1 in all" in reply.text


async def test_stats_without_history_asks_for_a_first_answer(deps: Deps, charts: FakeChartRenderer) -> None:
    deps.charts = charts
    service = Service(deps)
    user = await service.user_for("test", "new")
    (reply,) = await service.handle_text(user.id, "/stats")
    assert "No answers yet" in reply.text and reply.image is None and not charts.calls


async def test_stats_with_only_interview_logs_shows_them_without_a_chart(
    deps: Deps, store: FakeStore, charts: FakeChartRenderer
) -> None:
    deps.charts = charts
    service = Service(deps)
    user = await service.user_for("test", "u1")
    await service.handle_text(user.id, "/review Moonshot | How do you debug a loss that becomes NaN?")
    (reply,) = await service.handle_text(user.id, "/stats")
    assert "Real interviews logged: 1 question." in reply.text  # no "0 interviews"
    assert "- Moonshot AI: 1 question" in reply.text and "interview," not in reply.text
    assert reply.image is None and not charts.calls


# --- issue #18: honest recall, every company, one name per company --------------------------------


async def test_recall_after_a_review_tells_again_from_easy_and_is_never_a_full_bar() -> None:
    shown = {}
    for score in (20, 95):  # rated Again, rated Easy
        store = FakeStore()
        bank = Bank([make_question("pipe-1")])
        service = build_test_app(bank, grader=FakeGrader(score=score), store=store, clock=FakeClock()).service
        user = await service.user_for("test", "u1")
        await store.save_user(user.model_copy(update={"onboarded": True}))
        await service.handle_text(user.id, "/drill")
        await service.handle_text(user.id, "an answer")
        (reply,) = await service.handle_text(user.id, "/stats")
        (recall,) = [int(x) for x in re.findall(r"recall (\d+)%", reply.text)]
        shown[score] = recall
    assert shown[20] < 80 < shown[95] < 100  # right after the review both would read 100% as recall now


def test_spellings_of_one_company_count_once() -> None:
    interviews = [interview("字节", 10), interview("ByteDance", 3)]
    items = [asked("字节跳动", "s1", 3), asked("bytedance inc.", "p1", 2)]
    ins = compute_progress(SHANGHAI, NOW, [], [], QUESTIONS, interviews, items).insights
    (company,) = ins.companies
    assert (company.interviews, company.questions) == (2, 2)


def test_every_company_is_named_in_the_text() -> None:
    names = ["Acme", "Beta Labs", "Cosmo", "Delta", "Echo AI", "Foxtrot", "Golf"]
    interviews = [interview(name, 5 - i / 10) for i, name in enumerate(names)]
    data = compute_progress(SHANGHAI, NOW, [], [], QUESTIONS, interviews, [])
    assert len(data.insights.companies) == 7
    en = progress_text(data, "en")
    assert "Real interviews logged: 7 interviews." in en
    assert sum(line.startswith("- ") and ": 1 interview" in line for line in en.splitlines()) == 5
    assert "- and 2 more companies: Foxtrot, Golf" in en
    assert "- and 2 more companies: Foxtrot, Golf\nTwo names for one company? /company merges them." in en
    assert "- 另有 2 家公司：Foxtrot、Golf\n同一家公司记成了两个名字？用 /company 可以合并。" in progress_text(
        data, "zh"
    )
    six = compute_progress(SHANGHAI, NOW, [], [], QUESTIONS, interviews[:6], [])
    assert "- and 1 more company: Foxtrot" in progress_text(six, "en")


async def test_the_weekly_summary_names_the_weakest_subtopic_and_counts_in_the_singular() -> None:
    from bot.kernel import push_rules

    store = FakeStore()
    bank = Bank([make_question("stab-1").model_copy(update={"subtopic": "mixed-precision"})])
    deps = build_test_app(bank, grader=FakeGrader(score=40), store=store, clock=FakeClock()).deps
    service = Service(deps)
    user = await service.user_for("test", "u1")
    await store.save_user(user.model_copy(update={"onboarded": True}))
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, "an answer")
    for lang, text in (("en", "Your week: 1 answer, mean score 40. Weakest subtopic: Mixed precision."),
                       ("zh", "本周回顾：1 次作答，平均分 40。最薄弱的子主题：混合精度。")):  # fmt: skip
        replies = await push_rules.bind_pushes(deps.provided()).push(
            "weekly", user.model_copy(update={"language": lang}), None
        )
        assert replies is not None and replies[0].text.startswith(text), replies[0].text


def test_an_offline_estimate_counts_only_by_the_users_own_rating() -> None:
    """issue #32: an estimate is not a verdict; /stats counts the rating the user gave it (the middle of its band)."""
    user = User(id=1, timezone="UTC", created_at=NOW - timedelta(days=30))
    attempts = [
        attempt(NOW - timedelta(days=1), "s1", 90, grader="offline", rating=1, rating_by="unrated"),
        attempt(NOW - timedelta(hours=5), "s1", 95, grader="offline", rating=2, rating_by="user"),
        attempt(NOW - timedelta(hours=4), "p1", 30, grader="offline", rating=4, rating_by="user"),
    ]
    data = compute_progress(user, NOW, attempts, [], {"s1": q("s1"), "p1": q("p1", "pipeline", "tokenizer")})
    assert data.week_mean == (52 + 92) / 2 and data.total_reviews == 3
    assert sorted((t, m, n) for t, m, n in data.topic_means) == [("pipeline", 92, 1), ("stability", 52, 1)]
