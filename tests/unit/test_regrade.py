"""The regrade worker's rules (bot/features/drill/regrade.py) with hand-written fakes: which attempts it takes,
what it grades them against, what it stores and schedules, and what the user is sent."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import pytest

from bot.features.drill import checklist
from bot.features.drill.regrade import Regrading, regrade_pending
from bot.kernel import commands as c
from bot.kernel import render, srs
from bot.kernel.bank import Bank
from bot.kernel.i18n import t
from bot.kernel.inject import build
from bot.kernel.models import DIMENSIONS, Attempt, Grade, KeyPointResult, Question, Rating
from bot.kernel.ports import Delivery, GraderUnavailable
from bot.kernel.replies import Reply
from bot.kernel.scoring import total_score
from bot.kernel.service import Service
from bot.kernel.timeutil import fmt_local
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader, FakeStore

LONG_PROMPT = (
    "How does ZeRO stage 3 partition optimizer states, gradients and parameters across the data-parallel "
    "ranks, and what does it cost in communication?"
)
ANSWER = "Each rank keeps a shard of the parameters and gathers them layer by layer before use."


class LLMStub:
    """The LLM grader: down (raises) or up (every dimension `score`); records what it was asked to grade."""

    id = "llm:stub"

    def __init__(self) -> None:
        self.down = False
        self.score = 90
        self.tokens = 120
        self.follow_up: str | None = "Which threshold would you pick?"
        self.calls: list[tuple[Question, str, str, str]] = []
        self.meanwhile: Callable[[], Awaitable[None]] | None = None
        """Runs once while the next grading is under way: what users do during the call."""

    async def grade(self, question: Question, answer: str, lang: str, level: str = "engineer") -> Grade:
        self.calls.append((question, answer, lang, level))
        if self.down:
            raise GraderUnavailable("the LLM is down")
        meanwhile, self.meanwhile = self.meanwhile, None
        if meanwhile is not None:
            await meanwhile()
        dims = {d: self.score for d in DIMENSIONS}
        return Grade(
            score=total_score(dims, question.type),
            dimensions=dims,
            key_points=[KeyPointResult(id=k.id, verdict="hit") for k in question.rubric.key_points],
            feedback="Clear and complete.",
            follow_up=self.follow_up,
            follow_up_points=["names a threshold", "says why"] if self.follow_up else [],
            grader=self.id,
            estimate=False,
            prompt_version="p-test",
            tokens=self.tokens,
        )


class Recording:
    """The store, recording the LLM calls it is told of and refusing the claims of `taken` attempts
    (another worker has them)."""

    def __init__(self, inner: FakeStore) -> None:
        self.inner = inner
        self.llm_calls: list[tuple[int | None, str, int, datetime]] = []
        self.taken: set[int] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def record_llm_call(self, user_id: int | None, kind: str, tokens: int, at: datetime) -> None:
        self.llm_calls.append((user_id, kind, tokens, at))
        await self.inner.record_llm_call(user_id, kind, tokens, at)

    async def claim_attempt(
        self, attempt_id: int, from_status: str, to_status: str, now: datetime | None = None
    ) -> bool:
        if attempt_id in self.taken:
            return False
        return await self.inner.claim_attempt(attempt_id, from_status, to_status, now)


class Outbox:
    """The notifier: what each user was sent, answering `delivery`."""

    def __init__(self, delivery: Delivery = Delivery.DELIVERED) -> None:
        self.delivery = delivery
        self.sent: list[tuple[int, list[Reply]]] = []

    async def __call__(self, user_id: int, replies: list[Reply]) -> Delivery:
        self.sent.append((user_id, replies))
        return self.delivery


class World:
    def __init__(self, store: FakeStore, clock: FakeClock, estimator: FakeGrader | None) -> None:
        self.store = Recording(store)
        self.clock = clock
        self.llm = LLMStub()
        bank = Bank([make_question("pipe-long-001", prompt_en=LONG_PROMPT, prompt_zh="ZeRO-3 如何切分" + "参数" * 50)])
        self.deps = build_test_app(bank, grader=self.llm, estimator=estimator, store=self.store, clock=clock).deps
        self.service = Service(self.deps)

    async def user(self, external: str = "1", **settings: Any) -> int:
        user = await self.service.user_for("test", external)
        await self.store.save_user(user.model_copy(update=settings))
        return user.id

    async def queued_answer(self, uid: int, text: str = ANSWER) -> Attempt:
        """The user answers the question of the day while the LLM is down: the answer waits for a regrade."""
        self.llm.down = True
        await self.service.handle_text(uid, "/drill")
        await self.service.handle_text(uid, text)
        self.llm.down = False
        attempt = max(await self.store.list_attempts(uid), key=lambda a: a.id)
        assert attempt.status == "regrade"
        return attempt


@pytest.fixture
def world(store: FakeStore, clock: FakeClock) -> World:
    """The LLM and an offline estimator that gives 30 (Again) with its own follow-up."""
    return World(store, clock, FakeGrader(score=30, follow_up="An estimate's follow-up?"))


async def attempt(world: World, attempt_id: int) -> Attempt:
    found = await world.store.get_attempt(attempt_id)
    assert found is not None
    return found


async def test_the_llm_grade_replaces_the_estimate_and_reschedules_the_card(world: World) -> None:
    uid = await world.user(level="researcher", timezone="Asia/Shanghai")
    queued = await world.queued_answer(uid)
    assert queued.rating == int(Rating.AGAIN) and queued.tokens == 0  # the estimate's 30
    world.clock.advance(hours=3)
    outbox = Outbox()

    assert await regrade_pending(build(Regrading, world.deps.provided()), outbox) == 1

    done = await attempt(world, queued.id)
    assert done.status == "graded" and done.grader == "llm:stub" and done.prompt_version == "p-test"
    assert done.grade is not None and done.grade.score == 90 and done.rating == int(Rating.EASY)
    assert done.tokens == 120 and done.graded_at == queued.graded_at  # graded when answered, not now
    # the card is scheduled again from its state before the answer, with the LLM's rating at the answer's time
    assert queued.card_before is not None and queued.graded_at is not None
    state, due = srs.review(queued.card_before, Rating.EASY, queued.graded_at, 0.9, False)
    card = await world.store.get_card(queued.card_id or 0)
    assert card is not None and card.fsrs == state and card.due == due and not card.is_new
    # graded against the question itself, in the user's language and level; the call is counted as a regrade
    question, answer, lang, level = world.llm.calls[-1]
    assert (question.id, question.prompt.en, answer, lang, level) == (
        "pipe-long-001", LONG_PROMPT, ANSWER, "en", "researcher",
    )  # fmt: skip
    assert world.store.llm_calls[-1] == (uid, "regrade", 120, world.clock.now())
    # the user is told: the question (cut at 80 characters), the new grade, the next review in their timezone
    ((to, (reply,)),) = outbox.sent
    q = world.deps.bank.get("pipe-long-001")
    assert q is not None and done.grade is not None
    head = t("en", "regraded", prompt=LONG_PROMPT[:80])
    body = render.grade_text(done.grade, q, "en", Rating.EASY, fmt_local(due, "Asia/Shanghai"))
    assert to == uid and reply.text == head + "\n" + body and reply.kind == "grade"
    assert fmt_local(due, "Asia/Shanghai") != fmt_local(due, "UTC")
    assert reply.buttons == checklist.llm_buttons(done, "en", True)
    assert f"fu:{queued.id}" in reply.actions() and f"dis:{queued.id}" in reply.actions()
    user = await world.store.get_user(uid)
    assert user is not None and not user.paused  # delivered: the user keeps their pushes


async def test_the_service_runs_the_regrade_round_the_scheduler_sends(world: World) -> None:
    uid, other = await world.user("1"), await world.user("2")
    first, second = await world.queued_answer(uid), await world.queued_answer(other)
    outbox = Outbox()
    assert await world.service.run_job(c.RegradeRound(limit=1), outbox) == 1  # one at most, as the job says
    assert (await attempt(world, first.id)).status == "graded" and (await attempt(world, second.id)).status == "regrade"
    assert [to for to, _ in outbox.sent] == [uid]
    assert await world.service.run_job(c.RegradeRound()) == 1  # no way to reach users: graded, nobody told
    assert (await attempt(world, second.id)).status == "graded" and len(outbox.sent) == 1
    assert (await world.service.handle_text(uid, "/regraderound"))[-1].kind == "error"  # no name a user types


async def test_a_chinese_user_is_told_in_chinese(world: World) -> None:
    uid = await world.user(language="zh")
    queued = await world.queued_answer(uid, "每个 rank 只保存一部分参数，用之前再逐层收集。")
    outbox = Outbox()
    assert await regrade_pending(build(Regrading, world.deps.provided()), outbox) == 1
    ((_, (reply,)),) = outbox.sent
    q = world.deps.bank.get("pipe-long-001")
    assert q is not None
    assert reply.text.startswith(t("zh", "regraded", prompt=q.prompt.zh[:80]) + "\n")
    assert t("zh", "grade.header.llm", score=90, rating=t("zh", "rating.4")) in reply.text
    assert reply.buttons == checklist.llm_buttons(await attempt(world, queued.id), "zh", True)
    assert world.llm.calls[-1][2] == "zh"


async def test_an_answer_with_no_grade_at_all_is_graded_and_scheduled(store: FakeStore, clock: FakeClock) -> None:
    world = World(store, clock, estimator=None)  # no offline estimate: the answer was kept ungraded
    uid = await world.user()
    world.llm.down = True
    await world.service.handle_text(uid, "/drill")
    r = await world.service.handle_text(uid, ANSWER)
    assert r[0].kind == "error"
    (queued,) = await world.store.list_attempts(uid)
    assert queued.status == "regrade" and queued.grade is None and queued.rating is None
    card = await world.store.get_card(queued.card_id or 0)
    assert card is not None and card.is_new  # not reviewed yet
    world.llm.down = False
    world.clock.advance(hours=2)

    assert await regrade_pending(build(Regrading, world.deps.provided()), Outbox()) == 1

    done = await attempt(world, queued.id)
    assert done.status == "graded" and done.rating == int(Rating.EASY) and done.graded_at == world.clock.now()
    assert queued.card_before is not None
    state, due = srs.review(queued.card_before, Rating.EASY, queued.created_at, 0.9, False)
    card = await world.store.get_card(queued.card_id or 0)
    assert card is not None and card.fsrs == state and card.due == due and not card.is_new


async def test_a_newer_answer_to_the_card_keeps_its_schedule(world: World) -> None:
    uid = await world.user(timezone="Asia/Shanghai")
    queued = await world.queued_answer(uid)
    world.clock.advance(days=30)  # the card is due again and answered with the LLM up
    await world.service.handle_text(uid, "/drill")
    await world.service.handle_text(uid, ANSWER)
    card_before = await world.store.get_card(queued.card_id or 0)
    outbox = Outbox()

    assert await regrade_pending(build(Regrading, world.deps.provided()), outbox) == 1

    done = await attempt(world, queued.id)
    assert done.status == "graded" and done.grade is not None and done.grade.score == 90
    assert done.rating == queued.rating  # not the one scheduled by: the estimate's rating stays
    assert await world.store.get_card(queued.card_id or 0) == card_before
    ((_, (reply,)),) = outbox.sent
    assert (
        card_before is not None
        and t("en", "grade.next_due", due=fmt_local(card_before.due, "Asia/Shanghai")) in reply.text
    )
    # shown with the rating this grade earns (not "90/100 (Again)"), and why the schedule did not move
    assert t("en", "grade.header.llm", score=90, rating=t("en", "rating.4")) in reply.text
    assert reply.text.endswith(t("en", "regraded.overtaken"))


async def test_the_rating_the_user_chose_is_kept_and_shown(world: World) -> None:
    uid = await world.user()
    queued = await world.queued_answer(uid)
    await world.service.handle_action(uid, f"rate:{queued.id}:2")  # the user says: Hard (the estimate said Again)
    card_before = await world.store.get_card(queued.card_id or 0)
    outbox = Outbox()
    assert await regrade_pending(build(Regrading, world.deps.provided()), outbox) == 1
    done = await attempt(world, queued.id)
    assert done.rating == int(Rating.HARD) and await world.store.get_card(queued.card_id or 0) == card_before
    ((_, (reply,)),) = outbox.sent
    assert done.rating_by == "user"
    assert t("en", "grade.header.llm", score=90, rating=t("en", "rating.4")) in reply.text  # the grade's own
    assert t("en", "regraded.kept_yours", rating=t("en", "rating.2")) in reply.text  # and the user's, which counts


async def test_a_follow_up_is_graded_against_the_follow_up_and_leaves_the_card(world: World) -> None:
    uid = await world.user()
    await world.service.handle_text(uid, "/drill")
    await world.service.handle_text(uid, ANSWER)  # the LLM is up: graded, with a follow-up and its rubric
    (parent,) = await world.store.list_attempts(uid)
    card_before = await world.store.get_card(parent.card_id or 0)
    await world.service.handle_action(uid, f"fu:{parent.id}")
    world.llm.down = True
    await world.service.handle_text(uid, "I would clip at 1.0 because the norms sit below it.")
    world.llm.down = False
    queued = max(await world.store.list_attempts(uid), key=lambda a: a.id)
    assert queued.is_follow_up and queued.status == "regrade"
    outbox = Outbox()

    assert await regrade_pending(build(Regrading, world.deps.provided()), outbox) == 1

    question, answer, _, _ = world.llm.calls[-1]
    assert question.prompt.en == question.prompt.zh == "Which threshold would you pick?"
    assert [(k.id, k.text.en) for k in question.rubric.key_points] == [
        ("fu1", "names a threshold"), ("fu2", "says why"),
    ]  # fmt: skip
    assert answer.startswith("I would clip")
    done = await attempt(world, queued.id)
    assert done.status == "graded" and done.rating == queued.rating  # no card scheduled: the rating stays
    assert await world.store.get_card(parent.card_id or 0) == card_before
    ((_, (reply,)),) = outbox.sent
    assert reply.buttons == [] and t("en", "grade.next_due", due="-") in reply.text
    assert reply.text.startswith(t("en", "regraded", prompt="Which threshold would you pick?") + "\n")


async def test_a_follow_up_is_graded_against_the_answer_it_was_asked_from(world: World) -> None:
    """The follow-up's rubric comes from the answer that asked it, even when the card was answered again
    (with no follow-up, or another one) before the regrade."""
    uid = await world.user()
    await world.service.handle_text(uid, "/drill")
    await world.service.handle_text(uid, ANSWER)
    (parent,) = await world.store.list_attempts(uid)
    await world.service.handle_action(uid, f"fu:{parent.id}")
    world.llm.down = True
    await world.service.handle_text(uid, "I would clip at 1.0.")
    world.llm.down, world.llm.follow_up = False, None
    world.clock.advance(days=30)
    await world.service.handle_text(uid, "/drill")
    await world.service.handle_text(uid, ANSWER)  # graded, no follow-up this time
    assert await regrade_pending(build(Regrading, world.deps.provided()), Outbox()) == 1
    question, _, _, _ = world.llm.calls[-1]
    assert question.prompt.en == "Which threshold would you pick?"
    assert [k.text.en for k in question.rubric.key_points] == ["names a threshold", "says why"]


async def test_one_round_takes_at_most_the_limit_and_counts_each(world: World) -> None:
    uid = await world.user()
    first = await world.queued_answer(uid)
    queue = [await world.store.add_attempt(first.model_copy(update={"id": 0, "card_id": None})) for _ in range(21)]
    assert await regrade_pending(build(Regrading, world.deps.provided()), None) == 20
    statuses = [(await attempt(world, a.id)).status for a in [first, *queue]]
    assert statuses == ["graded"] * 20 + ["regrade", "regrade"]
    assert await regrade_pending(build(Regrading, world.deps.provided()), None, limit=5) == 2


async def test_an_attempt_another_worker_took_is_passed_over(world: World) -> None:
    uid = await world.user()
    first = await world.queued_answer(uid)
    second = await world.store.add_attempt(first.model_copy(update={"id": 0, "card_id": None}))
    world.store.taken.add(first.id)
    assert await regrade_pending(build(Regrading, world.deps.provided()), None) == 1
    assert (await attempt(world, first.id)).status == "regrade"  # the other worker's to finish
    assert (await attempt(world, second.id)).status == "graded"
    assert len(world.llm.calls) == 2  # the answer's failed call, then only the second attempt


async def test_an_attempt_whose_question_is_gone_leaves_the_queue(world: World) -> None:
    uid = await world.user()
    first = await world.queued_answer(uid)
    gone = await world.store.add_attempt(first.model_copy(update={"id": 0, "question_id": "gone-001"}))
    last = await world.store.add_attempt(first.model_copy(update={"id": 0, "card_id": None}))
    calls = len(world.llm.calls)
    assert await regrade_pending(build(Regrading, world.deps.provided()), None) == 2
    assert [(await attempt(world, a.id)).status for a in (first, gone, last)] == ["graded"] * 3
    gone_now = await attempt(world, gone.id)
    assert gone_now.grader == first.grader and gone_now.rating == first.rating  # left as the estimate graded it
    assert len(world.llm.calls) == calls + 2


async def test_a_regrade_while_the_llm_is_still_down_is_put_back_and_logged(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    uid = await world.user()
    first = await world.queued_answer(uid)
    second = await world.store.add_attempt(first.model_copy(update={"id": 0, "card_id": None}))
    world.llm.down = True
    outbox = Outbox()
    with caplog.at_level(logging.INFO, logger="bot.features.drill.regrade"):
        assert await regrade_pending(build(Regrading, world.deps.provided()), outbox) == 0
    assert [(await attempt(world, a.id)).status for a in (first, second)] == ["regrade", "regrade"]
    assert outbox.sent == [] and len(world.llm.calls) == 2  # the answer's call and one try: the round stops
    assert [r.getMessage() for r in caplog.records if r.name == "bot.features.drill.regrade"] == [
        f"regrade of attempt {first.id} postponed: GraderUnavailable"
    ]


async def test_a_user_who_blocked_the_bot_is_paused_once(world: World) -> None:
    uid = await world.user()
    await world.queued_answer(uid)
    assert await regrade_pending(build(Regrading, world.deps.provided()), Outbox(Delivery.UNREACHABLE)) == 1
    user = await world.store.get_user(uid)
    assert user is not None and user.paused
    other = await world.user("2")
    await world.queued_answer(other)
    assert (
        await regrade_pending(build(Regrading, world.deps.provided()), Outbox(Delivery.FAILED)) == 1
    )  # a failed send is not a block
    user = await world.store.get_user(other)
    assert user is not None and not user.paused


async def test_a_regrade_whose_user_left_during_the_llm_call_is_not_sent(world: World) -> None:
    """The user is read again after the LLM call (issue #34 Medium 1): one who sent /forget meanwhile is gone,
    and the grade of their forgotten answer is pushed to no one, whatever user holds or later takes that id."""
    uid = await world.user()
    other = await world.user("2")
    queued = await world.queued_answer(uid)
    theirs = await world.queued_answer(other)

    async def forget() -> None:
        await world.service.handle_text(uid, "/forget")
        await world.service.handle_action(uid, "forget:yes")

    world.llm.meanwhile = forget
    outbox = Outbox()
    assert (
        await regrade_pending(build(Regrading, world.deps.provided()), outbox) == 1
    )  # the other user's answer: graded and sent
    assert [to for to, _ in outbox.sent] == [other]  # not a call for the forgotten user's id
    assert await world.store.get_attempt(queued.id) is None
    assert (await attempt(world, theirs.id)).status == "graded"
