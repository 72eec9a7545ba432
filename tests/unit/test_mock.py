"""The mock interview end to end on the core with fakes: a whole session (text and a voice answer), quiet
grades and follow-ups, reviews for every answer, /mock stop, one at a time, history, the LLM failing in the
middle, /forget and /export."""

from __future__ import annotations

import json

from bot.features.deps import Deps
from bot.features.mock import plan as mock_plan
from bot.grading.offline import OfflineGrader
from bot.kernel import commands as c
from bot.kernel.service import Service
from bot.kernel.session import Idle, InMock
from tests.fakes import FakeClock, FakeGrader, FakeStore, FakeTranscriber
from tests.mock_helpers import CASE_ANSWER, PLAIN_ANSWER, answer_all, mock_deps


async def _setup(deps: Deps, lang: str = "en") -> tuple[Service, int]:
    service = Service(deps)
    user = await service.user_for("console", "local", lang)  # type: ignore[arg-type]
    return service, user.id


async def test_a_whole_mock_asks_quietly_follows_up_and_ends_with_a_debrief() -> None:
    store, clock, grader = FakeStore(), FakeClock(), FakeGrader(score=70)
    service, uid = await _setup(mock_deps(store, grader, clock))
    started = await service.handle_text(uid, "/mock stability engineer 5")
    assert "5 questions" in started[0].text and started[-1].kind == "question"
    assert "Question 1 of 5 · about" in started[-1].text
    replies = await answer_all(service, uid, clock)
    mid = [r for r in replies if r.kind != "report"]
    assert not any("Score" in r.text or "70" in r.text for r in mid)  # no grade mid-session
    follow_ups = [r for r in mid if r.text.startswith("Follow-up")]
    assert len(follow_ups) == 5  # one each: 70 is not weak enough for a second
    assert all(grader.follow_up in r.text for r in follow_ups)  # a grader that is not an estimate writes its own
    report = "\n".join(r.text for r in replies if r.kind == "report")
    assert "Overall: 70/100 · hire" in report and "By dimension: coverage 70" in report
    assert report.count("answered in 2:00") == 5 and "Missed:" in report and "Reference in one sentence:" in report
    assert "STAR check:" in report  # the engineer round has a case question
    assert "This is your first mock interview" in report
    [mock] = store.mocks.values()
    assert mock.state == "finished" and mock.summary is not None and mock.summary.score == 70
    assert [i.answer_seconds for i in mock.items] == [120.0] * 5
    # every answered question is an FSRS review; follow-ups are not
    attempts = list(store.attempts.values())
    main = [a for a in attempts if not a.is_follow_up]
    assert len(main) == 5 and len(attempts) == 10
    for a in main:
        card = store.cards[a.card_id]  # type: ignore[index]
        assert a.rating == 3 and a.status == "graded" and not card.is_new and card.due > a.created_at
    assert isinstance(store.sessions[uid], Idle)


async def test_the_plan_covers_types_and_subtopics_and_mixes_due_and_new() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    # one question already in the deck and due: it is asked among the new ones
    from bot.kernel import srs

    due = await store.create_card(uid, "stab-dist-004", srs.new_state(clock.now()), clock.now(), False, clock.now())
    store.cards[due.id] = due.model_copy(update={"is_new": False})
    await service.handle_text(uid, "/mock mixed engineer 5")
    [mock] = store.mocks.values()
    qs = [service.deps.bank.get(i.question_id) for i in mock.items]
    types = {q.type for q in qs if q}
    assert "fault" in types and types & {"compare", "concept"} and "case" in types
    assert len({q.subtopic for q in qs if q}) >= 4
    assert "stab-dist-004" in [q.id for q in qs if q]
    await service.handle_text(uid, "/mock stop")
    await service.handle_text(uid, "/mock campus 3")
    campus = next(m for m in store.mocks.values() if m.state == "running")
    ctypes = [service.deps.bank.get(i.question_id).type for i in campus.items]  # type: ignore[union-attr]
    assert len(ctypes) == 3 and "fault" in ctypes and set(ctypes) & {"compare", "concept"}


