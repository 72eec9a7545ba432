"""Reading a job description offline (bot/core/jd_match.py): the measured precision and recall on the
hand-written JDs of tests/data/jds/ stay at their targets, and the matching rules hold in both languages."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from bot.content.loader import load_bank
from bot.core.jd_match import JdMatcher
from bot.core.models import Question

ROOT = Path(__file__).resolve().parents[1]


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_jd_match", ROOT / "bench" / "jd_match.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def questions() -> list[Question]:
    return load_bank().questions


@pytest.fixture(scope="module")
def matcher(questions: list[Question]) -> JdMatcher:
    return JdMatcher(questions)


def test_precision_and_recall_on_the_fixture_jds_meet_their_targets(matcher: JdMatcher) -> None:
    b = bench()
    jds = b.load_jds()
    assert len(jds) >= 12
    assert {jd["lang"] for jd in jds} == {"zh", "en"} and sum(jd["lang"] == "zh" for jd in jds) >= 6
    result = b.evaluate(matcher, jds)
    assert result["precision"] >= b.TARGET_PRECISION and result["recall"] >= b.TARGET_RECALL, result


def test_every_expected_subtopic_is_a_bank_subtopic(questions: list[Question]) -> None:
    bank = {q.subtopic for q in questions}
    for jd in bench().load_jds():
        assert set(jd["expected_subtopics"]) <= bank, jd["name"]


def test_a_chinese_jd_names_its_subtopics_and_its_uncovered_skills(matcher: JdMatcher) -> None:
    found = matcher.match(
        "岗位职责：负责大模型分布式训练（数据并行、ZeRO），支持混合精度训练；熟悉 Kubernetes 和推荐系统。"
    )
    assert found.subtopics[:1] == ["parallelism"] and "mixed-precision" in found.subtopics
    assert found.uncovered == ["Kubernetes", "Recommender systems"]
    assert found.skills == ["分布式训练", "数据并行", "ZeRO", "混合精度"]


def test_the_strongest_subtopic_comes_first(matcher: JdMatcher) -> None:
    found = matcher.match("Some RLHF. Then FSDP, DeepSpeed ZeRO-3, tensor parallelism and pipeline parallelism.")
    assert found.subtopics == ["parallelism", "rlhf"]


def test_a_longer_phrase_wins_over_the_shorter_one_inside_it(matcher: JdMatcher) -> None:
    assert matcher.match("We use activation checkpointing.").subtopics == ["activation-checkpointing"]
    assert matcher.match("Sharded checkpointing to S3.").subtopics == ["checkpointing"]
    found = matcher.match("Deploy on Triton Inference Server.")
    assert found.subtopics == [] and found.uncovered == ["Inference serving"]


def test_latin_phrases_match_whole_words_only_with_plurals_and_either_spacing(matcher: JdMatcher) -> None:
    assert matcher.match("We love AdamW.").skills == ["AdamW"]
    assert matcher.match("a zeroth-order method, cosmoe, loraine").subtopics == []
    assert matcher.match("mixed-precision and loss spikes").subtopics == ["mixed-precision", "loss-spikes"]
    assert matcher.match("Mixed Precision").subtopics == ["mixed-precision"]


def test_full_width_text_is_folded_before_matching(matcher: JdMatcher) -> None:
    assert matcher.match("熟悉ＲＬＨＦ、ＤＰＯ").subtopics == ["rlhf", "dpo"]


def test_the_bank_subtopic_names_count_in_both_languages(matcher: JdMatcher) -> None:
    assert matcher.match("需要有梯度累积的经验").subtopics == ["gradient-accumulation"]
    assert matcher.match("Experience with gradient accumulation").subtopics == ["gradient-accumulation"]


def test_text_with_no_skills_matches_nothing(matcher: JdMatcher) -> None:
    found = matcher.match("We are a friendly team in Berlin. Free lunch, flexible hours! 欢迎加入我们。")
    assert (found.subtopics, found.skills, found.uncovered) == ([], [], [])


def test_a_subtopic_not_in_the_bank_is_never_named() -> None:
    from tests.conftest import example_question

    q = example_question()
    found = JdMatcher([q]).match("FSDP, RLHF and NaN loss debugging")
    assert found.subtopics == [q.subtopic] == ["nan-loss"]


def test_nan_named_alone_is_the_nan_loss_subtopic_but_not_inside_a_word(matcher: JdMatcher) -> None:
    assert "nan-loss" in matcher.match("排查 loss spike 与 NaN").subtopics
    assert "nan-loss" in matcher.match("Debug NaN and Inf in bf16 runs.").subtopics
    assert matcher.match("Office in Nanjing, nano-scale team.").subtopics == []
