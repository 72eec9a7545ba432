"""Shared by the mock interview tests: a small bank of real questions (every type, two topics), the core
wired to fakes over it, and a helper that answers whatever the mock asks next."""

from __future__ import annotations

from pathlib import Path

from bot.content.loader import load_file
from bot.features.deps import Deps
from bot.features.mock.chart_data import MockChartData
from bot.grading.feedback import follow_up_for_points
from bot.kernel.bank import Bank
from bot.kernel.models import Grade, Lang, Level, Question
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from tests.app import build_test_app
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
    return build_test_app(
        mock_bank(),
        grader=grader or FakeGrader(),
        store=store or FakeStore(),
        clock=clock or FakeClock(),
        follow_up_chooser=follow_up_for_points,
    ).deps


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


class PartialGrader(FakeGrader):
    """An LLM-like grader that calls every key point partly made, scores `score` and asks no follow-up: the
    issue #36 round (answers near 72, nothing missed outright) whose debrief must still tell one story."""

    def __init__(self, score: int = 72) -> None:
        super().__init__(score=score, follow_up=None, grader="llm:fake")

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        grade = await super().grade(question, answer, lang, level)
        points = [k.model_copy(update={"verdict": "partial"}) for k in grade.key_points]
        return grade.model_copy(update={"key_points": points})


class RecordingMockChart:
    """The real matplotlib debrief chart, keeping what it was asked to draw and the texts it drew."""

    def __init__(self) -> None:
        from bot.charts import MatplotlibMockChart

        self.real = MatplotlibMockChart()
        self.drawn: list[MockChartData] = []
        self.texts: list[list[str]] = []

    def render_mock(self, data: MockChartData) -> bytes:
        self.drawn.append(data)
        figure = self.real.figure(data)
        self.texts.append([t.get_text() for ax in figure.axes for t in ax.texts])
        return self.real.render_mock(data)