async def test_a_weak_answer_gets_two_follow_ups() -> None:
    store, clock = FakeStore(), FakeClock()
    grader = FakeGrader(score=40)
    service, uid = await _setup(mock_deps(store, grader, clock))
    await service.handle_text(uid, "/mock stability 3")
    first = await service.handle_text(uid, PLAIN_ANSWER)
    assert first[-1].text.startswith("Follow-up")
    grader.follow_up = "And how would you verify the fix?"
    second = await service.handle_text(uid, "a short follow-up answer")
    assert second[-1].text.startswith("Follow-up") and "verify the fix" in second[-1].text
    third = await service.handle_text(uid, "another")
    assert third[-1].text.startswith("Question 2 of 3")


async def test_a_voice_answer_is_transcribed_and_timed_by_its_audio() -> None:
    store, clock = FakeStore(), FakeClock()
    deps = mock_deps(store, FakeGrader(), clock)
    deps.transcriber = FakeTranscriber(seconds=42.0)
    service, uid = await _setup(deps)
    await service.handle_text(uid, "/mock stability 3")
    clock.advance(minutes=9)  # the clock says nine minutes; the audio says 42 s
    replies = await service.handle(c.SubmitVoice(uid, b"OggS fake", "a.ogg", 42.0))
    assert replies[0].kind == "transcript" and replies[-1].text.startswith("Follow-up")
    [mock] = store.mocks.values()
    assert mock.items[0].answer_seconds == 42.0 and mock.items[0].voice
    attempt = store.attempts[mock.items[0].attempt_id]  # type: ignore[index]
    assert attempt.audio_seconds == 42.0 and attempt.transcript
    replies = await answer_all(service, uid, clock)
    report = "\n".join(r.text for r in replies if r.kind == "report")
    assert "answered in 0:42" in report and report.count("Speaking (") == 1 and "Speaking (42 s):" in report


async def test_stop_reports_what_was_answered_and_history_lists_it() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(score=82), clock))
    await service.handle_text(uid, "/mock stability 5")
    for _ in range(4):  # question 1, its follow-up, question 2, its follow-up: question 3 is asked
        await service.handle_text(uid, PLAIN_ANSWER)
    replies = await service.handle_text(uid, "/mock stop")
    assert "Mock interview stopped: 2 of 5 answered." in replies[0].text
    report = "\n".join(r.text for r in replies if r.kind == "report")
    assert "Overall: 82/100 · strong hire" in report and "Q1 ·" in report and "Q2 ·" in report
    assert "Q3 ·" in report and "Not answered." in report  # asked but not answered
    assert "Q4 ·" not in report
    assert isinstance(store.sessions[uid], Idle) and [m.state for m in store.mocks.values()] == ["stopped"]
    assert "no mock interview is running" in (await service.handle_text(uid, "/mock stop"))[0].text.lower()
    history = (await service.handle_text(uid, "/mock history"))[0].text
    assert "training stability · 2/5 answered · 82 (strong hire) (stopped early)" in history


async def test_one_mock_at_a_time_and_a_second_one_is_compared_with_the_first() -> None:
    store, clock = FakeStore(), FakeClock()
    grader = FakeGrader(score=60)
    service, uid = await _setup(mock_deps(store, grader, clock))
    await service.handle_text(uid, "/mock stability 3")
    again = await service.handle_text(uid, "/mock pipeline")
    assert "still running" in again[0].text and again[-1].text.startswith("Question 1 of 3")
    assert len(store.mocks) == 1
    await service.handle_text(uid, "/drill")  # leaves the mock's state; /mock takes it up again
    back = await service.handle_text(uid, "/mock")
    assert "still running" in back[0].text and isinstance(store.sessions[uid], InMock)
    await answer_all(service, uid, clock)
    grader.score = 75
    clock.advance(days=1)
    await service.handle_text(uid, "/mock stability 3")
    replies = await answer_all(service, uid, clock)
    report = "\n".join(r.text for r in replies if r.kind == "report")
    assert "Compared with your last mock (2026-03-02" in report and "60 → 75 (+15)" in report
    stats = (await service.handle_text(uid, "/stats"))[0].text
    assert "Mock interviews: 2; scores 60 → 75 (the last: hire)." in stats


