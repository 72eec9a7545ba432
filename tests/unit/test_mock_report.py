"""The mock interview's debrief: verdict bands at their thresholds, the STAR check in both languages, and the
report's contents in Chinese and English."""

from __future__ import annotations

import pytest

from bot.features.mock.report import BANDS, clause_cut, verdict
from bot.features.mock.star import star_check
from bot.kernel.service import Service
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.mock_helpers import CASE_ANSWER, mock_deps


@pytest.mark.parametrize(
    ("score", "band"),
    [(100, "strong_hire"), (80, "strong_hire"), (79, "hire"), (65, "hire"), (64, "lean_no"), (50, "lean_no"),
     (49, "no_hire"), (0, "no_hire")],
)  # fmt: skip
def test_verdict_bands_at_their_thresholds(score: int, band: str) -> None:
    assert verdict(score) == band
    assert [floor for floor, _ in BANDS] == [80, 65, 50, 0]


def test_star_check_finds_missing_and_vague_parts_in_both_languages() -> None:
    assert star_check(CASE_ANSWER) == {"S": "ok", "T": "ok", "A": "ok", "R": "ok"}
    no_numbers = (
        "At my last job I was responsible for it. First I added clipping, then I checked; as a result it improved."
    )
    assert star_check(no_numbers)["R"] == "vague"
    assert star_check("I would clip gradients.") == {"S": "missing", "T": "missing", "A": "missing", "R": "missing"}
    zh = "当时我们团队在训练 7B 模型，我负责恢复。我先检查了检查点，然后我做了续训验证，最终只损失了 40 分钟。"
    assert star_check(zh) == {"S": "ok", "T": "ok", "A": "ok", "R": "ok"}
    assert star_check("我先看了日志。")["A"] == "vague" and star_check("我先看了日志。")["R"] == "missing"


async def _debrief(lang: str, score: int, case_answer: str) -> str:
    store, clock = FakeStore(), FakeClock()
    service = Service(mock_deps(store, FakeGrader(score=score), clock))
    user = await service.user_for("console", "local", lang)  # type: ignore[arg-type]
    await service.handle_text(user.id, "/mock stability engineer 3")
    [mock] = store.mocks.values()
    # questions come warm-up first, so the case question is the last: answer it with a story
    replies = []
    for _ in range(20):
        item = next(i for i in mock.items if i.waiting_for() != "done" or i.asked_at is None)
        q = service.deps.bank.get(item.question_id)
        text = case_answer if q is not None and q.type == "case" and item.attempt_id is None else "一个回答 an answer"
        clock.advance(minutes=3)
        replies = await service.handle_text(user.id, text)
        mock = store.mocks[mock.id]
        if mock.state != "running":
            break
    return "\n".join(r.text for r in replies if r.kind == "report")


async def test_the_english_debrief_has_every_part() -> None:
    report = await _debrief("en", 55, CASE_ANSWER)
    assert "Overall: 55/100 · lean no hire" in report
    assert "A close call that usually fails.\nWhy: key points " in report
    assert "strong hire from 80, hire 65-79, lean no hire 50-64, no hire below 50" in report
    assert "By dimension: coverage 55, structure 55, specificity 55, evidence 55, correctness 55" in report
    assert "Covered:" in report and "Missed:" in report and "Best follow-up answer (55)" in report
    assert "STAR check: Situation clear; Task clear; Action clear; Result clear" in report
    assert "Top strengths:" in report and "Top gaps, and what to drill next:" in report and "drill “" in report
    assert report.count("answered in 3:00") == 3


async def test_the_chinese_debrief_reads_naturally_with_full_width_punctuation() -> None:
    report = await _debrief("zh", 85, "我会先看看。")
    assert "总分：85/100 · 强烈推荐录用" in report
    assert "各维度平均：要点覆盖 85，结构 85" in report
    assert "答到：" in report and "漏掉：" in report and "参考答案一句话：" in report
    assert "STAR 检查：情境（S）缺失、任务（T）缺失、行动（A）缺失、结果（R）缺失" in report
    assert "讲成一个真实的故事" in report
    assert "做得好的地方：" in report and "最大的缺口和接下来要练的题：" in report
    assert "这是你的第一场模拟面试" in report and "用时 3:00（建议" in report
    assert "Overall" not in report and "Covered" not in report


def test_the_reference_sentence_is_long_enough_to_say_something() -> None:
    from bot.features.mock.report import first_sentence

    assert first_sentence("They solve different problems. Search is good at X when Y holds. More.") == (
        "They solve different problems. Search is good at X when Y holds."
    )
    long = "Loss scaling fixes underflow: FP16's smallest subnormal is about 6e-8. Then more."
    assert first_sentence(long) == "Loss scaling fixes underflow: FP16's smallest subnormal is about 6e-8."
    assert first_sentence("先看方差。假设各分量独立、零均值、方差为 1，点积的方差为 d_k。后面还有。", "zh") == (
        "先看方差。假设各分量独立、零均值、方差为 1，点积的方差为 d_k。"
    )


