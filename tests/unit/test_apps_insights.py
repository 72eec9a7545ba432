"""Insights across applications on a fixture history: what was asked (overall, by company, by the stage at
the time), the user's mastery of each subtopic, and the three questions to prepare for the next round."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.features.apps.attach import Attached, attach_all
from bot.features.apps.insights import compute_insights, next_round, rank_questions
from bot.features.career.models import Application, StageChange
from bot.features.stats.chart_data import Mastery
from bot.kernel import srs
from bot.kernel.models import Card, InterviewLog, Question, Rating, ReviewItem
from tests.conftest import make_question

NOW = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def day(n: float) -> datetime:
    return NOW + timedelta(days=n)


def q(qid: str, topic: str, subtopic: str) -> Question:
    return make_question(qid, topic=topic).model_copy(update={"subtopic": subtopic})


BANK = [q("nan-1", "stability", "nan-loss"), q("nan-2", "stability", "nan-loss"), q("nan-3", "stability", "nan-loss"),
        q("fsdp-1", "pipeline", "fsdp"), q("fsdp-2", "pipeline", "fsdp"),
        q("lora-1", "pipeline", "lora"), q("tok-1", "pipeline", "tokenizer")]  # fmt: skip


def application(app_id: int, company: str, *moves: tuple[str, int, float]) -> Application:
    history = [StageChange(stage=s, round=r, at=day(d)) for s, r, d in moves]  # type: ignore[arg-type]
    last = history[-1]
    return Application(id=app_id, user_id=1, company=company, stage=last.stage, round=last.round, number=app_id,
                       history=history, created_at=history[0].at, updated_at=last.at)  # fmt: skip


def asked(item_id: int, company: str, subtopic: str, at: float) -> ReviewItem:
    topic = "stability" if subtopic == "nan-loss" else "pipeline"
    return ReviewItem(id=item_id, user_id=1, company=company, question_text="?", question_id="x", matched_bank=True,
                      topic=topic, subtopic=subtopic, created_at=day(at))  # fmt: skip


def interview(log_id: int, company: str, at: float) -> InterviewLog:
    return InterviewLog(id=log_id, user_id=1, company=company, at=day(at), created_at=day(at))


APPS = [
    application(1, "ByteDance", ("applied", 0, -40), ("screen", 0, -35), ("technical", 1, -30), ("technical", 2, -20)),
    application(2, "阿里巴巴", ("applied", 0, -30), ("technical", 1, -10)),
    application(3, "Baidu", ("applied", 0, -50), ("technical", 1, -45), ("rejected", 0, -40)),
]
LOGS = [interview(1, "字节", -28), interview(2, "ByteDance", -18), interview(3, "Alibaba", -8),
        interview(4, "Baidu", -44), interview(5, "阿里", 2)]  # fmt: skip
ITEMS = [
    asked(1, "字节跳动", "nan-loss", -28), asked(2, "字节", "fsdp", -28), asked(3, "ByteDance", "nan-loss", -17),
    asked(4, "ByteDance", "nan-loss", -17), asked(5, "阿里", "fsdp", -8), asked(6, "Alibaba", "lora", -7),
    asked(7, "Alibaba", "fsdp", -7), asked(8, "Baidu", "tokenizer", -44), asked(9, "Tencent", "lora", -3),
]  # fmt: skip
MASTERY = [
    Mastery("pipeline", "fsdp", recall=0.9, mean_score=90, cards=2, answers=4),
    Mastery("pipeline", "lora", recall=0.2, mean_score=30, cards=1, answers=2),
    Mastery("stability", "nan-loss", recall=0.5, mean_score=60, cards=1, answers=1),
]


def card(qid: str, due: float, reviewed: bool = True, rating: Rating = Rating.GOOD) -> Card:
    state = srs.new_state(day(-60))
    if reviewed:
        state, _ = srs.review(state, rating, day(-30), 0.9, fuzz=False)
    return Card(id=hash(qid) % 1000, user_id=1, question_id=qid, fsrs=state, due=day(due), created_at=day(-60))


def test_what_was_asked_overall_by_company_and_by_stage() -> None:
    ins = compute_insights(APPS, attach_all(APPS, LOGS, ITEMS), MASTERY, BANK, [], NOW)
    assert (ins.interviews, ins.questions) == (5, 8)  # Tencent has no application: left out
    assert ins.topics == [("pipeline", 5), ("stability", 3)]
    # most asked first; equal counts: the less held first (nan-loss 0.55 before fsdp 0.9, tokenizer never
    # practised before lora 0.25)
    assert [(a.subtopic, a.count) for a in ins.subtopics] == [("nan-loss", 3), ("fsdp", 3), ("tokenizer", 1),
                                                               ("lora", 1)]  # fmt: skip
    companies = dict(ins.by_company)
    assert [(a.subtopic, a.count) for a in companies["ByteDance"]] == [("nan-loss", 3), ("fsdp", 1)]
    assert [(a.subtopic, a.count) for a in companies["阿里巴巴"]] == [("fsdp", 2), ("lora", 1)]
    stages = {k: [(a.subtopic, a.count) for a in v] for k, v in ins.by_stage}
    assert list(stages) == [("technical", 1), ("technical", 2)]
    assert stages[("technical", 1)] == [("fsdp", 3), ("tokenizer", 1), ("lora", 1)]  # the top 3, weaker first
    assert stages[("technical", 2)] == [("nan-loss", 2)]  # logged after the second round's interview


def test_each_subtopic_carries_the_users_mastery() -> None:
    ins = compute_insights(APPS, attach_all(APPS, LOGS, ITEMS), MASTERY, BANK, [], NOW)
    held = {a.subtopic: a.mastery for a in ins.subtopics}
    assert held["fsdp"] is MASTERY[0] and held["lora"] is MASTERY[1] and held["tokenizer"] is None
    assert ins.subtopics[0].strength < ins.subtopics[1].strength  # equal counts: the weaker first


def test_prepare_for_the_nearest_interview_ahead_most_asked_and_least_held_first() -> None:
    cards = [card("fsdp-1", due=5), card("lora-1", due=-1)]
    ins = compute_insights(APPS, attach_all(APPS, LOGS, ITEMS), MASTERY, BANK, cards, NOW)
    p = ins.prepare
    assert p is not None and p.app.id == 2 and p.upcoming == day(2) and p.from_company
    # Alibaba asked fsdp x2 (held 0.9: need 0.2) and lora x1 (held 0.25: need 0.75): lora first
    assert [a.subtopic for a in p.subtopics] == ["lora", "fsdp"]
    # one per subtopic in turn: lora's due card, then fsdp's never-practised question before its held one
    assert p.questions == ["lora-1", "fsdp-2", "fsdp-1"]


def test_without_an_interview_ahead_the_open_application_that_moved_last() -> None:
    logs = [log for log in LOGS if log.id != 5]
    assert next_round(APPS, attach_all(APPS, logs, ITEMS), NOW).id == 2  # type: ignore[union-attr]
    moved = APPS[0].model_copy(update={"history": [*APPS[0].history, StageChange(stage="hr", at=day(-1))]})
    apps = [moved, APPS[1], APPS[2]]
    assert next_round(apps, attach_all(apps, logs, ITEMS), NOW).id == 1  # type: ignore[union-attr]
    closed = [a.model_copy(update={"stage": "withdrawn"}) for a in apps]
    assert next_round(closed, attach_all(closed, logs, ITEMS), NOW) is None


def test_a_company_that_asked_nothing_yet_gets_the_subtopics_asked_everywhere() -> None:
    apps = [*APPS, application(4, "Kimi", ("applied", 0, -1))]
    ins = compute_insights(apps, attach_all(apps, LOGS[:4], ITEMS), MASTERY, BANK, [], NOW)
    p = ins.prepare
    assert p is not None and p.app.id == 4 and not p.from_company
    assert p.subtopics[0].subtopic == "nan-loss" and len(p.questions) == 3


def test_due_cards_come_first_then_the_weakest_with_unseen_as_weakest() -> None:
    from bot.features.apps.insights import Asked

    nan = [Asked("stability", "nan-loss", 3)]
    cards = {"nan-1": card("nan-1", due=3, rating=Rating.AGAIN), "nan-2": card("nan-2", due=-1)}
    assert rank_questions(nan, BANK, cards, NOW) == ["nan-2", "nan-3", "nan-1"]
    suspended = {**cards, "nan-2": cards["nan-2"].model_copy(update={"suspended": True})}
    assert rank_questions(nan, BANK, suspended, NOW) == ["nan-3", "nan-1"]
    fsdp = [Asked("pipeline", "fsdp", 1)]
    weak, strong = card("fsdp-1", due=4, rating=Rating.AGAIN), card("fsdp-2", due=9, rating=Rating.EASY)
    assert rank_questions(fsdp, BANK, {"fsdp-1": strong, "fsdp-2": weak}, NOW) == ["fsdp-2", "fsdp-1"]
    assert rank_questions(fsdp, BANK, {"fsdp-1": weak, "fsdp-2": strong}, NOW) == ["fsdp-1", "fsdp-2"]


def test_no_questions_logged_means_empty_insights_and_nothing_to_prepare() -> None:
    ins = compute_insights(APPS, attach_all(APPS, LOGS, []), MASTERY, BANK, [], NOW)
    assert ins.empty and ins.prepare is None and ins.interviews == 5


def said(item_id: int, company: str, topic: str, subtopic: str, at: float) -> ReviewItem:
    return ReviewItem(id=item_id, user_id=1, company=company, question_text="?", question_id="x", matched_bank=True,
                      topic=topic, subtopic=subtopic, created_at=day(at))  # fmt: skip


def test_by_stage_follows_the_hiring_pipeline_not_the_alphabet() -> None:
    moves = [("applied", 0, -80), ("screen", 0, -70), ("technical", 1, -60), ("technical", 2, -50), ("hr", 0, -40),
             ("offer", 0, -30), ("rejected", 0, -20), ("withdrawn", 0, -10)]  # fmt: skip
    apps = [application(1, "Acme", *moves)]
    items = [said(i, "Acme", "pipeline", "fsdp", at + 1) for i, (_, _, at) in enumerate(moves, start=1)]
    ins = compute_insights(apps, attach_all(apps, [], items), [], BANK, [], NOW)
    assert [k for k, _ in ins.by_stage] == [("applied", 0), ("screen", 0), ("technical", 1), ("technical", 2),
                                            ("hr", 0), ("offer", 0), ("rejected", 0), ("withdrawn", 0)]  # fmt: skip


def test_companies_with_most_questions_first_ties_by_name_and_three_subtopics_each() -> None:
    apps = [application(1, "bravo", ("applied", 0, -30)), application(2, "Alpha", ("applied", 0, -30)),
            application(3, "Zeta", ("applied", 0, -30))]  # fmt: skip
    items = [asked(1, "bravo", "lora", -20), asked(2, "Alpha", "fsdp", -20), asked(3, "Zeta", "nan-loss", -20),
             asked(4, "Zeta", "nan-loss", -19), asked(5, "Zeta", "fsdp", -18), asked(6, "Zeta", "lora", -17),
             asked(7, "Zeta", "tokenizer", -16)]  # fmt: skip
    ins = compute_insights(apps, attach_all(apps, [], items), MASTERY, BANK, [], NOW)
    assert [name for name, _ in ins.by_company] == ["Zeta", "Alpha", "bravo"]  # 5 questions, then 1 each by name
    zeta = ins.by_company[0][1]
    # the top 3 of its 4 subtopics: most asked, then never practised (tokenizer) before lora 0.25 and fsdp 0.9
    assert [(a.subtopic, a.count) for a in zeta] == [("nan-loss", 2), ("tokenizer", 1), ("lora", 1)]


NEXT_ROUND_CASES = {
    "an interview ahead beats moving last": ([interview(1, "Acme", 3)], 1),
    "the nearest interview ahead wins": ([interview(1, "Acme", 5), interview(2, "Bravo", 2)], 2),
    "an interview right now is not ahead": ([interview(1, "Acme", 0)], 2),
    "an interview right now is not the next one": (
        [interview(1, "Acme", 0), interview(2, "Acme", 3), interview(3, "Bravo", 1)],
        2,
    ),
    "interviews at the same moment: the older application": ([interview(1, "Acme", 2), interview(2, "Bravo", 2)], 1),
}


@pytest.mark.parametrize(("logs", "expected"), NEXT_ROUND_CASES.values(), ids=NEXT_ROUND_CASES.keys())
def test_next_round_is_the_nearest_interview_strictly_ahead(logs: list[InterviewLog], expected: int) -> None:
    # Acme (id 1) moved 30 days ago, Bravo (id 2) 20 days ago: Bravo moved last
    apps = [application(1, "Acme", ("applied", 0, -30)), application(2, "Bravo", ("applied", 0, -20))]
    assert next_round(apps, attach_all(apps, logs, []), NOW).id == expected  # type: ignore[union-attr]


def test_equal_need_puts_the_more_asked_subtopic_first() -> None:
    apps = [application(1, "Acme", ("applied", 0, -30))]
    items = [asked(1, "Acme", "fsdp", -20), asked(2, "Acme", "fsdp", -19), asked(3, "Acme", "lora", -18)]
    half = [Mastery("pipeline", "fsdp", recall=0.5, mean_score=50, cards=1, answers=1)]
    ins = compute_insights(apps, attach_all(apps, [], items), half, BANK, [], NOW)
    # fsdp: 2 x (1 - 0.5) = 1.0, lora never practised: 1 x 1 = 1.0; the one asked more often first
    assert ins.prepare is not None and [a.subtopic for a in ins.prepare.subtopics] == ["fsdp", "lora"]


def test_an_application_without_attached_records_is_skipped_not_the_end() -> None:
    apps = [application(1, "Acme", ("applied", 0, -5)), application(2, "Bravo", ("applied", 0, -20))]
    attached = {2: Attached(items=[asked(1, "Bravo", "lora", -10)])}  # nothing for Acme, which moved last
    ins = compute_insights(apps, attached, MASTERY, BANK, [], NOW)
    assert (ins.questions, ins.topics) == (1, [("pipeline", 1)])
    p = ins.prepare
    assert p is not None and (p.app.id, p.upcoming, p.from_company) == (1, None, False)
    assert [a.subtopic for a in p.subtopics] == ["lora"] and p.questions == ["lora-1"]


def test_the_upcoming_interview_is_the_next_one_not_one_happening_now() -> None:
    apps = [application(1, "Acme", ("applied", 0, -30))]
    logs = [interview(1, "Acme", 0), interview(2, "Acme", 3)]
    ins = compute_insights(apps, attach_all(apps, logs, [asked(1, "Acme", "lora", -1)]), MASTERY, BANK, [], NOW)
    assert ins.prepare is not None and ins.prepare.upcoming == day(3)


def test_a_rarely_asked_unpractised_subtopic_is_not_cut_before_ranking_by_need() -> None:
    apps = [application(1, "Acme", ("applied", 0, -30))]
    held = [f"s{i}" for i in range(1, 6)]
    items = [said(n * 2 + k, "Acme", "pipeline", s, -20) for n, s in enumerate(held) for k in (0, 1)]
    items.append(said(99, "Acme", "pipeline", "rare", -19))
    strong = [Mastery("pipeline", s, recall=0.9, mean_score=90, cards=1, answers=1) for s in held]
    ins = compute_insights(apps, attach_all(apps, [], items), strong, BANK, [], NOW)
    # five subtopics asked twice and held at 0.9 (need 0.2 each), one asked once and never practised (need 1.0)
    assert ins.prepare is not None and [a.subtopic for a in ins.prepare.subtopics] == ["rare", "s1", "s2"]


def test_a_card_due_right_now_counts_as_due() -> None:
    from bot.features.apps.insights import Asked

    cards = {"nan-1": card("nan-1", due=0)}  # reviewed well, due at this very moment
    assert rank_questions([Asked("stability", "nan-loss", 1)], BANK, cards, NOW) == ["nan-1", "nan-2", "nan-3"]