async def test_the_suggested_mock_starts_in_one_tap() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    shown = await service.handle_text(uid, "/mock")
    assert "Suggested mock interview: mixed" in shown[0].text and shown[0].actions()[0] == "mk:go"
    started = await service.handle_action(uid, "mk:go")
    assert started[-1].kind == "question" and len(store.mocks) == 1
    assert (await service.handle_text(uid, "/mock stop"))[0].text.startswith("Mock interview stopped")


async def test_bad_input_gets_a_clear_reply_in_the_users_language() -> None:
    service, uid = await _setup(mock_deps(), "zh")
    assert "3 到 6 道题" in (await service.handle_text(uid, "/mock 9"))[0].text
    assert "还没有记录过 Acme 的面试题" in (await service.handle_text(uid, "/mock Acme"))[0].text
    assert "当前没有进行中的模拟面试" in (await service.handle_text(uid, "/mock stop"))[0].text


async def test_a_company_focus_asks_what_that_company_asked() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    await service.handle_text(uid, "/review Acme | How do you handle an FP16 loss that turns NaN?")
    await service.handle_text(uid, "/mock acme 3")
    [mock] = store.mocks.values()
    assert mock.focus == "company" and mock.company == "Acme"
    asked = {i.subtopic for i in store.review_items.values()}
    qs = [service.deps.bank.get(i.question_id) for i in mock.items]
    assert any(q is not None and q.subtopic in asked for q in qs)


async def test_the_llm_failing_mid_session_degrades_to_offline_with_a_notice_and_a_regrade() -> None:
    store, clock = FakeStore(), FakeClock()
    llm = FakeGrader(score=70)
    deps = mock_deps(store, llm, clock)
    deps.grader.estimator = OfflineGrader(semantic=False)
    service, uid = await _setup(deps)
    await service.handle_text(uid, "/mock stability 3")
    await service.handle_text(uid, PLAIN_ANSWER)  # question 1, graded by the "LLM"
    await service.handle_text(uid, PLAIN_ANSWER)  # its follow-up
    llm.fail = True
    replies = await service.handle_text(uid, PLAIN_ANSWER)  # question 2: the LLM is down
    assert "graded offline for now" in replies[0].text and "The interview goes on" in replies[0].text
    [mock] = store.mocks.values()
    second = store.attempts[mock.items[1].attempt_id]  # type: ignore[index]
    assert second.status == "regrade" and second.grade is not None and second.grade.estimate
    assert store.cards[second.card_id].is_new is False  # type: ignore[index]  # still a review
    q2 = deps.bank.get(mock.items[1].question_id)
    assert q2 is not None and mock.items[1].follow_ups[0].bank_index is not None  # the bank's own follow-up
    assert replies[-1].text.endswith(q2.follow_ups[mock.items[1].follow_ups[0].bank_index].en)  # type: ignore[index]
    rest = await answer_all(service, uid, clock)
    assert any(r.kind == "report" for r in rest)


async def test_forget_deletes_mocks_and_export_includes_them() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    await service.handle_text(uid, "/mock stability 3")
    await service.handle_text(uid, CASE_ANSWER)
    exported = await service.handle_text(uid, "/export")
    data = json.loads(exported[0].file.data)  # type: ignore[union-attr]
    assert len(data["mock_interviews"]) == 1 and data["mock_interviews"][0]["items"][0]["attempt_id"]
    await service.handle_text(uid, "/forget")
    await service.handle_action(uid, "forget:yes")
    assert store.mocks == {}


class PromptRecordingGrader(FakeGrader):
    def __init__(self) -> None:
        super().__init__(score=70)
        self.prompts: list[str] = []

    async def grade(self, question, answer, lang, level="engineer"):  # type: ignore[no-untyped-def]
        self.prompts.append(question.prompt.en)
        return await super().grade(question, answer, lang, level)


