"""Gradings through a real llama-server and a real 1.5B model, with the real `openai` client.

These assert plumbing, not the model's judgement: the reply validates against the question's own
schema (the server's grammar enforces it), nothing falls back, the ids are the rubric's, the follow-up
is a question, and a grading past its deadline falls back to the offline estimate and is queued."""

from __future__ import annotations

from functools import cache

import pytest

from bot.content.loader import load_bank
from bot.features.deps import Limits
from bot.grading.llm_reply import reply_schema, token_bound
from bot.grading.local_server import MODEL_NAME, Running
from bot.grading.offline import OfflineGrader
from bot.kernel.bank import Bank
from bot.kernel.models import Question, User
from bot.kernel.service import Service
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeStore
from tests.integration.llm_real.conftest import MISSING, real_grader

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=f"real-model tests need the llm-real extra: {MISSING}"),
    pytest.mark.asyncio(loop_scope="session"),
]


@cache
def shipped_bank() -> dict[str, Question]:
    """The shipped bank by id, loaded when a test first needs it (not at collection)."""
    return {q.id: q for q in load_bank().questions}


PARTIAL = (
    "First I find the step and the batch where the loss became NaN and replay it from the last checkpoint. "
    "Then I look at per-layer gradient norms. Then I lower the learning rate and clip the gradient norm at 1.0."
)


async def test_a_bank_question_graded_by_the_real_model(real_server: Running) -> None:
    q = shipped_bank()["stab-nan-debug-001"]
    grader = real_grader(real_server)
    store, clock = FakeStore(), FakeClock()
    deps = build_test_app(
        Bank([q]), grader=grader, estimator=OfflineGrader(), limits=Limits(), store=store, clock=clock
    ).deps
    user = User(id=1, created_at=clock.now())
    outcome = await deps.grader.grade_answer(q, PARTIAL, user, clock.now(), deps.budget)
    assert outcome.notice is None and not outcome.regrade  # no fallback
    grade = outcome.grade
    assert grade is not None and grade.grader == f"llm:{MODEL_NAME}" and not grade.estimate
    assert [k.id for k in grade.key_points] == [k.id for k in q.rubric.key_points]
    assert grade.follow_up in [f.en for f in q.follow_ups] and grade.follow_up.endswith("?")
    assert grade.feedback and grade.offline_score is not None
    call = grader.calls[-1]
    schema = reply_schema([k.id for k in q.rubric.key_points], ["f1", "f2"], "en")
    assert call.finish_reason == "stop" and call.completion_tokens <= token_bound(schema, "en")
    assert [kind for _u, kind, _t, _at in store.llm_calls] == ["grading"]


async def test_a_personal_question_in_chinese_gets_a_written_follow_up_question(real_server: Running) -> None:
    q = shipped_bank()["stab-warmup-adam-001"].model_copy(update={"follow_ups": [], "personal": True})
    grader = real_grader(real_server)
    grade = await grader.grade(q, "预热是为了让 Adam 的二阶矩估计先稳定下来，一般线性预热 2000 步左右。", "zh")
    assert grade.grader == f"llm:{MODEL_NAME}"
    assert [k.id for k in grade.key_points] == [k.id for k in q.rubric.key_points]
    assert grade.follow_up and grade.follow_up[-1] in "?？" and 2 <= len(grade.follow_up_points) <= 3
    assert grader.calls[-1].finish_reason == "stop"


async def test_a_grading_past_its_deadline_falls_back_and_is_queued(real_server: Running) -> None:
    q = shipped_bank()["stab-nan-debug-001"]
    store, clock = FakeStore(), FakeClock()
    deps = build_test_app(Bank([q]), grader=real_grader(real_server, deadline=1.0), estimator=OfflineGrader(), store=store, clock=clock).deps  # fmt: skip
    svc = Service(deps)
    uid = (await svc.user_for("test", "1")).id
    await svc.handle_text(uid, "/drill")
    r = await svc.handle_text(uid, PARTIAL)
    assert "offline estimate" in r[0].text and "not answering" in r[0].text
    (attempt,) = store.attempts.values()
    assert attempt.status == "regrade" and attempt.grader == "offline"