def test_strengths_and_gaps_name_different_questions_before_one_twice() -> None:
    from bot.features.mock.report import _spread

    ranked = [(-3, 1, "a"), (-3, 1, "b"), (-2, 2, "c"), (-1, 1, "d"), (-1, 3, "e")]
    assert _spread(ranked, 1) == [(-3, 1, "a"), (-2, 2, "c"), (-1, 3, "e")]
    assert _spread(ranked[:2], 1) == [(-3, 1, "a"), (-3, 1, "b")]  # one question: its points, heaviest first


class FakeMockChart:
    def __init__(self, fail: bool = False) -> None:
        self.fail, self.drawn = fail, []  # type: ignore[var-annotated]

    def render_mock(self, data):  # type: ignore[no-untyped-def]
        if self.fail:
            raise RuntimeError("no font")
        self.drawn.append(data)
        return b"\x89PNG fake"


async def test_the_debrief_carries_its_chart_and_goes_on_without_it_when_drawing_fails() -> None:
    from tests.mock_helpers import answer_all

    for fail in (False, True):
        store, clock, chart = FakeStore(), FakeClock(), FakeMockChart(fail)
        deps = mock_deps(store, FakeGrader(score=66), clock)
        deps.mock_charts = chart
        service = Service(deps)
        uid = (await service.user_for("console", "local", "zh")).id
        await service.handle_text(uid, "/mock stability 3")
        replies = [r for r in await answer_all(service, uid, clock) if r.kind == "report"]
        assert "总分：66/100" in replies[0].text
        if fail:
            assert all(r.image is None for r in replies)
            continue
        assert replies[0].image is not None and replies[0].image.mime == "image/png"
        [data] = chart.drawn
        assert data.questions == ["Q1", "Q2", "Q3"] and data.scores == [66, 66, 66]
        assert data.title == "模拟面试 · 训练稳定性 · 66/100 · 推荐录用" and data.dimensions[0] == ("要点覆盖", 66)
        assert [floor for floor, _ in data.bands] == [80, 65, 50, 0] and data.previous is None


def test_the_matplotlib_chart_draws_a_png_in_both_languages() -> None:
    from bot.charts import MatplotlibMockChart
    from bot.features.mock.chart_data import MockChartData

    for title in ("Mock interview · mixed · 40/100 · no hire", "模拟面试 · 综合 · 40/100 · 不录用"):
        data = MockChartData(
            title=title, questions=["Q1", "Q2"], scores=[40, None], follow_up_best=[None, 30],
            bands=[(80, "a"), (65, "b"), (50, "c"), (0, "d")], dimensions=[("要点覆盖", 40), ("structure", 30)],
            scores_label="x", follow_up_label="y", dimensions_label="z", previous=55, previous_label="上一场",
        )  # fmt: skip
        png = MatplotlibMockChart().render_mock(data)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_a_long_key_point_is_named_by_its_first_clauses_not_cut_mid_word() -> None:
    zh = "原理：很多梯度小于 FP16 能表示的范围（最小次正规数约 6e-8），会下溢为 0"
    assert clause_cut(zh, 30) == "原理：很多梯度小于 FP16 能表示的范围"
    assert clause_cut("short enough", 30) == "short enough"
    assert clause_cut("x" * 40, 30) == "x" * 29 + "…"  # no clause ends: cut, and say so
    assert clause_cut("ab, " + "y" * 40, 30) == "ab, " + "y" * 25 + "…"  # a clause end too early to name it
    formula = "KV cache bytes per token = 2 (K and V) × layers × KV heads × head_dim, times the length"
    assert (
        clause_cut(formula, 60) == formula[:59].rstrip() + "…"
    )  # not "... = 2": a bracket inside a formula is no clause end


def test_a_partly_made_point_is_not_listed_as_covered() -> None:
    from datetime import UTC, datetime

    from bot.features.mock.models import MockItem
    from bot.features.mock.report import Answered, _question_block
    from bot.kernel.models import Attempt, Grade, KeyPointResult
    from tests.conftest import make_question

    q = make_question("pipe-q-001")  # key points k0..k3, "point 0".."point 3"
    verdicts = {"k0": "hit", "k1": "partial", "k2": "missed", "k3": "missed"}
    grade = Grade(
        score=40, dimensions={}, feedback="", grader="offline", estimate=True,
        key_points=[KeyPointResult(id=k, verdict=v) for k, v in verdicts.items()],  # type: ignore[arg-type]
    )  # fmt: skip
    at = datetime(2026, 3, 2, tzinfo=UTC)
    main = Attempt(id=1, user_id=1, card_id=1, question_id=q.id, answer="a", grade=grade, created_at=at)
    block = _question_block(Answered(1, MockItem(question_id=q.id, budget_seconds=180), q, main), "en")
    assert "Covered: point 0\nPartly: point 1\nMissed: point 2; point 3" in block
    zh = _question_block(Answered(1, MockItem(question_id=q.id, budget_seconds=180), q, main), "zh")
    assert "答到：要点0\n只答到一部分：要点1\n漏掉：要点2、要点3" in zh