async def test_the_regrade_after_an_outage_stays_quiet_and_grades_the_follow_up_that_was_asked() -> None:
    from bot.features.drill.regrade import Regrading, regrade_pending
    from bot.kernel.inject import build
    from bot.kernel.ports import Delivery

    store, clock, llm = FakeStore(), FakeClock(), PromptRecordingGrader()
    deps = mock_deps(store, llm, clock)
    deps.grader.estimator = OfflineGrader(semantic=False)
    service, uid = await _setup(deps)
    await service.handle_text(uid, "/mock stability 3")
    llm.fail = True
    await service.handle_text(uid, PLAIN_ANSWER)  # offline: the bank's follow-up for the weakest point is asked
    await service.handle_text(uid, "I would look at the scale history.")
    [mock] = store.mocks.values()
    fu = mock.items[0].follow_ups[0]
    assert fu.bank_index is not None and {a.status for a in store.attempts.values()} == {"regrade"}
    llm.fail, sent = False, []

    async def notify(user_id: int, replies: list) -> Delivery:  # type: ignore[type-arg]
        sent.append(replies)
        return Delivery.DELIVERED

    assert await regrade_pending(build(Regrading, deps.provided()), notify) == 2
    assert sent == []  # the mock is still running: no grade shown mid-session
    assert llm.prompts[-1] == service.deps.bank.get(mock.items[0].question_id).follow_ups[fu.bank_index].en  # type: ignore[union-attr]
    assert {a.status for a in store.attempts.values()} == {"graded"}


async def test_the_weakest_focus_leads_with_the_lowest_scored_subtopics() -> None:
    from tests.contract.store.helpers import attempt, graded

    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    scores = {"stab-ckpt-001": 20, "stab-init-002": 30, "stab-monitor-001": 90, "stab-attn-001": 95}
    for qid, score in scores.items():
        await store.add_attempt(attempt(uid, qid, grade=graded(score), status="graded"))
    shown = await service.handle_text(uid, "/mock")
    assert "Suggested mock interview: your weakest subtopics" in shown[0].text  # three graded answers or more
    await service.handle_action(uid, "mk:go")
    [mock] = store.mocks.values()
    subtopics = [service.deps.bank.get(i.question_id).subtopic for i in mock.items]  # type: ignore[union-attr]
    assert {"checkpointing", "initialization"} <= set(subtopics) and len(subtopics) == 5  # topped up to five
    await service.handle_text(uid, "/mock stop")
    await service.handle_text(uid, "/mock weakest campus 3")
    short = next(m for m in store.mocks.values() if m.state == "running")
    chosen = {service.deps.bank.get(i.question_id).subtopic for i in short.items}  # type: ignore[union-attr]
    assert chosen == {"checkpointing", "initialization", "stability-metrics"}


async def test_a_focus_with_one_fitting_question_says_so_in_the_singular() -> None:
    from bot.kernel.bank import Bank

    store, clock = FakeStore(), FakeClock()
    deps = mock_deps(store, FakeGrader(), clock)
    deps.bank = Bank([q for q in deps.bank.all() if q.id == "pipe-actckpt-case-001"])
    service, uid = await _setup(deps)
    started = await service.handle_text(uid, "/mock pipeline 3")
    assert "Mock interview: training pipeline, Engineer, 1 question." in started[0].text
    assert "This focus has only 1 question in the bank, so the round is shorter." in started[0].text


async def test_history_in_chinese_reads_with_full_width_punctuation() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(score=66), clock), "zh")
    await service.handle_text(uid, "/mock stability 3")
    await answer_all(service, uid, clock)
    history = (await service.handle_text(uid, "/mock history"))[0].text
    assert history == "你的模拟面试记录：\n2026-03-02 09:00 · 训练稳定性 · 答了 3/3 题 · 66 分（推荐录用）"


async def test_a_question_whose_card_was_deleted_mid_mock_can_still_be_answered() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    await service.handle_text(uid, "/mock stability 3")
    [mock] = store.mocks.values()
    del store.cards[mock.items[0].card_id]  # type: ignore[arg-type]
    again = await service.handle_text(uid, PLAIN_ANSWER)  # asked again, with a card of its own
    assert again[-1].text.startswith("Question 1 of 3")
    answered = await service.handle_text(uid, PLAIN_ANSWER)
    assert answered[-1].text.startswith("Follow-up")
    item = store.mocks[mock.id].items[0]
    assert item.attempt_id is not None and item.card_id in store.cards


