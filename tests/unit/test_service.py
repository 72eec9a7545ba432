"""Scenarios through the core service with hand-written fakes."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.kernel import srs
from bot.kernel.models import Card, Rating
from bot.kernel.service import Service
from bot.kernel.session import Answering, open_card_id
from tests.fakes import FakeClock, FakeGrader, FakeStore


async def new_user(service: Service, lang: str = "en") -> int:
    user = await service.user_for("test", "u1", lang)  # type: ignore[arg-type]
    return user.id


async def onboard(service: Service, uid: int, lang: str = "en", tz: str = "Asia/Shanghai") -> None:
    await service.handle_text(uid, "/start")
    await service.handle_action(uid, f"set:language:{lang}")
    await service.handle_action(uid, "set:level:engineer")
    await service.handle_action(uid, "set:topics:both")
    await service.handle_text(uid, tz)
    replies = await service.handle_text(uid, "08:30")
    assert "08:30" in replies[0].text


async def test_onboarding_walks_every_step_and_saves(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    r = await service.handle_text(uid, "/start")
    assert r[0].actions() == ["set:language:en", "set:language:zh"]
    r = await service.handle_action(uid, "set:language:zh")
    assert "级别" in r[0].text
    r = await service.handle_action(uid, "set:level:researcher")
    assert r[0].actions()[-1] == "set:topics:both"
    r = await service.handle_action(uid, "set:topics:stability")
    assert "时区" in r[0].text and r[0].ask_text
    r = await service.handle_text(uid, "Mars/Olympus_Mons")
    assert "不是有效的时区" in r[0].text
    r = await service.handle_text(uid, "上海")  # a city name is accepted
    assert "08:30" in r[0].text and "早上八点" in r[0].text  # a time may be typed as 8pm or 早上八点 too
    r = await service.handle_text(uid, "25:99")
    assert "无法识别时间" in r[0].text
    r = await service.handle_text(uid, "7:05")
    user = store.users[uid]
    assert (user.language, user.level, user.topics, user.timezone, user.daily_time, user.onboarded) == (
        "zh",
        "researcher",
        ["stability"],
        "Asia/Shanghai",
        "07:05",
        True,
    )
    assert "设置完成" in r[0].text


async def test_drill_answer_grade_and_schedule(service: Service, store: FakeStore, clock: FakeClock) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    r = await service.handle_text(uid, "/drill")
    assert r[0].kind == "question" and "(new)" in r[0].text
    card_id = store.open_card(uid)
    r = await service.handle_text(uid, "First I check the data, then gradient norms per layer.")
    assert r[0].kind == "grade"
    assert "Score: 70/100 (Good)" in r[0].text
    assert "coverage 70" in r[0].text and "Missed:" in r[0].text and "Follow-up:" in r[0].text
    attempt = next(iter(store.attempts.values()))
    assert attempt.status == "graded" and attempt.rating == Rating.GOOD and attempt.grade is not None
    card = store.cards[card_id]
    assert card.due > clock.now() and not card.is_new
    assert attempt.rating_by == "grade"
    # the grader's rating schedules the card; the user may disagree (their own rating, or a second look)
    assert f"dis:{attempt.id}" in r[0].actions() and f"fu:{attempt.id}" in r[0].actions()
    assert not any(a.startswith("rate:") for a in r[0].actions())  # not borderline: no confirmation asked
    r = await service.handle_action(uid, f"dis:{attempt.id}")
    assert "instead of the grader's Good" in r[0].text
    assert r[0].actions()[:4] == [f"rate:{attempt.id}:{n}" for n in (1, 2, 3, 4)]
    r = await service.handle_action(uid, f"rate:{attempt.id}:2")
    assert store.attempts[attempt.id].rating == 2 and store.attempts[attempt.id].rating_by == "user"
    assert store.attempts[attempt.id].grade == attempt.grade  # both are kept: the grade and the user's rating


async def test_answer_is_stored_even_when_grader_fails(service: Service, store: FakeStore, grader: FakeGrader) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    grader.fail = True
    r = await service.handle_text(uid, "my careful answer")
    assert "saved" in r[0].text
    (attempt,) = store.attempts.values()
    assert attempt.answer == "my careful answer" and attempt.status == "regrade"


async def test_bad_answers_get_clear_replies_and_keep_the_question(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    r = await service.handle_text(uid, "   ")
    assert "empty" in r[0].text
    r = await service.handle_text(uid, "x" * 50_000)
    assert "50000" in r[0].text and "6000" in r[0].text
    assert store.attempts == {} and isinstance(store.sessions[uid], Answering)


async def test_chinese_user_gets_chinese_errors(service: Service) -> None:
    uid = await new_user(service, "zh")
    await onboard(service, uid, lang="zh")
    r = await service.handle_text(uid, "/nonsense")
    assert "未知命令" in r[0].text
    r = await service.handle_text(uid, "/review 字节跳动")
    assert "用法" in r[0].text
    r = await service.handle_text(uid, "/interview 字节 | 算法 | 明年某天")
    assert "无法识别时间" in r[0].text


async def test_override_rating_reschedules_from_the_snapshot(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    card_id = store.open_card(uid)
    await service.handle_text(uid, "answer")
    attempt = next(iter(store.attempts.values()))
    good_due = store.cards[card_id].due
    r = await service.handle_action(uid, f"rate:{attempt.id}:1")
    assert "Again" in r[0].text
    again_due = store.cards[card_id].due
    r = await service.handle_action(uid, f"rate:{attempt.id}:4")
    easy_due = store.cards[card_id].due
    assert again_due < good_due < easy_due
    assert store.attempts[attempt.id].rating == 4


async def test_rating_buttons_of_an_older_answer_are_refused(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    card_id = store.open_card(uid)
    await service.handle_text(uid, "first")
    first = max(store.attempts)
    clock.advance(days=30)
    r = await service.handle_text(uid, "/drill")
    assert store.open_card(uid) == card_id  # the same card is due again
    await service.handle_text(uid, "second")
    r = await service.handle_action(uid, f"rate:{first}:4")
    assert "older answer" in r[0].text


async def test_users_cannot_touch_each_others_attempts(service: Service, store: FakeStore) -> None:
    alice = (await service.user_for("test", "alice")).id
    bob = (await service.user_for("test", "bob")).id
    await onboard(service, alice)
    await service.handle_text(alice, "/drill")
    await service.handle_text(alice, "alice's answer")
    attempt_id = max(store.attempts)
    before = store.cards[store.attempts[attempt_id].card_id or 0].due
    r = await service.handle_action(bob, f"rate:{attempt_id}:1")
    assert "could not find" in r[0].text
    r = await service.handle_action(bob, f"ref:{attempt_id}")
    assert "no open question" in r[0].text
    assert store.cards[store.attempts[attempt_id].card_id or 0].due == before


async def test_due_cards_first_then_new_up_to_the_daily_limit(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/settings new 2")
    seen = []
    for _ in range(2):
        await service.handle_text(uid, "/drill")
        seen.append(store.cards[store.open_card(uid)].question_id)
        await service.handle_text(uid, "answer")
    r = await service.handle_text(uid, "/drill")
    assert "Nothing is due" in r[0].text
    clock.advance(days=40)
    await service.handle_text(uid, "/drill")
    assert store.cards[store.open_card(uid)].question_id in seen  # due before new


async def test_skip_and_reveal(service: Service, store: FakeStore, clock: FakeClock) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    card_id = store.open_card(uid)
    r = await service.handle_text(uid, "/skip")
    assert "tomorrow" in r[0].text and store.cards[card_id].due == clock.now() + timedelta(days=1)
    await service.handle_text(uid, "/drill")
    other = store.open_card(uid)
    assert other != card_id
    r = await service.handle_text(uid, "/reveal")
    assert r[0].kind == "reference" and "Again" in r[1].text
    revealed = max(store.attempts.values(), key=lambda a: a.id)
    assert revealed.status == "revealed" and revealed.rating == 1


async def test_follow_up_is_graded_without_rescheduling(service: Service, store: FakeStore, grader: FakeGrader) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    card_id = store.open_card(uid)
    await service.handle_text(uid, "answer")
    due = store.cards[card_id].due
    attempt_id = max(store.attempts)
    r = await service.handle_action(uid, f"fu:{attempt_id}")
    assert "What threshold" in r[0].text
    r = await service.handle_text(uid, "I chose 1.0 after looking at the gradient-norm histogram")
    assert "does not change the schedule" in r[0].text
    follow = store.attempts[max(store.attempts)]
    assert follow.is_follow_up and follow.status == "graded"
    assert store.cards[card_id].due == due


async def test_review_matches_a_bank_question_and_comes_up_first(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    asked = "How does ZeRO-3 partition optimizer states, gradients and parameters?"
    r = await service.handle_text(uid, f"/review ByteDance | {asked}")
    assert "graded with the rubric of the bank question “How does ZeRO stage 3" in r[0].text
    assert "pipe-zero-001" not in r[0].text and "due now" in r[0].text  # named by its words; no answer to grade
    r = await service.handle_text(uid, "/drill")  # the user's own words, the bank question named beside them
    assert "(from your interview)\n" + asked + "\n(Graded with the rubric of bank question pipe-zero-001:" in r[0].text
    (item,) = store.review_items.values()
    assert item.matched_bank and item.company == "ByteDance" and item.question_id == "pipe-zero-001"


async def test_review_without_a_match_becomes_a_self_rated_personal_card(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    r = await service.handle_text(uid, "/review Acme | Tell me about your favourite sorting algorithm on GPUs")
    assert "personal question" in r[0].text
    await service.handle_text(uid, "/drill")
    r = await service.handle_text(uid, "radix sort because ...")
    assert "rate yourself" in r[0].text
    attempt_id = max(store.attempts)
    r = await service.handle_action(uid, f"rate:{attempt_id}:3")
    assert "Good" in r[0].text
    assert store.attempts[attempt_id].rating == 3


async def test_interview_log_creates_a_post_interview_reminder(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    await onboard(service, uid, tz="Asia/Shanghai")
    r = await service.handle_text(uid, "/interview Moonshot | Pretraining engineer | 2026-03-05 14:00")
    assert "2026-03-05 14:00" in r[0].text
    (log,) = store.interviews.values()
    assert log.at.hour == 6  # 14:00 in Shanghai is 06:00 UTC
    (reminder,) = store.reminders.values()
    assert reminder.kind == "post_interview" and reminder.due_at == log.at + timedelta(hours=2)


async def test_stats_streak_and_topics(service: Service, store: FakeStore, clock: FakeClock) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/settings new 10")
    for _ in range(3):
        await service.handle_text(uid, "/drill")
        await service.handle_text(uid, "answer")
        clock.advance(days=1)
    r = await service.handle_text(uid, "/stats")
    assert "3 in all" in r[0].text and "streak: 3 days" in r[0].text
    assert "Training pipeline: 70 (3 answers)" in r[0].text


async def test_forget_needs_confirmation(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    await service.handle_text(uid, "answer")
    r = await service.handle_text(uid, "/forget")
    assert r[0].actions() == ["forget:yes", "forget:no"]
    r = await service.handle_text(uid, "hmm no")
    assert "Nothing was deleted" in r[0].text and store.attempts
    await service.handle_text(uid, "/forget")
    r = await service.handle_action(uid, "forget:yes")
    assert "deleted" in r[0].text
    assert uid not in store.users and not store.attempts and not store.cards


async def test_export_contains_all_the_users_data(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    await service.handle_text(uid, "/drill")
    await service.handle_text(uid, "my answer about gradients")
    await service.handle_text(uid, "/review Acme | Something nobody else asks about quantum chess")
    r = await service.handle_text(uid, "/export")
    assert r[0].file is not None
    data = json.loads(r[0].file.data)
    assert data["attempts"][0]["answer"] == "my answer about gradients"
    assert len(data["cards"]) == 2 and len(data["personal_questions"]) == 1 and len(data["review_items"]) == 1


async def test_a_handler_that_raises_gets_an_error_reply_and_is_logged(
    service: Service, store: FakeStore, caplog: pytest.LogCaptureFixture
) -> None:
    uid = await new_user(service)
    await service.handle_text(uid, "/drill")

    async def broken(card_id: int) -> Card | None:
        raise RuntimeError("database went away")

    store.get_card = broken  # type: ignore[method-assign]
    (r,) = await service.handle_text(uid, "an answer")
    assert r.kind == "error" and r.text.startswith("Something went wrong on my side")
    assert "handler failed for FreeText" in caplog.text


async def test_unknown_buttons_and_commands_do_not_crash(service: Service) -> None:
    uid = await new_user(service)
    for action in ("rate:x:y", "fu:", "bogus"):
        (r,) = await service.handle_action(uid, action)
        assert r.text == f"Unknown command {action}. Send /help to see what I can do." and r.kind == "error"
    (r,) = await service.handle_action(uid, "ref:99999")  # someone else's or no attempt: nothing to reveal
    assert r.text == "There is no open question. Send /drill to get one."
    (r,) = await service.handle_text(uid, "/bogus")
    assert r.text.startswith("Unknown command /bogus.")
    r = await service.handle_text(uid, "/settings level wizard")
    assert "campus" in r[0].text
    r = await service.handle_text(uid, "/settings new 500")
    assert "0 to 50" in r[0].text


async def test_a_due_card_whose_question_left_the_bank_is_suspended_and_skipped(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    gone = await store.create_card(uid, "stab-removed-001", srs.new_state(clock.now()), clock.now(), False, clock.now())
    (r, *_) = await service.handle_text(uid, "/drill")
    assert "stab-removed-001" not in r.text and "Question" in r.text  # a question that exists is served
    assert store.cards[gone.id].suspended
    assert open_card_id(await store.get_session(uid)) not in (None, gone.id)
