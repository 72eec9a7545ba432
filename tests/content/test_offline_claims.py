"""The offline grader credits claims, not words (issue: grading you can trust).

Each case is one of the failures the issue names, written as the answer that exposed it: a
negated claim, a listed mistake in other words, a keyword list, a partly right point, spellings
that must meet, a Chinese answer to an English rubric, a Chinese step-by-step layout. The
adversarial probes run over the whole bank in both languages.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from bot.grading.batch_question import question_from_row
from bot.grading.features import Phrase, analyse, terms_of
from bot.grading.normalize import for_matching
from bot.grading.offline import OfflineGrader
from bot.grading.probes import PROBES
from bot.kernel.models import Grade, Lang, Question
from tests.shipped import shipped_by_id

grader = OfflineGrader()


@cache
def shipped_bank() -> dict[str, Question]:
    """The shipped bank by id, loaded when a test first needs it (not at collection)."""
    return shipped_by_id()


def grade(qid: str, answer: str, lang: Lang = "en") -> Grade:
    return grader.grade_sync(shipped_bank()[qid], answer, lang)


def verdict(g: Grade, kp: str) -> str:
    return next(k.verdict for k in g.key_points if k.id == kp)


# --- stance ------------------------------------------------------------------------------------

VALUE_CLIP = {
    "en": (
        "Clipping by value clamps each element to [-c, c] element-wise, so the gradient direction changes.",
        "Clipping by value does not clamp each element to [-c, c] and does not change the gradient direction.",
    ),
    "zh": (
        "按值裁剪把每个元素逐元素截断到 [-c, c]，梯度方向会变。",
        "按值裁剪不是把每个元素逐元素截断到 [-c, c]，也不改变梯度方向。",  # issue: "不改变方向" met "改变方向"
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_denied_key_point_is_not_credited_and_is_named_as_contradicted(lang: Lang) -> None:
    right, wrong = VALUE_CLIP[lang]
    g_right, g_wrong = grade("stab-clip-norm-value-001", right, lang), grade("stab-clip-norm-value-001", wrong, lang)
    assert verdict(g_right, "value_clip") == "hit" and not g_right.mistakes
    assert verdict(g_wrong, "value_clip") == "missed"
    assert any(m.startswith(("Contradicts", "与要点相反")) for m in g_wrong.mistakes)
    assert g_wrong.score < 10 < g_right.score - 20


def test_the_negated_reference_scores_low_and_says_why() -> None:
    q = shipped_bank()["stab-nan-debug-001"]
    answer = PROBES["negated_reference"][0](q, "en")
    g = grader.grade_sync(q, answer, "en")
    assert g.score <= 30
    assert any("opposite" in m for m in g.mistakes)


def test_wrong_claims_in_the_rubrics_words_do_not_pass() -> None:
    # issue: activation memory said not to depend on sequence length, FlashAttention said to increase the
    # s x s term, recomputation said to double memory: 76 with 5 of 6 points "covered" before
    answer = (
        "Activation memory does not depend on the sequence length at all. FlashAttention increases the "
        "s x s attention term because it keeps more statistics. Full recomputation doubles the activation "
        "memory, since every layer is stored twice."
    )
    g = grade("pipe-mem-activation-001", answer)
    assert g.score <= 35
    assert sum(k.verdict == "hit" for k in g.key_points) <= 1


# --- listed mistakes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "lang"),
    [
        ("Failing that, I would restart the whole training run from scratch with a new seed.", "en"),
        ("实在不行的话，我就直接从头重新训练一遍。", "zh"),
    ],
)
def test_a_listed_mistake_is_found_in_other_words(answer: str, lang: Lang) -> None:
    g = grade("stab-nan-debug-001", answer, lang)
    assert shipped_bank()["stab-nan-debug-001"].rubric.mistakes.get(lang)[2] in g.mistakes


def test_a_sentence_that_states_a_mistake_earns_no_key_point() -> None:
    q = shipped_bank()["stab-nan-debug-001"]
    stated = "Then I would add gradient clipping to hide the data bug and keep training."
    g = grader.grade_sync(q, stated, "en")
    assert q.rubric.mistakes.en[3] in g.mistakes  # "uses clipping to hide a data or code bug"
    assert all(k.verdict == "missed" for k in g.key_points)


# --- keyword lists and single words ------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_keyword_list_is_not_an_answer(lang: Lang) -> None:
    q = shipped_bank()["stab-nan-debug-001"]
    salad = PROBES["keyword_salad"][0](q, lang)
    g = grader.grade_sync(q, salad, lang)
    assert g.score <= 25 and g.dimensions["structure"] == 0 and g.dimensions["evidence"] == 0
    assert ("术语" if lang == "zh" else "list of terms") in g.feedback
    # the same terms in sentences that make the points are an answer
    prose = grader.grade_sync(q, q.reference_answer.get(lang), lang)
    assert prose.score >= 85


def test_one_generic_word_is_not_a_point() -> None:
    g = grade("stab-nan-debug-001", "I would look at the code and print some things.")
    assert all(k.verdict == "missed" for k in g.key_points)


def test_a_partly_right_point_is_partial_and_says_what_is_missing() -> None:
    # issue: "somehow better for short context" and "an improved NTK" scored 77 with the NTK formula covered
    answer = (
        "Position interpolation squeezes the positions into the trained range. NTK is somehow better for short "
        "context, and YaRN is an improved NTK."
    )
    g = grade("pipe-longctx-rope-001", answer)
    assert verdict(g, "ntk") != "hit" and g.score < 40
    full = grade(
        "pipe-longctx-rope-001",
        "NTK-aware scaling changes the RoPE base instead of the positions: b' = b * s^(d/(d-2)), so the "
        "high-frequency dimensions stay almost unchanged and the lowest frequency is interpolated by s; it works "
        "without fine-tuning, and dynamic NTK adjusts the base to the current length.",
    )
    assert verdict(full, "ntk") == "hit"


def test_a_key_point_that_names_a_number_needs_the_number() -> None:
    q = question_from_row(
        "What threshold do you clip the global gradient norm to?",
        "Clip the global gradient norm to 1.0 with torch.nn.utils.clip_grad_norm_.",
        ["clip the global gradient norm to 1.0"],
    )
    with_number = grader.grade_sync(q, "We clip the global gradient norm to 1.0.", "en")
    without = grader.grade_sync(q, "We clip the global gradient norm to a threshold.", "en")
    assert with_number.key_points[0].verdict == "hit" and without.key_points[0].verdict != "hit"


# --- normalisation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("frozen weights", "freeze the weights"),
        ("biases", "bias"),
        ("initialise", "initialize"),
        ("normalisation", "normalization"),
        ("Young's formula", "young formula"),
        ("47 % of steps", "47% of steps"),
        ("micro-batches", "micro batches"),
        ("microbatches", "micro-batches"),
        ("Θ(1) memory", "O(1) memory"),
        ("2,000 GPUs", "2000 GPUs"),
        ("lr 3e-4", "lr 0.0003"),
        ("behaviour", "behavior"),
        ("NaN/Inf", "NaN or Inf"),
    ],
)
def test_spellings_of_one_idea_meet(a: str, b: str) -> None:
    ta, tb = set(terms_of(for_matching(a), True)), set(terms_of(for_matching(b), True))
    assert set(terms_of(for_matching(b))) <= ta or set(terms_of(for_matching(a))) <= tb, (ta, tb)


def keyword_found(keyword: str, answer: str) -> bool:
    return any(Phrase.of(keyword).in_clause(c) for s in analyse(answer) for c in s.clauses)


@pytest.mark.parametrize(
    ("keyword", "answer"),
    [
        ("micro-batch size", "We raise the micro-batch size to 8."),  # a hyphenated word inside a phrase
        ("pre-LN residual path", "In pre-LN the pre-LN residual path is an identity."),
        ("micro batch size", "We raise the micro-batch size to 8."),
        ("学习率冷却", "最后做学习率冷却，loss 会下降。"),  # 冷却 is one word, not 冷 + the contrast word 却
        ("冷却阶段", "进入冷却阶段后，学习率线性降到 0。"),
    ],
)
def test_a_keyword_meets_its_own_wording_in_an_answer(keyword: str, answer: str) -> None:
    assert keyword_found(keyword, answer)


@pytest.mark.parametrize(
    ("keyword", "answer"),
    [
        ("microbatch size", "We raise the batch size to 8."),
        ("FP16 training", "We train in BF16 (not FP16 training)."),  # an aside in brackets keeps its own stance
        ("学习率冷却", "学习率没有冷却。"),
    ],
)
def test_a_keyword_is_not_found_where_it_is_absent_or_denied(keyword: str, answer: str) -> None:
    assert not keyword_found(keyword, answer)


def stances(text: str) -> tuple[set[str], set[str]]:
    clauses = [c for s in analyse(text) for c in s.clauses]
    return set().union(*(c.pos for c in clauses)), set().union(*(c.neg for c in clauses))


def test_a_consequence_after_a_negated_claim_is_still_asserted() -> None:
    said, denied = stances("The loss does not explode, so training stays stable.")
    assert "stabl" in said and "explod" in denied
    said, denied = stances("学习率调小了，loss 却上升了。")  # 却 still turns the sentence
    assert {"上升", "学习"} <= said


@pytest.mark.parametrize(("a", "b"), [("α/r", "α/√r"), ("O(1)", "O(n)")])
def test_different_formulas_stay_different(a: str, b: str) -> None:
    assert set(terms_of(for_matching(a))) != set(terms_of(for_matching(b)))


# --- the other language, structure, feedback ----------------------------------------------------


def test_a_chinese_answer_is_graded_fairly_against_an_english_rubric() -> None:
    # issue: a concise, correct Chinese answer graded against English key points scored 0-3
    q = question_from_row(
        "Why does pre-LN train more stably than post-LN?",
        "In pre-LN the residual path is an identity from the output to the input, so gradients reach every "
        "layer without passing through LayerNorm; post-LN normalises after the residual add, which shrinks "
        "gradients of the lower layers at initialisation and needs warmup.",
        ["the residual path is an identity so gradients reach every layer", "post-LN needs a learning-rate warmup"],
    )
    right = grader.grade_sync(
        q,
        "pre-LN 的残差路径从输出到输入是恒等映射，梯度不经过 LayerNorm 就能传到每一层；"
        "post-LN 在残差相加之后再归一化，初始化时底层梯度很小，所以必须做 warmup。",
        "zh",
    )
    wrong = grader.grade_sync(q, "我喜欢吃火锅，周末去爬山。", "zh")
    assert right.score >= 45 and wrong.score < 10


def test_chinese_step_layout_counts_as_structure() -> None:
    # issue: 诊断 1)2)3)4) / 处理 / 确认 got structure 41 and was told to organise as diagnose, intervene, verify
    answer = (
        "诊断：1）先保存出 NaN 那一步的 batch，检查有没有 NaN/Inf 和越界的 label；2）记录逐层梯度范数和激活最大值，"
        "用 detect_anomaly 定位反向里第一个出 NaN 的算子；3）看学习率、warmup 和 Adam 的 epsilon；"
        "4）FP16 下看 loss scale 是不是一直在降。处理：跳过坏 batch，从最近的 checkpoint 恢复，必要时改用 BF16。"
        "确认：同样的数据顺序复现，修好后观察几千步，loss 和梯度范数都稳定。"
    )
    g = grade("stab-nan-debug-001", answer, "zh")
    assert g.dimensions["structure"] >= 70
    assert "先诊断、再干预、最后验证" not in g.feedback


CUT = re.compile(r"\b(?:and|or|of|to|the|with)[.…]|[和与及或][。…]| [.…]")


def test_feedback_never_cuts_a_key_point_and_asks_concept_questions_for_mechanism() -> None:
    for q in list(shipped_bank().values())[:40]:
        for lang in ("en", "zh"):
            g = grader.grade_sync(q, q.reference_answer.get(lang)[:200], lang)
            assert not CUT.search(g.feedback), (q.id, g.feedback)  # a label ends on a whole word, never "and."
            if q.type == "concept":
                assert "real case" not in g.feedback and "真实案例" not in g.feedback


# --- the whole bank ----------------------------------------------------------------------------


@pytest.mark.parametrize("probe", sorted(PROBES))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_bank_question_meets_its_probes(probe: str, lang: Lang) -> None:
    build, goal, kind = PROBES[probe]
    off: list[tuple[str, int]] = []
    for q in shipped_bank().values():
        score = grader.grade_sync(q, build(q, lang), lang).score
        if (score > goal) if kind == "max" else (score < goal):
            off.append((q.id, score))
    assert off == [], f"{probe}/{lang}: goal {'<=' if kind == 'max' else '>='} {goal}"


def test_the_embedding_credits_a_paraphrase_in_the_other_language_with_no_shared_word() -> None:
    q = question_from_row(
        "What does clipping by norm do to the gradient?",
        "It rescales the whole gradient vector, so its direction is kept and only its length shrinks.",
        ["the whole gradient is rescaled and keeps its direction"],
    )
    answer = "整个梯度向量按同一个比例缩小，方向保持不变，只是长度变短。"  # not one word in common
    with_model = grader.grade_sync(q, answer, "zh")
    lexical_only = OfflineGrader(semantic=False).grade_sync(q, answer, "zh")
    assert with_model.key_points[0].verdict != "missed" and with_model.score >= 30
    assert lexical_only.score < 10 and lexical_only.key_points[0].verdict == "missed"


async def test_the_async_grade_passes_the_level_through() -> None:
    q = shipped_bank()["stab-nan-debug-001"]
    answer = (
        "First I check the data batch for NaN and out-of-range labels. Then I log per-layer gradient norms and "
        "lower the learning rate from 3e-4 to 1.5e-4."
    )
    for level in ("campus", "researcher"):
        assert await grader.grade(q, answer, "en", level) == grader.grade_sync(q, answer, "en", level)
    campus = grader.grade_sync(q, answer, "en", "campus").dimensions["specificity"]
    researcher = grader.grade_sync(q, answer, "en", "researcher").dimensions["specificity"]
    assert campus > researcher  # a campus hire is held to a lower bar for numbers


@pytest.mark.parametrize(("a", "b"), [("B initialised to zero", "B initialized to 0"), ("九成的时间", "90% 的时间")])
def test_number_words_meet_their_digits(a: str, b: str) -> None:
    assert set(terms_of(for_matching(b))) <= set(terms_of(for_matching(a), True))


def test_every_reference_hits_every_one_of_its_own_points() -> None:
    """Keyword hygiene (issue: the bank, verified): a rubric only a right answer satisfies is one its own
    reference satisfies, point by point, in both languages; so for each follow-up and its own rubric."""
    from bot.kernel.follow_ups import follow_up_question

    short: list[tuple[str, str, str]] = []
    for q in shipped_bank().values():
        for lang in ("en", "zh"):
            g = grader.grade_sync(q, q.reference_answer.get(lang), lang)
            short += [(q.id, lang, k.id) for k in g.key_points if k.verdict != "hit"]
            for f in q.follow_ups:
                fq = follow_up_question(q, None, f.en)
                fg = grader.grade_sync(fq, fq.reference_answer.get(lang), lang)
                short += [(q.id, lang, k.id) for k in fg.key_points if k.verdict != "hit"]
    assert short == []