async def test_an_answer_cut_off_while_grading_is_kept_and_the_question_asked_again() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    await service.handle_text(uid, "/mock stability 3")
    [mock] = store.mocks.values()
    # the process stopped while grading: the attempt was stored and the session claimed, nothing after
    from bot.kernel.models import Attempt

    claimed = InMock(mock_id=mock.id, step=0, grading=True)
    cut = await store.open_attempt(
        Attempt(id=0, user_id=uid, card_id=mock.items[0].card_id, question_id=mock.items[0].question_id,
                answer="my first answer", source=f"mock:{mock.id}", created_at=clock.now()),
        InMock(mock_id=mock.id), claimed,
    )  # fmt: skip
    assert cut is not None
    clock.advance(minutes=1)
    assert "being graded already" in (await service.handle_text(uid, "again"))[0].text  # it may still be running
    clock.advance(minutes=3)
    replies = await service.handle_text(uid, "again")
    assert "cut off while it was being graded" in replies[0].text and replies[-1].text.startswith("Question 1 of 3")
    assert store.attempts[cut.id].status == "regrade"  # kept: the regrade worker grades it
    assert (await service.handle_text(uid, PLAIN_ANSWER))[-1].text.startswith("Follow-up")


async def test_skip_passes_on_a_question_or_a_follow_up_and_reveal_waits_for_the_debrief() -> None:
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(score=60), clock))
    await service.handle_text(uid, "/mock stability 3")
    hidden = await service.handle_text(uid, "/reveal")
    assert "reference answer is in the debrief" in hidden[0].text
    skipped = await service.handle_text(uid, "/skip")  # question 1
    assert skipped[0].text == "Skipped. Moving on." and skipped[-1].text.startswith("Question 2 of 3")
    await service.handle_text(uid, PLAIN_ANSWER)  # question 2 (60: two follow-ups earned)
    passed = await service.handle_text(uid, "/skip")  # its first follow-up: no second one then
    assert passed[-1].text.startswith("Question 3 of 3")
    replies = await answer_all(service, uid, clock)
    report = "\n".join(r.text for r in replies if r.kind == "report")
    assert "Q1 ·" in report and "Skipped (counted as 0)." in report
    assert "Overall: 40/100 · no hire" in report  # (0 + 60 + 60) / 3
    [mock] = store.mocks.values()
    assert mock.items[0].skipped and mock.items[0].attempt_id is None and mock.items[1].follow_ups[0].skipped
    assert len(mock.items[1].follow_ups) == 1
    drill = await service.handle_text(uid, "/skip")  # no mock now: the drill's /skip
    assert "no open question" in drill[0].text.lower()


async def test_a_company_typed_in_full_width_letters_is_the_company_logged() -> None:
    """Company names fold as everywhere (bot/text/fold.py): full-width letters, case and spaces make no other company."""
    store, clock = FakeStore(), FakeClock()
    service, uid = await _setup(mock_deps(store, FakeGrader(), clock))
    await service.handle_text(uid, "/review OpenAI | How do you handle an FP16 loss that turns NaN?")
    started = await service.handle_text(uid, "/mock ＯｐｅｎＡＩ 3")
    assert started[-1].kind == "question"
    [mock] = store.mocks.values()
    assert mock.focus == "company" and mock.company == "OpenAI"
    await service.handle_text(uid, "/mock stop")
    assert (
        "No interview questions from Anthropic are logged yet"
        in (await service.handle_text(uid, "/mock Anthropic"))[0].text
    )


async def test_two_spellings_of_one_company_are_one_company_in_the_plan() -> None:
    store, clock = FakeStore(), FakeClock()
    deps = mock_deps(store, FakeGrader(), clock)
    service, uid = await _setup(deps)
    await service.handle_text(uid, "/review OpenAI | How do you handle an FP16 loss that turns NaN?")
    clock.advance(minutes=1)
    await service.handle_text(uid, "/review ＯＰＥＮＡＩ | How do you shard optimizer states across ranks?")
    user = await store.get_user(uid)
    assert user is not None
    assert await mock_plan.companies(deps.store, user) == ["ＯＰＥＮＡＩ"]  # one company, as last logged
    _, questions = await mock_plan.company_subtopics(deps.store, user, "openai")
    assert len(questions) == 2 and len(store.review_items) == 2
