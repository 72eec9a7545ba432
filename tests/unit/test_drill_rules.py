"""The drill loop's rules (bot/features/drill/drill.py) one by one, through the service with hand-written fakes:
which question comes next and how it is tagged, what an answer stores and schedules, where the session
is left, and exactly which reply (text in the user's language, buttons, kind) each step gives."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.features.deps import Limits
from bot.features.drill import checklist, drill
from bot.kernel import commands as c
from bot.kernel import render, srs
from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.inject import build
from bot.kernel.models import Attempt, Rating, Text, User
from bot.kernel.replies import Button, Reply
from bot.kernel.scoring import rating_from_score
from bot.kernel.service import Service
from bot.kernel.session import Answering, FollowingUp, Grading, Idle
from bot.kernel.timeutil import fmt_local
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.unit.test_regrade import LLMStub

TZ = "Asia/Shanghai"
ANSWER = "First I check the data, then the gradient norms per layer."


def next_button(lang: str) -> list[list[Button]]:
    return [[Button(t(lang, "btn.next"), "next")]]  # type: ignore[arg-type]


async def zh_user(service: Service, external: str = "1", **settings: object) -> User:
    user = await service.user_for("test", external, "zh")
    user = user.model_copy(update={"timezone": TZ, **settings})
    await service.deps.store.save_user(user)
    return user


async def open_card(service: Service, user: User) -> int:
    session = await service.deps.store.get_session(user.id)
    assert isinstance(session, Answering | FollowingUp), session
    return session.card_id


async def latest(service: Service, user: User) -> Attempt:
    return max(await service.deps.store.list_attempts(user.id), key=lambda a: a.id)


def with_llm(store: FakeStore, bank: Bank, clock: FakeClock) -> tuple[Service, LLMStub]:
    """An LLM grader (recording every question it is given) with the offline estimate (30) beside it."""
    llm = LLMStub()
    deps = build_test_app(bank, grader=llm, estimator=FakeGrader(30, grader="offline"), store=store, clock=clock).deps
    return Service(deps), llm


# ---- asking


async def test_a_new_question_is_shown_with_its_tag_hint_and_buttons(service: Service, store: FakeStore) -> None:
    user = await zh_user(service)
    (reply,) = await service.handle_text(user.id, "/drill")
    card = await store.get_card(await open_card(service, user))
    assert card is not None and card.fsrs == srs.new_state(service.deps.clock.now()) and not card.personal
    first = service.deps.bank.new_candidates(user.topics, user.level, set())[0]
    assert card.question_id == first.id  # the first candidate: the user's level first, then easier ones
    text = render.question_text(first, "zh", "new") + "\n\n" + t("zh", "answer_hint")
    buttons = [[Button(t("zh", "btn.skip"), "skip"), Button(t("zh", "btn.reference"), "ref")]]
    assert reply == Reply(text, buttons, kind="question", ask_text=True)


async def test_drill_again_asks_the_open_question_again_as_due(service: Service, store: FakeStore) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card_id = await open_card(service, user)
    card = await store.get_card(card_id)
    q = service.deps.bank.get(card.question_id) if card else None
    assert card is not None and q is not None
    (reply,) = await service.handle_text(user.id, "/drill")
    assert reply.text == render.question_text(q, "zh", "due") + "\n\n" + t("zh", "answer_hint")
    assert await open_card(service, user) == card_id and len(await store.list_cards(user.id)) == 1


async def test_a_due_card_comes_back_tagged_due(service: Service, store: FakeStore, clock: FakeClock) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card_id = await open_card(service, user)
    await service.handle_text(user.id, ANSWER)
    card = await store.get_card(card_id)
    assert card is not None
    clock.current = card.due
    q = service.deps.bank.get(card.question_id)
    assert q is not None
    (reply,) = await service.handle_text(user.id, "/drill")
    assert (
        reply.text.startswith(render.question_text(q, "zh", "due") + "\n\n")
        and await open_card(service, user) == card_id
    )


async def test_a_personal_card_is_tagged_personal_when_asked_and_asked_again(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    user = await zh_user(service)
    q = await store.add_personal_question(user.id, make_question("personal:x", prompt_zh="我被问到的题"))
    await store.create_card(user.id, q.id, srs.new_state(clock.now()), clock.now(), True, clock.now())
    tagged = render.question_text(q, "zh", "personal")
    for _ in range(2):  # asked, then asked again while open
        (reply,) = await service.handle_text(user.id, "/drill")
        assert reply.text.startswith(tagged + "\n\n")


async def test_at_most_three_vanished_cards_are_suspended_per_request(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    user = await zh_user(service)
    now = clock.now()
    gone = [await store.create_card(user.id, f"gone-{i}", srs.new_state(now), now, False, now) for i in range(4)]
    (reply,) = await service.handle_text(user.id, "/drill")
    assert reply.kind == "question"  # a new question after three tries
    suspended = [(await store.get_card(card.id)).suspended for card in gone]  # type: ignore[union-attr]
    assert suspended == [True, True, True, False]


async def test_the_new_card_limit_counts_from_local_midnight(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    user = await zh_user(service, new_per_day=1)
    # 17:00 in Shanghai; a card made at 04:00 local today (20:00 UTC yesterday) uses up today's one new card
    clock.current = clock.current.replace(hour=9)
    made = clock.now() - timedelta(hours=13)
    card = await store.create_card(user.id, "pipe-q-000", srs.new_state(made), made, False, made)
    await store.save_card(card.model_copy(update={"due": clock.now() + timedelta(days=3)}))
    (reply,) = await service.handle_text(user.id, "/drill")
    when = fmt_local(clock.now() + timedelta(days=3), TZ)
    new = tn("zh", "count.new_question", 1)
    assert reply == Reply(t("zh", "nothing_due", new=new, next=when, suggest=6))


async def test_nothing_due_and_nothing_scheduled_says_so(service: Service) -> None:
    user = await zh_user(service, new_per_day=0)
    assert await service.handle_text(user.id, "/drill") == [
        Reply(t("zh", "nothing_due.new_off", next=t("zh", "no_next")))
    ]


# ---- answering


async def test_an_empty_or_too_long_answer_is_an_error_in_the_users_language(service: Service) -> None:
    service.deps.limits = Limits(fuzz=False, max_answer_chars=40)
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    assert await service.handle(c.SubmitAnswer(user.id, "   ")) == [Reply(t("zh", "empty_answer"), kind="error")]
    too_long = await service.handle(c.SubmitAnswer(user.id, "x" * 41))
    assert too_long == [Reply(t("zh", "answer_too_long", length=41, limit=40), kind="error")]
    (graded,) = await service.handle(c.SubmitAnswer(user.id, "x" * 40))  # the limit itself is fine
    assert graded.kind == "grade"


async def test_an_answer_with_nothing_open_is_refused(service: Service, store: FakeStore) -> None:
    user = await zh_user(service)
    assert await service.handle(c.SubmitAnswer(user.id, ANSWER)) == [Reply(t("zh", "no_open_question"))]
    await store.set_session(user.id, Answering(card_id=999))  # the card is gone
    assert await service.handle(c.SubmitAnswer(user.id, ANSWER)) == [Reply(t("zh", "no_open_question"))]
    assert await store.get_session(user.id) == Idle()
    now = service.deps.clock.now()
    card = await store.create_card(user.id, "left-the-bank", srs.new_state(now), now, False, now)
    await store.set_session(user.id, Answering(card_id=card.id))  # the card's question is gone
    assert await service.handle(c.SubmitAnswer(user.id, ANSWER)) == [Reply(t("zh", "no_open_question"))]
    assert await store.get_session(user.id) == Idle() and await store.list_attempts(user.id) == []


async def test_an_answer_already_being_graded_is_not_graded_twice(service: Service, store: FakeStore) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card_id = await open_card(service, user)
    await store.set_session(user.id, Grading(card_id=card_id))  # another process claimed it meanwhile
    replies = await drill.submit_answer(
        c.SubmitAnswer(user.id, ANSWER), build(drill.Answers, service.provided), user, Answering(card_id=card_id)
    )
    assert replies == [Reply(t("zh", "already_grading"))] and await store.list_attempts(user.id) == []


async def test_the_answer_is_graded_against_the_stored_session_when_none_is_given(
    service: Service, store: FakeStore
) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    (reply,) = await drill.submit_answer(c.SubmitAnswer(user.id, ANSWER), build(drill.Answers, service.provided), user)
    assert reply.kind == "grade" and len(await store.list_attempts(user.id)) == 1


async def test_a_graded_answer_is_stored_scheduled_and_shown(store: FakeStore, bank: Bank, clock: FakeClock) -> None:
    service, llm = with_llm(store, bank, clock)
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card_id = await open_card(service, user)
    before = await store.get_card(card_id)
    assert before is not None
    (reply,) = await service.handle(
        c.SubmitAnswer(user.id, ANSWER, transcript=ANSWER, audio_ref="a.ogg", audio_seconds=12.5, source="telegram")
    )
    attempt = await latest(service, user)
    assert (attempt.transcript, attempt.audio_ref, attempt.audio_seconds, attempt.source) == (
        ANSWER, "a.ogg", 12.5, "telegram",
    )  # fmt: skip
    assert attempt.status == "graded" and attempt.grader == "llm:stub" and attempt.prompt_version == "p-test"
    assert attempt.tokens == 120 and attempt.rating == int(Rating.EASY) and attempt.graded_at == clock.now()
    assert isinstance(attempt.latency_ms, int) and attempt.card_before == before.fsrs
    state, due = srs.review(before.fsrs, Rating.EASY, clock.now(), user.desired_retention, False)
    card = await store.get_card(card_id)
    assert card is not None and card.fsrs == state and card.due == due and not card.is_new
    assert await store.get_session(user.id) == Idle(last_attempt=attempt.id)
    q = bank.get(card.question_id)
    assert q is not None and attempt.grade is not None and llm.calls[-1][0].id == q.id
    text = render.grade_text(attempt.grade, q, "zh", Rating.EASY, fmt_local(due, TZ))
    # 90 from the LLM beside 30 from the estimate: borderline, so the user is asked to confirm (Easy kept first)
    confirm = t("zh", "grade.confirm", why=t("zh", "confirm.why.gap", score=90, offline=30), rating="简单")
    assert reply.text == text + "\n" + confirm and reply.kind == "grade" and attempt.rating_by == "grade"
    assert (
        reply.buttons[1][0] == Button("✓ 保留简单", f"rate:{attempt.id}:4")
        and reply.default_action == f"rate:{attempt.id}:4"
    )
    assert f"fu:{attempt.id}" in reply.actions() and reply.buttons[0][0].label == t("zh", "btn.reference")


async def test_with_the_llm_down_the_estimate_is_shown_and_queued(
    store: FakeStore, bank: Bank, clock: FakeClock
) -> None:
    service, llm = with_llm(store, bank, clock)
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    llm.down = True
    check, rate = await service.handle_text(user.id, ANSWER)
    attempt = await latest(service, user)
    assert attempt.status == "regrade" and attempt.grader == "offline" and attempt.rating == int(Rating.AGAIN)
    assert attempt.rating_by == "unrated"  # the estimate does not rate: the user does, or the LLM later
    q = bank.get(attempt.question_id)
    assert q is not None and attempt.grade is not None
    assert check.text == checklist.checklist_text(attempt.grade, q, "zh") + "\n" + t("zh", "llm_unavailable")
    assert rate.default_action == f"rate:{attempt.id}:1"  # coverage 30: Again suggested


async def test_a_failed_grading_keeps_the_answer_for_later(
    service: Service, store: FakeStore, grader: FakeGrader
) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card = await store.get_card(await open_card(service, user))
    grader.fail = True
    replies = await service.handle_text(user.id, ANSWER)
    assert replies == [Reply(t("zh", "grading_failed"), next_button("zh"), kind="error")]
    attempt = await latest(service, user)
    assert attempt.status == "regrade" and attempt.answer == ANSWER and attempt.grade is None
    assert await store.get_session(user.id) == Idle(last_attempt=attempt.id)
    assert await store.get_card(attempt.card_id or 0) == card  # not scheduled until graded


async def test_a_question_without_rubric_or_reference_is_self_rated(
    store: FakeStore, clock: FakeClock, grader: FakeGrader
) -> None:
    bare = make_question("pipe-bare-001").model_copy(
        update={"rubric": make_question("x").rubric.model_copy(update={"key_points": []}),
                "reference_answer": Text(zh="", en="Only in English.")}
    )  # fmt: skip
    service = build_test_app(Bank([bare]), grader=grader, store=store, clock=clock).service
    user = await zh_user(service)  # no reference in Chinese: nothing to grade against
    await service.handle_text(user.id, "/drill")
    card = await store.get_card(await open_card(service, user))
    replies = await service.handle_text(user.id, ANSWER)
    attempt = await latest(service, user)
    assert replies == [Reply(t("zh", "self_rate"), [render.rating_buttons(attempt.id, "zh")], kind="grade")]
    assert attempt.status == "self" and grader.calls == [] and await store.get_card(attempt.card_id or 0) == card
    assert await store.get_session(user.id) == Idle(last_attempt=attempt.id)
    # rating it themselves schedules it, from now (it was never graded)
    clock.advance(hours=1)
    await service.handle_action(user.id, f"rate:{attempt.id}:3")
    rated = await latest(service, user)
    assert rated.rating == 3 and rated.graded_at == clock.now()
    assert card is not None
    state, due = srs.review(card.fsrs, Rating.GOOD, clock.now(), user.desired_retention, False)
    after = await store.get_card(card.id)
    assert after is not None and after.fsrs == state and after.due == due


async def test_a_question_with_a_rubric_but_no_reference_is_graded(
    store: FakeStore, clock: FakeClock, grader: FakeGrader
) -> None:
    q = make_question("pipe-norefs-001").model_copy(update={"reference_answer": Text(zh="", en="")})
    service = build_test_app(Bank([q]), grader=grader, store=store, clock=clock).service
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    (reply,) = await service.handle_text(user.id, ANSWER)
    assert reply.kind == "grade" and (await latest(service, user)).status == "graded"


# ---- follow-ups


async def test_a_follow_up_is_graded_against_its_own_rubric_and_leaves_the_card(
    store: FakeStore, bank: Bank, clock: FakeClock
) -> None:
    service, llm = with_llm(store, bank, clock)
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    parent = await latest(service, user)
    card = await store.get_card(parent.card_id or 0)
    (prompt,) = await service.handle_action(user.id, f"fu:{parent.id}")
    text = "Which threshold would you pick?"
    assert prompt == Reply(t("zh", "follow_up_prompt", text=text), kind="question", ask_text=True)
    assert await store.get_session(user.id) == FollowingUp(card_id=card.id, text=text, parent=parent.id)  # type: ignore[union-attr]
    (reply,) = await service.handle_text(user.id, "I would clip at 1.0.")
    question = llm.calls[-1][0]
    assert question.prompt.zh == text and [k.id for k in question.rubric.key_points] == ["fu1", "fu2"]
    done = await latest(service, user)
    assert done.is_follow_up and done.status == "graded" and await store.get_card(card.id) == card  # type: ignore[union-attr]
    assert done.grade is not None and card is not None
    q = bank.get(card.question_id)
    assert q is not None
    shown = render.grade_text(done.grade, question, "zh", rating_from_score(done.grade.score), fmt_local(card.due, TZ))
    assert reply == Reply(shown + "\n" + t("zh", "follow_up_done"), next_button("zh"), kind="grade")
    assert await store.get_session(user.id) == Idle(last_attempt=done.id)


async def test_a_follow_up_whose_parent_is_gone_uses_the_questions_rubric(
    store: FakeStore, bank: Bank, clock: FakeClock
) -> None:
    service, llm = with_llm(store, bank, clock)
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card_id = await open_card(service, user)
    await store.set_session(user.id, FollowingUp(card_id=card_id, text="Why?", parent=999))
    await service.handle_text(user.id, "Because.")
    question = llm.calls[-1][0]
    card = await store.get_card(card_id)
    q = bank.get(card.question_id) if card else None
    assert q is not None and question.prompt.en == "Why?" and question.rubric == q.rubric


async def test_no_follow_up_for_an_attempt_without_one_or_someone_elses(
    service: Service, store: FakeStore, grader: FakeGrader, clock: FakeClock
) -> None:
    user = await zh_user(service)
    other = await zh_user(service, "2")
    none = [Reply(t("zh", "follow_up_none"))]
    await service.handle_text(other.id, "/drill")
    await service.handle_text(other.id, ANSWER)
    theirs = await latest(service, other)
    assert await service.handle_action(user.id, f"fu:{theirs.id}") == none
    grader.follow_up = None
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    mine = await latest(service, user)
    assert await service.handle_action(user.id, f"fu:{mine.id}") == none
    assert await service.handle_action(user.id, "fu:99999") == none
    no_card = await store.add_attempt(theirs.model_copy(update={"id": 0, "user_id": user.id, "card_id": None}))
    assert await service.handle_action(user.id, f"fu:{no_card.id}") == none
    assert await store.get_session(user.id) == Idle(last_attempt=mine.id)


# ---- reveal, skip, rating


async def test_reveal_shows_the_reference_and_reschedules_as_again(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card = await store.get_card(await open_card(service, user))
    assert card is not None
    q = service.deps.bank.get(card.question_id)
    assert q is not None
    replies = await service.handle_text(user.id, "/reveal")
    assert replies == [
        Reply(t("zh", "reference", text=q.reference_answer.zh.strip()), kind="reference"),
        Reply(t("zh", "revealed"), next_button("zh")),
    ]
    attempt = await latest(service, user)
    assert (attempt.card_id, attempt.answer, attempt.status, attempt.rating) == (card.id, "", "revealed", 1)
    assert attempt.card_before == card.fsrs and attempt.graded_at == clock.now()
    state, due = srs.review(card.fsrs, Rating.AGAIN, clock.now(), user.desired_retention, False)
    after = await store.get_card(card.id)
    assert after is not None and after.fsrs == state and after.due == due
    assert await store.get_session(user.id) == Idle(last_attempt=attempt.id)


async def test_reveal_with_nothing_to_show(service: Service, store: FakeStore) -> None:
    user = await zh_user(service)
    nothing = [Reply(t("zh", "no_open_question"))]
    assert await service.handle_text(user.id, "/reveal") == nothing  # idle, nothing answered yet
    await store.set_session(user.id, Answering(card_id=999))  # the open card is gone
    assert await service.handle_text(user.id, "/reveal") == nothing
    other = await zh_user(service, "2")
    await service.handle_text(other.id, "/drill")
    await service.handle_text(other.id, ANSWER)
    theirs = await latest(service, other)
    assert await service.handle_action(user.id, f"ref:{theirs.id}") == nothing


async def test_the_reference_of_an_earlier_answer_leaves_the_open_question_open(
    service: Service, store: FakeStore
) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    answered = await latest(service, user)
    q = service.deps.bank.get(answered.question_id)
    assert q is not None
    reference = Reply(t("zh", "reference", text=q.reference_answer.zh.strip()), kind="reference")
    assert await service.handle_action(user.id, "ref") == [reference]  # the last answer's, from the session
    await service.handle_text(user.id, "/drill")
    open_now = await open_card(service, user)
    assert await service.handle_action(user.id, f"ref:{answered.id}") == [reference]
    assert await open_card(service, user) == open_now and len(await store.list_attempts(user.id)) == 1


async def test_a_reference_of_a_question_that_left_the_bank_or_has_none(
    store: FakeStore, clock: FakeClock, grader: FakeGrader
) -> None:
    q = make_question("pipe-enonly-001").model_copy(update={"reference_answer": Text(zh=" ", en="English only.")})
    service = build_test_app(Bank([q]), grader=grader, store=store, clock=clock).service
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    answered = await latest(service, user)
    assert await service.handle_action(user.id, f"ref:{answered.id}") == [Reply(t("zh", "reference_none"))]
    gone = await store.add_attempt(answered.model_copy(update={"id": 0, "question_id": "gone-001"}))
    assert await service.handle_action(user.id, f"ref:{gone.id}") == [Reply(t("zh", "not_found"))]


async def test_skip(service: Service, store: FakeStore, clock: FakeClock) -> None:
    user = await zh_user(service)
    assert await service.handle_text(user.id, "/skip") == [Reply(t("zh", "no_open_question"))]
    await service.handle_text(user.id, "/drill")
    card_id = await open_card(service, user)
    assert await service.handle_text(user.id, "/skip") == [Reply(t("zh", "skipped"), next_button("zh"))]
    card = await store.get_card(card_id)
    assert card is not None and card.due == clock.now() + timedelta(days=1)
    assert await store.get_session(user.id) == Idle()


async def test_a_rating_override_reschedules_from_the_answer(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    attempt = await latest(service, user)
    assert attempt.card_before is not None and attempt.graded_at is not None
    clock.advance(hours=5)
    replies = await service.handle_action(user.id, f"rate:{attempt.id}:2")
    state, due = srs.review(attempt.card_before, Rating.HARD, attempt.graded_at, user.desired_retention, False)
    card = await store.get_card(attempt.card_id or 0)
    assert card is not None and card.fsrs == state and card.due == due
    rated = await latest(service, user)
    assert rated.rating == 2 and rated.graded_at == attempt.graded_at
    text = t("zh", "rating_set", rating=t("zh", "rating.2"), due=fmt_local(due, TZ))
    assert replies == [Reply(text, next_button("zh"))]


@pytest.mark.parametrize("rating", [0, 5])
async def test_a_rating_out_of_range_is_refused(service: Service, store: FakeStore, rating: int) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    attempt = await latest(service, user)
    card = await store.get_card(attempt.card_id or 0)
    assert await service.handle(c.OverrideRating(user.id, attempt.id, rating)) == [Reply(t("zh", "not_found"))]
    assert await store.get_card(attempt.card_id or 0) == card


async def test_a_rating_of_a_follow_up_someone_elses_or_a_stale_answer_is_refused(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    user = await zh_user(service)
    other = await zh_user(service, "2")
    not_found = [Reply(t("zh", "not_found"))]
    await service.handle_text(other.id, "/drill")
    await service.handle_text(other.id, ANSWER)
    assert await service.handle_action(user.id, f"rate:{(await latest(service, other)).id}:3") == not_found
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    first = await latest(service, user)
    await service.handle_action(user.id, f"fu:{first.id}")
    await service.handle_text(user.id, "A follow-up answer.")
    follow_up = await latest(service, user)
    assert follow_up.is_follow_up and follow_up.card_id == first.card_id
    assert await service.handle_action(user.id, f"rate:{follow_up.id}:3") == not_found
    card = await store.get_card(first.card_id or 0)
    assert card is not None
    clock.current = card.due  # answered again: the first answer's rating can no longer change the card
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    assert await service.handle_action(user.id, f"rate:{first.id}:4") == [Reply(t("zh", "rating_stale"))]


async def test_a_skipped_new_question_comes_back_tagged_new(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    card_id = await open_card(service, user)
    await service.handle_text(user.id, "/skip")
    clock.advance(days=1)
    card = await store.get_card(card_id)
    q = service.deps.bank.get(card.question_id) if card else None
    assert card is not None and card.is_new and q is not None
    (reply,) = await service.handle_text(user.id, "/drill")
    assert (
        reply.text.startswith(render.question_text(q, "zh", "new") + "\n\n")
        and await open_card(service, user) == card_id
    )


async def test_reveal_during_a_follow_up_has_nothing_to_show(service: Service, store: FakeStore) -> None:
    user = await zh_user(service)
    await service.handle_text(user.id, "/drill")
    await service.handle_text(user.id, ANSWER)
    await service.handle_action(user.id, f"fu:{(await latest(service, user)).id}")
    assert await service.handle_text(user.id, "/reveal") == [Reply(t("zh", "no_open_question"))]
    assert isinstance(await store.get_session(user.id), FollowingUp)  # the follow-up is still open
