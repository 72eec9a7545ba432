"""Which grader grades an answer (bot/grading/chain.GradingChain.grade_answer), with hand-written graders: the
outcome of each path (no LLM, over the budget, LLM down, both down, LLM fine), what is logged, and the
latency in milliseconds."""

from __future__ import annotations

import itertools
import logging

import pytest

from bot.features.deps import Deps, Limits
from bot.grading import chain as grading_chain
from bot.kernel import progress
from bot.kernel.bank import Bank
from bot.kernel.models import Grade, Lang, Level, Question, User
from bot.kernel.ports import BOARD_SUFFIX, Outcome
from tests.app import build_test_app
from tests.conftest import example_question
from tests.fakes import FakeClock, FakeGrader, FakeStore


class Named(FakeGrader):
    """A FakeGrader with its own id that records the level it was asked to grade at."""

    def __init__(self, name: str, score: int) -> None:
        super().__init__(score=score)
        self.id = name
        self.levels: list[Level] = []

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        self.levels.append(level)
        return await super().grade(question, answer, lang, level)


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    """perf_counter as grading_chain reads it: each grading starts and ends 0.25 s apart."""
    counter = itertools.count()
    monkeypatch.setattr(grading_chain.time, "perf_counter", lambda: next(counter) * 0.25)


def deps(grader: FakeGrader, estimator: FakeGrader | None, **limits: int) -> Deps:
    return build_test_app(Bank([example_question()]), grader=grader, estimator=estimator, store=FakeStore(), clock=FakeClock(), limits=Limits(**limits)).deps  # fmt: skip


async def run(d: Deps) -> Outcome:
    user = User(id=1, level="researcher", created_at=d.clock.now())
    return await d.grader.grade_answer(example_question(), "an answer", user, d.clock.now(), d.budget)


async def test_without_an_llm_the_grader_grades_at_the_users_level_and_nothing_is_queued(ticks: None) -> None:
    grader = Named("offline", 61)
    d = deps(grader, None)
    outcome = await run(d)
    assert outcome == Outcome(outcome.grade, 250, False) and outcome.grade is not None
    assert outcome.grade.score == 61 and grader.levels == ["researcher"]
    assert isinstance(d.store, FakeStore) and d.store.llm_calls == []  # no LLM call is counted


async def test_a_grader_that_is_its_own_estimator_is_not_an_llm(caplog: pytest.LogCaptureFixture) -> None:
    grader = Named("offline", 61)
    grader.fail = True
    outcome = await run(deps(grader, grader))
    assert outcome == Outcome(None, 0, True)  # no "llm_unavailable": there is no LLM to wait for
    assert "grader offline failed: RuntimeError" in caplog.text


async def test_over_the_daily_limit_the_estimate_is_given_and_not_queued(ticks: None) -> None:
    llm, offline = Named("llm", 90), Named("offline", 40)
    outcome = await run(deps(llm, offline, llm_daily_limit=0))
    assert outcome == Outcome(outcome.grade, 250, False, "llm_limit") and outcome.grade is not None
    assert outcome.grade.score == 40 and not llm.calls and offline.levels == ["researcher"]


async def test_when_the_llm_fails_the_estimate_is_given_and_queued(
    ticks: None, caplog: pytest.LogCaptureFixture
) -> None:
    llm, offline = Named("llm", 90), Named("offline", 40)
    llm.fail = True
    d = deps(llm, offline)
    outcome = await run(d)
    assert outcome == Outcome(outcome.grade, 250, True, "llm_unavailable") and outcome.grade is not None
    assert outcome.grade.score == 40 and offline.calls
    assert "grader llm failed: RuntimeError" in caplog.text
    store = d.store
    assert isinstance(store, FakeStore) and [(u, k, t) for u, k, t, _at in store.llm_calls] == [(1, "grading", 0)]


async def test_when_the_estimate_fails_too_nothing_is_given_and_the_answer_is_queued(
    caplog: pytest.LogCaptureFixture,
) -> None:
    llm, offline = Named("llm", 90), Named("offline", 40)
    llm.fail = offline.fail = True
    assert await run(deps(llm, offline)) == Outcome(None, 0, True)
    assert "offline estimate failed too" in caplog.text


async def test_an_llm_grade_is_kept_with_the_estimate_beside_it(ticks: None) -> None:
    llm, offline = Named("llm", 70), Named("offline", 60)
    d = deps(llm, offline)
    outcome = await run(d)
    assert outcome == Outcome(outcome.grade, 250, False) and outcome.grade is not None
    assert outcome.grade.score == 70 and outcome.grade.offline_score == 60 and llm.levels == ["researcher"]
    assert isinstance(d.store, FakeStore) and [(u, k) for u, k, _t, _at in d.store.llm_calls] == [(1, "grading")]


