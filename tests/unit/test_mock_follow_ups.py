"""Offline, the mock interview presses on the weakest key point with the bank follow-up whose own rubric
targets it (bot/grading/feedback.py follow_up_for_points, graded by the real offline grader)."""

from __future__ import annotations

from bot.grading.feedback import follow_up_for_points
from bot.grading.offline import OfflineGrader
from bot.kernel.bank import Bank
from bot.kernel.models import FollowUp, KeyPoint, Question, Rubric, Text, TextList
from bot.kernel.service import Service
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeStore


def _kp(kid: str, weight: float, en: str, zh: str, kw_en: list[str], kw_zh: list[str]) -> KeyPoint:
    return KeyPoint(id=kid, weight=weight, text=Text(zh=zh, en=en), keywords=TextList(zh=kw_zh, en=kw_en))


CLIP = _kp("clip", 3, "Clip the global gradient norm at a threshold such as 1.0", "把全局梯度范数裁剪到阈值，比如 1.0",
           ["clip", "gradient norm", "threshold"], ["裁剪", "梯度范数", "阈值"])  # fmt: skip
WARMUP = _kp("warmup", 2, "Warm up the learning rate linearly over the first steps", "前若干步线性预热学习率",
             ["warmup", "learning rate", "linear"], ["预热", "学习率", "线性"])  # fmt: skip
DATA = _kp("data", 1, "Check the data for NaN and outliers", "检查数据里的 NaN 和异常样本",
           ["data", "outlier"], ["数据", "异常样本"])  # fmt: skip
ON_WARMUP = FollowUp(
    en="How long should the warmup be, and how would you pick it?",
    zh="预热应该多长？你怎么确定？",
    key_points=[
        _kp(
            "w1",
            1,
            "Warmup length: a few percent of the steps, longer for larger learning rates",
            "预热长度：总步数的百分之几，学习率越大越长",
            ["warmup", "steps", "learning rate"],
            ["预热", "步数", "学习率"],
        )
    ],
    reference_answer=Text(zh="预热总步数的 1-5%。", en="Warm up over 1-5% of the steps."),
)
ON_CLIP = FollowUp(
    en="Which value would you pick for it, and why?",  # says nothing of clipping: its rubric does
    zh="你会取多大的值？为什么？",
    key_points=[
        _kp(
            "c1",
            1,
            "Clip threshold from the gradient norm history: around its typical value, e.g. 1.0",
            "根据梯度范数的历史选裁剪阈值，例如 1.0",
            ["clip", "threshold", "gradient norm"],
            ["裁剪", "阈值", "梯度范数"],
        )
    ],
    reference_answer=Text(zh="看梯度范数分布，取 1.0 左右。", en="Look at the gradient norm history; 1.0 is typical."),
)
QUESTION = Question(
    id="stab-test-fu-001", topic="stability", subtopic="gradient-explosion", type="fault", level="engineer",
    difficulty=2, prompt=Text(zh="loss 突然飙升，你怎么稳住训练？", en="The loss spikes. How do you stabilise training?"),
    rubric=Rubric(key_points=[CLIP, WARMUP, DATA]),
    reference_answer=Text(zh="裁剪梯度范数，预热学习率，检查数据。", en="Clip the gradient norm, warm up, check the data."),
    follow_ups=[ON_WARMUP, ON_CLIP],
)  # fmt: skip


def test_the_follow_up_whose_rubric_targets_the_weakest_point_is_chosen() -> None:
    assert follow_up_for_points(QUESTION, ["clip", "warmup"]) == 1  # by its rubric: its prompt never says "clip"
    assert follow_up_for_points(QUESTION, ["warmup", "clip"]) == 0
    assert follow_up_for_points(QUESTION, ["clip"], exclude={1}) == 0  # the other one rather than none
    assert follow_up_for_points(QUESTION, ["clip"], exclude={0, 1}) is None
    assert follow_up_for_points(QUESTION, ["no-such-point"]) == 0


async def _first_follow_up(answer: str) -> str:
    store, clock = FakeStore(), FakeClock()
    deps = build_test_app(Bank([QUESTION]), grader=OfflineGrader(semantic=False), store=store, clock=clock, follow_up_chooser=follow_up_for_points).deps  # fmt: skip
    service = Service(deps)
    user = await service.user_for("console", "local", "en")
    await service.handle_text(user.id, "/mock stability 3")
    replies = await service.handle_text(user.id, answer)
    return replies[-1].text


async def test_offline_the_mock_presses_on_the_missed_heaviest_point() -> None:
    warmup_only = (
        "I would warm up the learning rate linearly over the first 2000 steps, and check the data for NaN "
        "values and outliers before anything else."
    )
    clip_only = (
        "I would clip the global gradient norm at a threshold of 1.0, and check the data for NaN values and "
        "outliers before anything else."
    )
    assert ON_CLIP.en in await _first_follow_up(warmup_only)
    assert ON_WARMUP.en in await _first_follow_up(clip_only)


def test_weak_points_are_the_missed_then_the_partial_ones_heaviest_first() -> None:
    from bot.features.mock.turn import weak_points
    from bot.kernel.models import Grade, KeyPointResult

    verdicts = {"clip": "partial", "warmup": "missed", "data": "missed"}
    grade = Grade(score=50, dimensions={}, key_points=[KeyPointResult(id=k, verdict=v) for k, v in verdicts.items()])  # type: ignore[arg-type]
    assert weak_points(QUESTION, grade) == ["warmup", "data", "clip"]
    grade = Grade(
        score=50,
        dimensions={},
        key_points=[KeyPointResult(id="clip", verdict="hit"), KeyPointResult(id="gone", verdict="missed")],
    )
    assert weak_points(QUESTION, grade) == []  # a hit is not weak; an id the rubric lacks is ignored


async def test_a_second_follow_up_only_below_65() -> None:
    from tests.fakes import FakeGrader
    from tests.mock_helpers import PLAIN_ANSWER, mock_deps

    for score, follow_ups in ((65, 1), (64, 2)):
        store, clock = FakeStore(), FakeClock()
        grader = FakeGrader(score=score)
        service = Service(mock_deps(store, grader, clock))
        uid = (await service.user_for("console", "local", "en")).id
        await service.handle_text(uid, "/mock stability 3")
        await service.handle_text(uid, PLAIN_ANSWER)
        grader.follow_up = "And then?"  # a new follow-up text for a second one
        await service.handle_text(uid, "a follow-up answer")
        [mock] = store.mocks.values()
        assert len(mock.items[0].follow_ups) == follow_ups, score
