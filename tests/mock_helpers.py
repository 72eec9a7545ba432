"""Shared by the mock interview tests: a small bank of real questions (every type, two topics), the core
wired to fakes over it, and a helper that answers whatever the mock asks next."""

from __future__ import annotations

from pathlib import Path

from bot.content.loader import load_file
from bot.grading.feedback import follow_up_for_points
from bot.kernel.bank import Bank
from bot.kernel.deps import Deps, Limits
from bot.kernel.models import Question
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from tests.fakes import FakeClock, FakeGrader, FakeStore

ROOT = Path(__file__).resolve().parents[1] / "content"
MOCK_BANK = (
    "stability/stab-nan-debug-001",  # fault, engineer
    "stability/stab-attn-001",  # concept, campus
    "stability/stab-clip-norm-value-001",  # compare, campus
    "stability/stab-ckpt-003",  # case, engineer
    "stability/stab-ckpt-001",  # fault, engineer
    "stability/stab-dist-004",  # compare, engineer
    "stability/stab-init-002",  # concept, engineer
    "stability/stab-monitor-001",  # open, engineer
    "pipeline/pipe-actckpt-case-001",  # case, pipeline
    "pipeline/pipe-accum-vs-ckpt-001",  # compare, pipeline
)
CASE_ANSWER = (
    "At my last job our team was training a 7B model when a node failed. I was responsible for the recovery. "
    "First I checked the last checkpoints, then I ran a resume test and compared the loss; as a result we lost "
    "only 40 minutes and the loss matched within 0.1%."
)
PLAIN_ANSWER = "I would check the data first, then the gradient norm per layer, and lower the learning rate."


def mock_bank() -> Bank:
    questions: list[Question] = []
    for name in MOCK_BANK:
        q, problems = load_file(ROOT / f"{name}.yaml")
        assert q is not None and not problems, problems
        questions.append(q)
    return Bank(questions)


def mock_deps(store: FakeStore | None = None, grader: object | None = None, clock: FakeClock | None = None) -> Deps:
    return Deps(
        store=store or FakeStore(),
        bank=mock_bank(),
        grader=grader or FakeGrader(),  # type: ignore[arg-type]
        clock=clock or FakeClock(),
        limits=Limits(fuzz=False),
        follow_up_chooser=follow_up_for_points,
    )


async def answer_all(service: Service, user_id: int, clock: FakeClock, answer: str = PLAIN_ANSWER) -> list[Reply]:
    """Answer each question and follow-up (two minutes each) until the debrief; every reply, in order."""
    seen: list[Reply] = []
    for _ in range(20):
        clock.advance(minutes=2)
        replies = await service.handle_text(user_id, answer)
        seen += replies
        if any(r.kind == "report" for r in replies):
            return seen
    raise AssertionError("the mock never ended")
