"""Case questions grade the candidate's own story, and follow-ups never put words in the user's mouth
(issue #32 items 4-5, issue #35 section 1), enforced over the whole bank in both languages.

(a) No key point of a `case` question (its text or keywords, either language) names a number, size or
    accelerator that the question's prompt does not: the exemplar's numbers live in the reference answer
    and `specifics`, so an answer with its own story and its own numbers can meet every point.
(b) A follow-up without a `premise` stands on its own: it names no number of the reference story (the
    reference answer or the specifics, either language) that the prompt does not, and it has no "you
    said" / "你提到" phrasing and no "your <thing from the story>".
(c) A premise has terms in both languages; each term is found, by the grader's own matcher
    (bot/kernel/premise.stated), in the reference answer of its language, the story it comes from; and
    every story number the follow-up names is one of its premise's terms.

What counts as a number: a whole token of digits (decimals, thousands separators, a range "5-10%", a
product "1x128", a unit suffix: %, K, M, B, T, GB, x) or an accelerator's name (H100, A100, H800, MI300X,
TPU v4). A digit inside a name (E4M3, FP32, ZeRO-3, 13-gram, 4-bit, 34sbh) or a formula (1/sqrt(2L), 2^8,
38/η) is not one, and neither are a bare 0 or 1. A presupposition carried by words alone ("if the sequence
doubled") is for review; this test catches the numbers and the phrasings.

Each checker also runs on the bank's old wording that broke the rule, and must flag it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from bot.content.loader import DEFAULT_CONTENT_DIR
from bot.content.schema import QuestionFile
from bot.grading.features import stem
from bot.kernel.models import LANGS, FollowUp, KeyPoint, Question, Text, TextList
from bot.kernel.premise import stated

_NUMBER = re.compile(
    r"(?<![A-Za-z0-9_./^])(?<![A-Za-z]-)"  # not the tail of a name ("E4M3", "ZeRO-3") or of a formula ("2^8")
    r"\d+(?:[.,]\d+)*(?:e-?\d+)?"  # 16, 2.28, 1,000, 3e-4
    r"(?:%?\s*[-–~]\s*\d+(?:[.,]\d+)*)?"  # a range: 5-10, 5%-10
    r"(?:\s*[x×]\s*\d+(?:[.,]\d+)*)*"  # a product: 1x128, 128 × 128
    r"(?:\s*(?:%|k\b|m\b|b\b|t\b|gb\b|tb\b|mb\b|x\b))?"  # a unit: 33%, 16K, 7B, 80 GB, 5x
    r"(?![A-Za-z0-9_/(^*]|-(?:gram|bit|shot)\b)",  # not the head of a name ("34sbh", "13-gram") or formula
    re.IGNORECASE,
)
_ACCELERATOR = re.compile(
    r"(?<![A-Za-z0-9])(?:[ABHLV]\d{2,3}|H800|H20|GH200|GB200|B200|MI\d{3}X?|TPU\s*v\d\w*)(?=s?(?![A-Za-z0-9]))",
    re.IGNORECASE,
)
_TRIVIAL = frozenset({"0", "1"})  # "decays to 0", "a ratio of 1": no one's exemplar

# Phrasings that attribute a statement or a choice to the user.
_SAID_EN = re.compile(
    r"\byou(?:'ve)?\s+(?:said|mentioned|noted|stated|claimed|described|suggested|proposed|called)\b"
    r"|\bas you (?:said|put it|mentioned)\b|\byour (?:answer|earlier|previous|story)\b"
    r"|(?:^|[.?!:;]\s+)you\s+(?:kept|used|chose|picked|changed|reached|set|lowered|raised|cut|added|removed"
    r"|switched|moved|ran|found|clipped|trained|measured|estimated|tried|wrote|built|decided)\b",
    re.IGNORECASE,
)
_SAID_ZH = re.compile(
    r"你(?:刚才|刚刚|前面|之前|上面)?(?:说|提到|讲到|提及|所说)|你(?:用的是|同时改了|选的是|当时用)|你的回答"
)
_YOUR_EN = re.compile(r"\byour\s+([A-Za-z0-9][\w.%-]*)", re.IGNORECASE)
_YOUR_ZH = re.compile(r"你的\s*[“\"]?([^\s，。？、；：“”\"]{1,4})")
# "your <noun>" that asks about the user's own situation, not a fact of the reference story.
_GENERIC_YOUR_EN = frozenset(
    """approach answer plan options objective run own current order conclusion conclusions domains manager team
    model training data setup code choice validation test initialisation initialization gradient learning""".split()  # noqa: SIM905
)
_GENERIC_YOUR_ZH = (
    "方案",
    "回答",
    "训练",
    "模型",
    "结论",
    "排查",
    "领域",
    "学习率",
    "初始化",
    "测试",
    "数据",
    "选项",
    "目标",
)


def _norm(token: str) -> str:
    return re.sub(r"\s+", "", token.lower().replace("×", "x").replace("–", "-").replace("，", ","))


def number_tokens(text: str) -> frozenset[str]:
    """The numbers, sizes and accelerators a text names, normalised ("1,000" = "1000", "16K" = "16k")."""
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    found = {_norm(m.group(0)) for m in _NUMBER.finditer(text)} | {
        _norm(m.group(0)) for m in _ACCELERATOR.finditer(text)
    }
    return frozenset(found - _TRIVIAL)


def _texts(t: Text) -> str:
    return f"{t.en}\n{t.zh}"


def prompt_numbers(q: Question) -> frozenset[str]:
    return number_tokens(_texts(q.prompt))


def story_numbers(q: Question) -> frozenset[str]:
    """The numbers of the reference story: its answer and its specifics, both languages."""
    specifics = "\n".join(q.rubric.specifics.both())
    return number_tokens(_texts(q.reference_answer) + "\n" + specifics)


def key_point_numbers(q: Question, kp: KeyPoint) -> list[str]:
    """(a) The numbers a key point names that the prompt does not."""
    named = number_tokens(_texts(kp.text) + "\n" + "\n".join(kp.keywords.both()))
    return sorted(named - prompt_numbers(q))


def _words(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in re.findall(r"[a-z][a-z-]*", text.lower()))


def presuppositions(q: Question, f: FollowUp) -> list[str]:
    """(b) What a follow-up takes from the reference story: its numbers (not the prompt's), a "you said"
    phrasing, a "your <thing>" whose thing is the story's and not the prompt's."""
    prompt = prompt_numbers(q)
    out = sorted((number_tokens(_texts(f)) & story_numbers(q)) - prompt)
    out += [m.group(0) for m in _SAID_EN.finditer(f.en)] + [m.group(0) for m in _SAID_ZH.finditer(f.zh)]
    story_words, prompt_words = _words(q.reference_answer.en), _words(q.prompt.en)
    for m in _YOUR_EN.finditer(f.en):
        word = m.group(1).lower()
        if number_tokens(word):
            if number_tokens(word) - prompt:
                out.append(m.group(0))
        elif word not in _GENERIC_YOUR_EN and stem(word) in story_words and stem(word) not in prompt_words:
            out.append(m.group(0))
    for m in _YOUR_ZH.finditer(f.zh):
        thing = m.group(1)
        if number_tokens(thing):
            if number_tokens(thing) - prompt:
                out.append(m.group(0))
        elif (
            not thing.startswith(_GENERIC_YOUR_ZH)
            and thing[:2] in q.reference_answer.zh
            and thing[:2] not in q.prompt.zh
        ):
            out.append(m.group(0))
    return out


def premise_faults(q: Question, f: FollowUp) -> list[str]:
    """(c) A premise in one language only, a term the story does not state, a story number it leaves out."""
    faults = [f"no {lang} terms" for lang in LANGS if not [t for t in f.premise.get(lang) if t.strip()]]
    for lang in LANGS:
        for term in f.premise.get(lang):
            if not stated(TextList(**{lang: [term]}), q.reference_answer.get(lang)):
                faults.append(f"{lang} term {term!r} is not in the {lang} reference answer")
    named = (number_tokens(_texts(f)) & story_numbers(q)) - prompt_numbers(q)
    covered = number_tokens("\n".join(f.premise.both()))
    faults += [f"names {n!r}, which its premise does not" for n in sorted(named - covered)]
    return faults


def load_files(root: Path = DEFAULT_CONTENT_DIR) -> list[QuestionFile]:
    return [
        QuestionFile.model_validate(yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
        for p in sorted(root.glob("*/*.yaml"))
    ]


@cache
def questions() -> list[Question]:
    """The bank as shipped, read once per run when a test first needs it (never at collection)."""
    return [qf.to_question() for qf in load_files()]


def bank() -> dict[str, Question]:
    return {q.id: q for q in questions()}


# --- (a) case key points -------------------------------------------------------------------------------


def test_no_case_key_point_names_a_number_the_prompt_does_not() -> None:
    cases = [q for q in questions() if q.type == "case"]
    found = [(q.id, kp.id, n) for q in cases for kp in q.rubric.key_points if (n := key_point_numbers(q, kp))]
    assert found == [], "the exemplar's numbers belong in the reference answer and the specifics"
    assert len(cases) >= 20


@pytest.mark.parametrize(
    ("qid", "text", "keywords", "flagged"),
    [
        # the key points this rule replaced (issue #35): the exemplar's MFU, its scale, its accelerator
        (
            "pipe-actckpt-case-001",
            Text(
                zh="量化结果：峰值显存、MFU/吞吐在全量与部分 checkpoint 下的对比（如 MFU 33% → 40%），以及 loss 曲线与对照一致",
                en="Quantified result: peak memory and MFU or throughput with full versus partial checkpointing "
                "(e.g. MFU 33% → 40%), and a loss curve matching the control",
            ),
            TextList(zh=["33%", "40%", "峰值"], en=["33%", "40%", "peak"]),
            ["33%", "40%"],
        ),
        (
            "pipe-actckpt-case-001",
            Text(zh="情境清楚：模型规模、序列长度", en="A clear situation: model size, sequence length"),
            TextList(zh=["OOM", "16K", "7B"], en=["oom", "16k", "fsdp", "micro batch 1", "7b"]),
            ["16k", "7b"],
        ),
        (
            "stab-precision-004",
            Text(
                zh="情境：模型规模、硬件（H100 这类支持 FP8 的 GPU）",
                en="Situation: model size, hardware (FP8 GPUs such as H100)",
            ),
            TextList(zh=["H100", "吞吐"], en=["h100", "throughput"]),
            ["h100"],
        ),
        (
            "pipe-actckpt-case-001",
            Text(zh="经验：留 5%-10% 余量", en="Lesson: keep 5-10% headroom"),
            TextList(zh=["余量"], en=["headroom"]),
            ["5%-10%", "5-10%"],
        ),
    ],
)
def test_the_case_check_flags_the_exemplars_numbers(
    qid: str, text: Text, keywords: TextList, flagged: list[str]
) -> None:
    q = bank()[qid]
    kp = KeyPoint(id="old", weight=1, text=text, keywords=keywords)
    assert key_point_numbers(q, kp) == sorted(flagged)
    clean = KeyPoint(
        id="new", weight=1, text=Text(zh="峰值显存和吞吐的前后对比", en="peak memory and throughput before and after")
    )
    assert key_point_numbers(q, clean) == []


def test_names_and_formulas_are_not_numbers() -> None:
    assert (
        number_tokens("E4M3 and E5M2, FP32 accumulation, ZeRO-3, 13-gram overlap, 4-bit weights, 34sbh") == frozenset()
    )
    assert number_tokens("scaled by 1/sqrt(2L), not 2^8 × 1.875; Adam's 38/η; decays to 0; a ratio of 1") == {"1.875"}
    assert number_tokens("7B on 256 H100s, 16K context, 1,000 steps, 5-10% headroom, 1x128 tiles") == {
        "7b", "256", "h100", "16k", "1000", "5-10%", "1x128",
    }  # fmt: skip
    assert number_tokens("16K 序列、32 层、A100-80GB") == {"16k", "32", "a100", "80gb"}


# --- (b) follow-ups without a premise ------------------------------------------------------------------


def test_no_follow_up_without_a_premise_presupposes_the_reference_story() -> None:
    found = [
        (q.id, i + 1, p)
        for q in questions()
        for i, f in enumerate(q.follow_ups)
        if not f.premise.both() and (p := presuppositions(q, f))
    ]
    assert found == [], "rewrite the follow-up to stand alone, or give it the premise it needs"


@pytest.mark.parametrize(
    ("qid", "zh", "en", "flagged"),
    [
        # the follow-ups this rule replaced (issues #32 and #35)
        (
            "pipe-actckpt-case-001",
            "为什么只 checkpoint 10 层而不是 12 层或 8 层？",
            "Why 10 layers and not 12 or 8?",
            "10",
        ),
        (
            "stab-tradeoff-002",
            "学习率降 25% 带来的 0.01 loss 代价，你是怎么用小模型估出来的？",
            "How did you estimate the 0.01 loss cost of a 25% lower learning rate on a small model?",
            "0.01",
        ),
        (
            "stab-batch-scale-case-001",
            "你说 4M 已经接近临界 batch，如果老板要求再扩到 1024 张卡，你会怎么回应？",
            "You said 4M was near the critical batch. If your manager wanted to scale to 1,024 GPUs, how would you respond?",
            "You said",
        ),
        (
            "stab-nan-debug-001",
            "你说梯度裁剪到 1.0，这个阈值是怎么定的？",
            "How did you choose that threshold?",
            "你说",
        ),
        (
            "stab-nan-debug-001",
            "这个阈值是怎么定的？",
            "You clipped the gradient norm at 1.0: how did you choose it?",
            "1.0",
        ),
        (
            "stab-spike-case-001",
            "你同时改了学习率、beta2 和 z-loss，怎么知道哪个起作用？",
            "How do you know which one helped?",
            "你同时改了",
        ),
        (
            "stab-tradeoff-002",
            "如果触发规则被触发了，你的“更强的修复”具体是什么？",
            "If the trigger rule had fired, what exactly was your stronger fix?",
            "your stronger",
        ),
        ("stab-rl-003", "λ 调小会怎样？", "You used γ = 1 and λ = 0.95. How does a smaller λ change the bias?", "0.95"),
    ],
)
def test_the_follow_up_check_flags_the_old_presupposing_follow_ups(qid: str, zh: str, en: str, flagged: str) -> None:
    q = bank()[qid]
    assert flagged in presuppositions(q, FollowUp(zh=zh, en=en))


def test_the_follow_up_check_passes_what_the_prompt_states_and_what_stands_alone() -> None:
    # "your 8 benchmarks": the prompt's own eight
    q = bank()["pipe-eval-checkpoint-decision-001"]
    fu = FollowUp(
        zh="它们在你的 8 个 benchmark 上互有胜负，你怎么判断？",
        en="They trade wins across your 8 benchmarks. How do you decide?",
    )
    assert presuppositions(q, fu) == []
    q = bank()["pipe-actckpt-case-001"]
    fu = FollowUp(zh="你是怎么决定对多少层做 checkpoint 的？", en="How did you decide how many layers to checkpoint?")
    assert presuppositions(q, fu) == []


# --- (c) premises --------------------------------------------------------------------------------------


def test_every_premise_is_stated_by_its_story_in_both_languages() -> None:
    with_premise = [(q, f) for q in questions() for f in q.follow_ups if f.premise.both()]
    found = [(q.id, f.en, fault) for q, f in with_premise for fault in premise_faults(q, f)]
    assert found == []
    assert with_premise, "the bank uses premises (stab-optim-003 asks about beta2 = 0.95 only after an answer names it)"


def test_the_premise_check_flags_a_missing_language_an_unstated_term_and_an_uncovered_number() -> None:
    q = bank()["pipe-actckpt-case-001"]
    old = "Why 10 layers and not 12 or 8? How did you pick that number?"
    good = FollowUp(zh="为什么只 checkpoint 10 层？", en=old, premise=TextList(zh=["10 层"], en=["10 of the 32"]))
    assert premise_faults(q, good) == []
    assert premise_faults(q, good.model_copy(update={"premise": TextList(en=["10 of the 32"])})) == ["no zh terms"]
    unstated = good.model_copy(update={"premise": TextList(zh=["12 层"], en=["12 layers"])})
    assert premise_faults(q, unstated) == [
        "zh term '12 层' is not in the zh reference answer",
        "en term '12 layers' is not in the en reference answer",
        "names '10', which its premise does not",
    ]
    # "10 layers" is not in "100 layers": the grader's whole-word match
    assert not stated(TextList(en=["10 layers"]), "we kept 100 layers")


def test_the_schema_refuses_a_premise_in_one_language() -> None:
    path = next(DEFAULT_CONTENT_DIR.glob("*/stab-optim-003.yaml"))
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert QuestionFile.model_validate(raw).follow_ups[0].premise == TextList(zh=["0.95"], en=["0.95"])
    for premise in ({"zh": [], "en": ["0.95"]}, {"zh": ["  "], "en": ["0.95"]}):
        raw["follow_ups"][0]["premise"] = premise
        with pytest.raises(ValidationError, match="a premise needs terms in both zh and en"):
            QuestionFile.model_validate(raw)
    raw["follow_ups"][0]["premise"] = {"zh": [], "en": []}  # no premise: the follow-up stands alone
    assert not QuestionFile.model_validate(raw).follow_ups[0].premise.both()