async def test_a_failed_grading_without_an_llm_is_logged_with_the_graders_id(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.grading.chain")
    grader = Named("offline", 61)
    grader.fail = True
    assert await run(deps(grader, None)) == Outcome(None, 0, True)
    assert "grader offline failed: RuntimeError" in caplog.text


async def test_when_the_estimate_beside_an_llm_grade_fails_the_llm_grade_stands(
    ticks: None, caplog: pytest.LogCaptureFixture
) -> None:
    llm, offline = Named("llm", 70), Named("offline", 60)
    offline.fail = True
    outcome = await run(deps(llm, offline))
    assert outcome == Outcome(outcome.grade, 250, False) and outcome.grade is not None
    assert outcome.grade.score == 70 and outcome.grade.offline_score is None
    assert "offline estimate beside the LLM grade failed" in caplog.text


class Blank(Named):
    """An estimate that found no key point: reason enough to doubt an LLM grade far above it."""

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        grade = await super().grade(question, answer, lang, level)
        return grade.model_copy(
            update={"key_points": [k.model_copy(update={"verdict": "missed"}) for k in grade.key_points]}
        )


class OnceThenDown(Named):
    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        self.fail = bool(self.calls)
        return await super().grade(question, answer, lang, level)


async def test_a_doubtful_llm_grade_is_graded_again_and_flagged_when_the_second_try_fails(
    ticks: None, caplog: pytest.LogCaptureFixture
) -> None:
    llm, offline = OnceThenDown("llm", 90), Blank("offline", 10)
    d = deps(llm, offline)
    outcome = await run(d)
    assert outcome.notice == "checked_twice" and not outcome.regrade and outcome.grade is not None
    assert outcome.grade.score == 90 and outcome.grade.flagged and outcome.grade.checked_twice
    assert outcome.grade.offline_score == 10 and outcome.latency_ms == 250  # the failed second try adds nothing
    assert "graded a second time" in caplog.text and "second LLM grading failed: RuntimeError" in caplog.text
    assert isinstance(d.store, FakeStore) and [t for _u, _k, t, _at in d.store.llm_calls] == [0, 0]


async def test_a_second_grading_adds_its_time_and_the_lower_grade_is_kept(ticks: None) -> None:
    scores = iter([90, 20])

    class Falling(Named):
        async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
            self.score = next(scores)
            return await super().grade(question, answer, lang, level)

    outcome = await run(deps(Falling("llm", 0), Blank("offline", 10)))
    assert outcome.notice == "checked_twice" and not outcome.regrade and outcome.grade is not None
    assert outcome.grade.score == 20 and not outcome.grade.flagged and outcome.latency_ms == 500


async def test_the_platform_hears_an_llm_grading_start_and_every_wait_on_a_grader() -> None:
    steps: list[str] = []
    with progress.listening(steps.append):
        await run(deps(Named("llm", 70), Named("offline", 60)))
    assert steps == ["grading", "waiting", "waiting"]  # the LLM's grading, its wait, the estimate's wait
    steps.clear()
    with progress.listening(steps.append):
        await run(deps(Named("offline", 60), None))
    assert steps == ["waiting"]  # no LLM: nothing to show at once, but the update waits on the worker pool


async def test_grade_asks_the_primary_grader_at_the_level_given() -> None:
    llm = Named("llm", 70)
    d = deps(llm, Named("offline", 60))
    grade = await d.grader.grade(example_question(), "an answer", "en", "researcher")
    assert grade.score == 70 and llm.levels == ["researcher"]


async def test_a_regrade_gets_a_second_look_only_for_an_llm_grade_on_a_leaderboard() -> None:
    llm, offline = Named("llm", 20), Blank("offline", 10)
    d = deps(llm, offline)
    user = User(id=1, created_at=d.clock.now())
    q, now, budget = example_question(), d.clock.now(), d.budget
    high = (await Named("earlier", 90).grade(q, "an answer", "en")).model_copy(update={"grader": "llm"})
    estimate = high.model_copy(update={"grader": "offline"})
    board = "discord:1" + BOARD_SUFFIX
    assert await d.grader.regraded(q, "an answer", user, now, budget, estimate, board) is estimate
    assert await d.grader.regraded(q, "an answer", user, now, budget, high, "telegram:1") is high
    assert llm.calls == [] and offline.calls == []  # neither was graded again
    kept = await d.grader.regraded(q, "an answer", user, now, budget, high, board)
    assert kept.score == 20 and kept.checked_twice and kept.offline_score == 10  # far above the estimate: checked
    assert isinstance(d.store, FakeStore) and [at for _u, _k, _t, at in d.store.llm_calls] == [now]


async def test_a_second_look_keeps_the_estimate_beside_it_and_is_not_queued(ticks: None) -> None:
    scores = iter([90, 20])

    class Falling(Named):
        async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
            self.score = next(scores)
            return await super().grade(question, answer, lang, level)

    d = deps(Falling("llm", 0), Blank("offline", 10))
    outcome = await run(d)
    assert outcome.regrade is False and outcome.grade is not None and outcome.grade.offline_score == 10
    assert isinstance(d.store, FakeStore) and [at for _u, _k, _t, at in d.store.llm_calls] == [d.clock.now()] * 2
