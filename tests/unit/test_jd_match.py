"""Reading a job description offline (bot/features/jd/match.py): the measured precision and recall on the
hand-written JDs of tests/data/jds/ stay at their targets, and the matching rules hold in both languages."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from bot.features.jd.match import JdMatcher
from bot.kernel.models import KeyPoint, Question, Rubric, Text, TextList
from tests.shipped import shipped_questions

ROOT = Path(__file__).resolve().parents[2]


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_jd_match", ROOT / "bench" / "jd_match.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def questions() -> list[Question]:
    return shipped_questions()


@pytest.fixture
def matcher(questions: list[Question]) -> JdMatcher:
    return JdMatcher(questions)  # built per test (70 ms), so each test is tied to the table-building rules


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


# The rules on small banks built here: a question per subtopic, with the rubric keywords given.


def question(subtopic: str, en: tuple[str, ...] = (), zh: tuple[str, ...] = (), personal: bool = False) -> Question:
    return Question(
        id=f"q-{subtopic}",
        topic="test",
        subtopic=subtopic,
        type="open",
        level="engineer",
        difficulty=2,
        prompt=Text(zh="问题？", en="Question?"),
        rubric=Rubric(
            key_points=[
                KeyPoint(id="k1", weight=1, text=Text(zh="要点", en="point"), keywords=TextList(en=[*en], zh=[*zh]))
            ]
        ),
        reference_answer=Text(zh="参考答案", en="Reference answer."),
        personal=personal,
    )


def read(text: str, *questions: Question) -> tuple[list[str], list[str], list[str]]:
    found = JdMatcher(questions).match(text)
    return found.subtopics, found.skills, found.uncovered


@pytest.mark.parametrize(
    ("subtopic", "text", "subtopics", "skills"),
    [
        # spaces and hyphens inside a phrase match either ("mixed precision" is listed with a space)
        ("mixed-precision", "Experience with mixed-precision training.", ["mixed-precision"], ["mixed-precision"]),
        ("parallelism", "ZeRO 3 and FSDP", ["parallelism"], ["ZeRO 3", "FSDP"]),  # "zero-3", not just "zero"
        # the skill is shown as written, its spacing tidied
        ("mixed-precision", "Mixed\n   Precision training", ["mixed-precision"], ["Mixed Precision"]),
        # a plural is part of the skill found
        ("scaling-laws", "Familiar with scaling laws.", ["scaling-laws"], ["scaling laws"]),
        # a Latin phrase is a whole word at both ends
        ("parallelism", "Init with nonzero bias.", [], []),
        ("parallelism", "Zeroth-order methods.", [], []),
        # every place the first word occurs is tried, not just the first or the last
        ("parallelism", "nonzero init, ZeRO sharding, nonzero bias", ["parallelism"], ["ZeRO"]),
        # a Chinese phrase needs no boundary: Latin letters or digits may touch it on either side
        ("memory", "熟悉GPU显存优化", ["memory"], ["显存优化"]),
        ("mixed-precision", "掌握混合精度fp8训练", ["mixed-precision"], ["混合精度", "fp8"]),
        ("parallelism", "3年分布式训练2年推理", ["parallelism"], ["分布式训练"]),
        # the subtopic's display name alone is enough ("monitoring" is not in the phrase table)
        ("monitoring", "Monitoring of large runs", ["monitoring"], ["Monitoring"]),
        # one phrase spelt several ways is one skill, shown as first written
        ("parallelism", "FSDP, fsdp and Fsdp", ["parallelism"], ["FSDP"]),
        # folding changed the text's length ("…" is three dots): the skill is shown folded
        ("parallelism", "Requirements… FSDP", ["parallelism"], ["fsdp"]),
    ],
)
def test_phrase_rules_on_one_subtopic(subtopic: str, text: str, subtopics: list[str], skills: list[str]) -> None:
    assert read(text, question(subtopic))[:2] == (subtopics, skills)


def test_known_uncovered_skills_are_named_with_their_display_names_in_order() -> None:
    assert read("Kubernetes, some Docker and k8s; golang", question("parallelism")) == (
        [],
        [],
        ["Kubernetes", "Docker", "Go"],
    )


def test_a_subtopic_with_no_display_name_is_read_by_its_keywords_alone() -> None:
    assert read("weight tying and logit soft capping", question("alpha", en=("weight tying", "logit soft capping")))[
        0
    ] == ["alpha"]


KW_EN = ("weight tying", "logit soft capping", "embedding scaling")


@pytest.mark.parametrize(
    ("en", "zh", "text", "subtopics"),
    [
        # two specific keywords (two Latin words each) are a match, one is half of one
        (KW_EN, (), "weight tying and logit soft capping", ["alpha"]),
        (KW_EN, (), "Weight tying only.", []),
        # a keyword said twice still counts once, however it is spelt the second time
        (KW_EN, (), "weight tying, then weight tying again", []),
        (KW_EN, (), "weight tying, then weight-tying again", []),
        (KW_EN, (), "weight tying, then Weight Tyings again", []),
        # a single word is too common in a JD to be evidence
        (("sharding", "rematerialization"), (), "sharding and rematerialization", []),
        # Chinese: four characters are specific, three are not
        ((), ("权重共享", "嵌入缩放"), "熟悉权重共享和嵌入缩放", ["alpha"]),
        ((), ("软截断", "嵌入层"), "熟悉软截断和嵌入层", []),
        # a keyword that is a listed phrase names only the subtopics listed for it (here: none in this bank)
        (("data parallelism", "tensor parallelism"), (), "data parallelism and tensor parallelism", []),
    ],
)
def test_rubric_keywords_count_half_and_only_when_specific(
    en: tuple[str, ...], zh: tuple[str, ...], text: str, subtopics: list[str]
) -> None:
    assert read(text, question("alpha", en=en, zh=zh))[0] == subtopics


def test_a_keyword_two_subtopics_share_is_evidence_for_neither() -> None:
    shared = ("weight tying", "logit soft capping")
    assert read("weight tying and logit soft capping", question("alpha", en=shared), question("beta", en=shared)) == (
        [],
        [],
        [],
    )


def test_a_personal_question_adds_no_keywords_and_does_not_hide_the_next_ones() -> None:
    mine = question("alpha", en=("weight tying", "logit soft capping"), personal=True)
    bank = question("beta", en=("embedding scaling", "query key norm"))
    assert read("embedding scaling and query key norm", mine, bank)[0] == ["beta"]
    assert read("weight tying and logit soft capping", mine, bank)[0] == []


@pytest.mark.parametrize(
    ("subtopic", "phrase"),
    [("lora", "PEFT"), ("monitoring", "Monitoring")],  # a table phrase and a display name weigh 1 each
)
def test_three_keywords_outrank_one_phrase(subtopic: str, phrase: str) -> None:
    text = f"{phrase}; weight tying, logit soft capping and embedding scaling."
    assert read(text, question(subtopic), question("alpha", en=KW_EN))[0] == ["alpha", subtopic]


@pytest.mark.parametrize(
    ("text", "subtopics"),
    [
        ("weight tying and logit soft capping; later PEFT", ["alpha", "lora"]),
        ("PEFT; later weight tying and logit soft capping", ["lora", "alpha"]),
    ],
)
def test_equal_scores_rank_by_the_first_mention(text: str, subtopics: list[str]) -> None:
    assert read(text, question("lora"), question("alpha", en=KW_EN))[0] == subtopics
