"""The job-description focus where questions are picked: /drill, the daily push and the /mock plan lean to an
active job description's subtopics (a weighting, not a filter), while due reviews still come first and the
level, topics and new-per-day rules still hold; an expired focus changes nothing; and the hot path reads the
job description at most once, only when a new question is picked."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.features.career.models import JobDescription
from bot.features.deps import Deps
from bot.features.mock import plan as mock_plan
from bot.kernel import push_rules, srs
from bot.kernel.bank import Bank
from bot.kernel.i18n import t
from bot.kernel.inject import build
from bot.kernel.models import Question, User
from bot.kernel.service import Service
from bot.kernel.session import Answering
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.mock_helpers import mock_deps


def q(qid: str, topic: str, subtopic: str, difficulty: int) -> Question:
    return make_question(qid, topic=topic, difficulty=difficulty).model_copy(update={"subtopic": subtopic})


# Without a focus the bank order is o1..o4 (easier) then f1..f4: the focus has to pull f1 forward.
OTHERS = [q(f"o{i}", "stability", "optimizers", 1) for i in range(1, 5)]
FOCUSED = [q(f"f{i}", "pipeline", "rlhf", 3) for i in range(1, 5)]


class CountingStore(FakeStore):
    """Counts the job-description reads, to keep the hot path honest."""

    def __init__(self) -> None:
        super().__init__()
        self.jd_reads = 0

    async def active_jd(self, user_id: int, now: datetime) -> JobDescription | None:
        self.jd_reads += 1
        return await super().active_jd(user_id, now)


@pytest.fixture
def store() -> CountingStore:
    return CountingStore()


@pytest.fixture
def bank() -> Bank:
    return Bank(OTHERS + FOCUSED)


async def user_with(service: Service, name: str, **settings: object) -> User:
    user = await service.user_for("test", name, "en")
    user = user.model_copy(update=settings)
    await service.deps.store.save_user(user)
    return user


async def focus_on(deps: Deps, user: User, subtopics: list[str], until: datetime) -> None:
    now = deps.clock.now()
    jd = await deps.store.add_jd(
        JobDescription(user_id=user.id, text="RLHF engineer", subtopics=subtopics, created_at=now)
    )
    assert await deps.store.activate_jd(user.id, jd.id, until)


async def served(service: Service, user: User, times: int) -> list[str]:
    """The question each /drill opens, skipping each one (a skipped card is due tomorrow, so the next
    /drill picks again)."""
    seen = []
    for _ in range(times):
        await service.handle_text(user.id, "/drill")
        session = await service.deps.store.get_session(user.id)
        assert isinstance(session, Answering), session
        card = await service.deps.store.get_card(session.card_id)
        assert card is not None
        seen.append(card.question_id)
        await service.handle_action(user.id, "skip")
    return seen


async def test_drill_serves_a_focus_question_it_would_not_serve_without_the_focus(service: Service) -> None:
    plain = await user_with(service, "plain")
    focused = await user_with(service, "focused")
    await focus_on(service.deps, focused, ["rlhf"], service.deps.clock.now() + timedelta(days=14))
    assert await served(service, plain, 1) == ["o1"]
    assert await served(service, focused, 1) == ["f1"]


async def test_over_a_day_three_of_four_new_questions_are_the_focus_and_the_rest_still_appear(
    service: Service,
) -> None:
    user = await user_with(service, "u", new_per_day=6)
    await focus_on(service.deps, user, ["rlhf"], service.deps.clock.now() + timedelta(days=14))
    assert await served(service, user, 6) == ["f1", "f2", "f3", "o1", "f4", "o2"]
    # the daily limit still holds: no seventh new question today
    (reply,) = await service.handle_text(user.id, "/drill")
    assert reply.kind != "question"


async def test_due_reviews_still_come_first(service: Service, store: CountingStore, clock: FakeClock) -> None:
    user = await user_with(service, "u")
    now = clock.now()
    card = await store.create_card(user.id, "o4", srs.new_state(now), now - timedelta(days=2), False, now)
    await store.save_card(card.model_copy(update={"is_new": False}))
    await focus_on(service.deps, user, ["rlhf"], now + timedelta(days=14))
    assert await served(service, user, 2) == ["o4", "f1"]


async def test_an_expired_focus_changes_nothing(service: Service, clock: FakeClock) -> None:
    user = await user_with(service, "u")
    await focus_on(service.deps, user, ["rlhf"], clock.now() + timedelta(days=1))
    clock.advance(days=1, seconds=1)
    assert await served(service, user, 2) == ["o1", "o2"]


async def test_the_focus_never_reaches_outside_the_users_topics(service: Service) -> None:
    user = await user_with(service, "u", topics=["stability"])
    await focus_on(service.deps, user, ["rlhf"], service.deps.clock.now() + timedelta(days=14))
    assert await served(service, user, 2) == ["o1", "o2"]


async def test_the_job_description_is_read_once_and_only_when_a_new_question_is_picked(
    service: Service, store: CountingStore, clock: FakeClock
) -> None:
    user = await user_with(service, "u")
    now = clock.now()
    card = await store.create_card(user.id, "o4", srs.new_state(now), now - timedelta(days=2), False, now)
    await store.save_card(card.model_copy(update={"is_new": False}))
    await served(service, user, 1)  # the due review: no read
    assert store.jd_reads == 0
    await served(service, user, 1)  # a new question: one read
    assert store.jd_reads == 1


async def test_the_daily_push_leans_to_the_focus_too(service: Service) -> None:
    plain = await user_with(service, "plain")
    focused = await user_with(service, "focused")
    await focus_on(service.deps, focused, ["rlhf"], service.deps.clock.now() + timedelta(days=14))
    for user, expected in ((plain, "o1"), (focused, "f1")):
        replies = await push_rules.bind_pushes(service.deps.provided()).push("daily", user, None)
        assert replies is not None and replies[0].text.startswith(t("en", "push.daily"))
        session = await service.deps.store.get_session(user.id)
        card = await service.deps.store.get_card(session.card_id) if isinstance(session, Answering) else None
        assert card is not None and card.question_id == expected


async def test_drill_reads_the_focus_from_the_sql_store(sql: SqlStore, bank: Bank, clock: FakeClock) -> None:
    service = build_test_app(bank, grader=FakeGrader(), store=sql, clock=clock).service
    plain = await user_with(service, "plain")
    focused = await user_with(service, "focused")
    await focus_on(service.deps, focused, ["rlhf"], clock.now() + timedelta(days=14))
    assert await served(service, plain, 1) == ["o1"]
    assert await served(service, focused, 1) == ["f1"]


# ---- /mock


async def _plan(deps: Deps, user: User, setup: mock_plan.Setup) -> list[str]:
    return [
        x.id for x in await mock_plan.plan(build(mock_plan.Planning, deps.provided()), user, setup, deps.clock.now())
    ]


async def test_the_mock_plan_leans_to_the_focus_and_still_covers_the_types() -> None:
    deps = mock_deps()
    service = Service(deps)
    plain = await user_with(service, "plain")
    focused = await user_with(service, "focused")
    setup = mock_plan.Setup("mixed", "engineer", 4)
    before = await _plan(deps, plain, setup)
    assert "stab-nan-debug-001" not in before  # without a focus its fault slot goes to stab-ckpt-001
    await focus_on(deps, focused, ["nan-loss"], deps.clock.now() + timedelta(days=14))
    after = await _plan(deps, focused, setup)
    assert "stab-nan-debug-001" in after and "stab-ckpt-001" not in after and len(after) == len(before)
    types = {deps.bank.get(i).type for i in after}  # type: ignore[union-attr]
    assert "fault" in types and types & {"compare", "concept"} and "case" in types  # the spread rules still hold
    # an expired focus plans as before
    deps.clock.advance(days=15)  # type: ignore[attr-defined]
    assert await _plan(deps, focused, setup) == await _plan(deps, plain, setup)


async def test_the_mock_plan_keeps_a_due_review_with_a_focus() -> None:
    deps = mock_deps()
    service = Service(deps)
    user = await user_with(service, "u")
    now = deps.clock.now()
    setup = mock_plan.Setup("mixed", "engineer", 4)
    plain = await _plan(deps, user, setup)
    due_id = plain[0]
    card = await deps.store.create_card(user.id, due_id, srs.new_state(now), now - timedelta(days=3), False, now)
    await deps.store.save_card(card.model_copy(update={"is_new": False}))
    others = sorted({x.subtopic for x in deps.bank.all()} - {deps.bank.get(due_id).subtopic})  # type: ignore[union-attr]
    await focus_on(deps, user, others, now + timedelta(days=14))
    assert due_id in await _plan(deps, user, setup)
