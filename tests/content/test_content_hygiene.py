"""Keyword hygiene, enforced over the whole bank (issue #14).

Every key point of every bank question, and of every follow-up's own rubric, in both languages. The
offline grader credits a key point for the terms of its text and for its `keywords`, each matched with
its stance (bot/grading/rubric_match.py, concepts.py); these tests hold the keywords to what the grader
makes of them, using its own normalisation (`normalize.for_matching`), term extraction
(`features.terms_of`) and keyword matching (`features.Phrase`):

1. No keyword echoes the prompt. How the grader weighs prompt terms: `rubric_match.prepare` takes the
   prompt's terms, `terms_of(for_matching(prompt))` of both languages as one set, and `concepts.concepts`
   weighs every key-point term and every keyword whose terms are in that set at QUESTION_FACTOR (0.35) of
   its bank weight (`term_weights`: inverse document frequency over the bank); a keyword weighs as much as
   its heaviest term. A keyword all of whose terms the prompt already uses is worth a third of itself and
   is met by any answer that restates the question. So it echoes exactly when its terms are a subset of
   the prompt's terms; the follow-up's own text is the prompt of a follow-up's rubric. A key point that
   genuinely needs such a term lists it in `prompt_keywords: {zh: [...], en: [...]}` (bot/content/schema.py
   checks every listed item is one of its keywords; here, that each listed one really echoes the prompt).
2. No keyword is stance-blind, graded with the offline grader itself: the question's listed mistakes stated
   as claims (`probes.mistakes_answer`) hit no key point; no keyword that answer contains earns a point more
   credit than the point gets without it; and in the reference with every clause negated
   (`probes.negated_reference`), no keyword found before the negation of a flipped piece (it names what the
   piece denies: "3-digit groups are not compact") does either. The same for each follow-up's own rubric
   (its negated reference, and the parent's mistakes). The whole-bank probe tests in test_offline_claims.py
   hold these probes' *scores* to ceilings; these hold each key point and single out its keywords. (A
   point's text terms can still meet a negated reference where the grader reads a flipped piece as
   asserted, e.g. after "so" or 所以; that is the text's and the grader's matter, not the keywords'.)
3. No keyword is a generic word on its own (GENERIC_EN / GENERIC_ZH: one content term, as the grader sees
   it, from that list; a phrase that adds a specific term is fine), a single character, a duplicate of
   another keyword of the point after normalisation, or a phrase the grader can never match: stop words
   only, or one that does not match its own wording written as an answer (a bracket or a "then" starts a
   new clause, a hyphenated word inside a phrase is split on the answer side, 不/没/"unstable" flip the
   stance). Every point keeps at least MIN_KEYWORDS in each language.
4. Spelling variants are covered: an English keyword matches its British/American spelling and the plural
   of its last word (a plural the bank's own texts use), by normalisation or by another keyword of the
   point; and no English keyword holds a cut-off stem ("saturat") that no word of the bank stems to.

Each checker also runs on a question built in memory with the fault, and must flag it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from bot.content.loader import DEFAULT_CONTENT_DIR, read_yaml
from bot.content.schema import QuestionFile
from bot.grading.features import STOPWORDS, Phrase, analyse, split_sentences, stem, terms_of
from bot.grading.normalize import for_matching
from bot.grading.offline import OfflineGrader
from bot.grading.probes import mistakes_answer, negated_reference
from bot.kernel.follow_ups import follow_up_question
from bot.kernel.models import LANGS, KeyPoint, Lang, Question, Text, TextList

EXAMPLE = DEFAULT_CONTENT_DIR / "stability" / "stab-nan-debug-001.yaml"

# Words that say nothing on their own in this bank: a keyword that is just one of them (stop words aside,
# "every step", "too large") matches right and wrong answers alike. A phrase that adds a specific term is fine.
GENERIC_EN = frozenset(
    """
    limit code interval placement method model training data value problem use check set step result issue way
    loss gradient batch token layer run time number first fix change compare test error good bad small large
    high low compute memory quality parameter weight output input performance
    """.split()  # noqa: SIM905
)
GENERIC_ZH = frozenset(
    """
    打印 重复 方法 模型 训练 数据 问题 使用 检查 设置 结果 梯度 参数 计算 损失 层 批次 修复 比较 测试 错误
    稳定 过大 过小 大 小 时间 效果 性能 质量 显存 内存 输出 输入 步
    """.split()  # noqa: SIM905
)


@cache
def generic_terms() -> frozenset[str]:
    """GENERIC_EN and GENERIC_ZH as the grader's terms (worked out when first needed: jieba takes a second to load)."""
    return frozenset(t for w in GENERIC_EN | GENERIC_ZH for t in terms_of(for_matching(w)))


MIN_KEYWORDS = 2  # per key point and language: several distinct content terms, not one word


# --- the bank, with each key point's prompt and marks ------------------------------------------------


@dataclass(frozen=True)
class Point:
    """A key point of a question's rubric or of a follow-up's own rubric, with the prompt it answers."""

    qid: str
    where: str  # "rubric" or "follow-up N"
    prompt: Text
    key_point: KeyPoint
    allowed: TextList  # its `prompt_keywords`

    def __str__(self) -> str:
        return f"{self.qid} {self.where} {self.key_point.id}"


def load_files(root: Path = DEFAULT_CONTENT_DIR) -> list[QuestionFile]:
    """The bank's files as the schema reads them (with the `prompt_keywords` marks the grader never sees)."""
    return [
        QuestionFile.model_validate(read_yaml(p.read_text(encoding="utf-8"))) for p in sorted(root.glob("*/*.yaml"))
    ]


def points_of(qf: QuestionFile) -> list[Point]:
    out = [Point(qf.id, "rubric", qf.prompt, k, qf.allowed_echoes(k.id)) for k in qf.rubric.key_points]
    for i, f in enumerate(qf.follow_ups):
        prompt = Text(zh=f.zh, en=f.en)
        out += [Point(qf.id, f"follow-up {i + 1}", prompt, k, qf.allowed_echoes(k.id)) for k in f.key_points]
    return out


@cache
def bank_files() -> list[QuestionFile]:
    """The shipped bank's files, read once per run when a test first needs them (not at collection)."""
    return load_files()


@cache
def bank_points() -> list[Point]:
    return [p for qf in bank_files() for p in points_of(qf)]


@cache
def bank_questions() -> list[Question]:
    return [qf.to_question() for qf in bank_files()]


# --- 1. echoes of the prompt -------------------------------------------------------------------------


def prompt_terms(prompt: Text) -> frozenset[str]:
    """The prompt's terms as the grader takes them (rubric_match.prepare: both languages, one set)."""
    return frozenset(terms_of(for_matching(prompt.en))) | frozenset(terms_of(for_matching(prompt.zh)))


def echoes(keyword: str, terms: frozenset[str]) -> bool:
    """All the keyword's terms are the prompt's: the grader weighs it at QUESTION_FACTOR."""
    own = Phrase.of(keyword).terms
    return bool(own) and own <= terms


def echoing_keywords(p: Point) -> list[tuple[Lang, str]]:
    terms = prompt_terms(p.prompt)
    return [
        (lang, kw)
        for lang in LANGS
        for kw in p.key_point.keywords.get(lang)
        if kw not in p.allowed.get(lang) and echoes(kw, terms)
    ]


def stale_marks(p: Point) -> list[tuple[Lang, str]]:
    """Marked keywords that do not echo the prompt (the mark would hide nothing, or the prompt changed)."""
    terms = prompt_terms(p.prompt)
    return [(lang, kw) for lang in LANGS for kw in p.allowed.get(lang) if not echoes(kw, terms)]


def test_no_keyword_echoes_the_prompt_unless_marked() -> None:
    found = [(str(p), lang, kw) for p in bank_points() for lang, kw in echoing_keywords(p)]
    assert found == [], f"{len(found)} keywords echo the prompt: replace them with what the point adds"


def test_every_prompt_keywords_mark_is_needed() -> None:
    assert [(str(p), lang, kw) for p in bank_points() for lang, kw in stale_marks(p)] == []


def test_the_echo_check_flags_a_prompt_word_and_honours_a_mark() -> None:
    # the prompt: "... the loss suddenly becomes NaN ..." / "大模型训练到一半，loss 突然变成 NaN……"
    p = next(p for p in bank_points() if p.qid == "stab-nan-debug-001" and p.key_point.id == "data")
    assert echoing_keywords(p) == [] and not p.allowed.both()

    def point(en: tuple[str, ...], zh: tuple[str, ...] = (), allowed: TextList | None = None) -> Point:
        kws = TextList(zh=[*p.key_point.keywords.zh, *zh], en=[*p.key_point.keywords.en, *en])
        return Point(p.qid, p.where, p.prompt, p.key_point.model_copy(update={"keywords": kws}), allowed or TextList())

    bad = ("NaN", "the loss becomes NaN")
    assert echoing_keywords(point(bad, ("NaN",))) == [("zh", "NaN"), ("en", "NaN"), ("en", "the loss becomes NaN")]
    assert echoing_keywords(point(bad, ("NaN",), TextList(zh=["NaN"], en=["NaN"]))) == [("en", "the loss becomes NaN")]
    assert echoing_keywords(point(("NaN inputs", "输入里的 NaN"))) == []  # a term of its own: not an echo
    assert stale_marks(point((), allowed=TextList(en=["bad batch"]))) == [("en", "bad batch")]  # nothing to allow


def _raw_example() -> Any:
    return yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))


def test_the_schema_checks_the_mark_and_the_grader_never_sees_it() -> None:
    data = _raw_example()
    kp = data["rubric"]["key_points"][0]
    kp["prompt_keywords"] = {"zh": [], "en": [kp["keywords"]["en"][0]]}
    follow_kp = data["follow_ups"][0]["key_points"][0]
    follow_kp["prompt_keywords"] = {"zh": [follow_kp["keywords"]["zh"][0]], "en": []}
    qf = QuestionFile.model_validate(data)
    assert qf.allowed_echoes(kp["id"]).en == [kp["keywords"]["en"][0]]
    assert qf.allowed_echoes(follow_kp["id"]).zh == [follow_kp["keywords"]["zh"][0]]
    q = qf.to_question()
    assert "prompt_keywords" not in str(q.model_dump())

    stray = _raw_example()
    stray["rubric"]["key_points"][1]["prompt_keywords"] = {"en": ["not one of its keywords"]}
    with pytest.raises(ValidationError, match="not among its keywords"):
        QuestionFile.model_validate(stray)
    wrong_shape = _raw_example()
    wrong_shape["rubric"]["key_points"][1]["prompt_keywords"] = ["NaN"]
    with pytest.raises(ValidationError, match="must be"):
        QuestionFile.model_validate(wrong_shape)
    top = {**_raw_example(), "prompt_keywords": {"en": ["NaN"]}}
    with pytest.raises(ValidationError, match="belongs on a key point"):
        QuestionFile.model_validate(top)


# --- 3. generic, single-character, duplicated and unmatchable keywords ----------------------------------


def matches(keyword: str, answer: str) -> bool:
    """The grader's keyword match: the phrase, in order, in one clause of the answer, with its stance."""
    ph = Phrase.of(keyword)
    return any(ph.in_clause(c) for s in analyse(answer) for c in s.clauses)


def keyword_faults(keyword: str) -> list[str]:
    terms = Phrase.of(keyword).terms
    faults = []
    if not terms:
        faults.append("no content term")
    elif not matches(keyword, keyword):
        faults.append("never matches its own wording")
    if len(terms) == 1 and terms <= generic_terms():
        faults.append("generic")
    if len(for_matching(keyword).replace(" ", "")) <= 1:
        faults.append("single character")
    return faults


def duplicates(keywords: list[str]) -> list[str]:
    """Keywords that are another keyword of the same list once normalised (the grader counts them once)."""
    seen: set[str] = set()
    out = []
    for kw in keywords:
        key = Phrase.of(kw).key
        if key in seen:
            out.append(kw)
        seen.add(key)
    return out


def test_no_keyword_is_generic_single_character_or_unmatchable() -> None:
    found = [
        (str(p), lang, kw, fault)
        for p in bank_points()
        for lang in LANGS
        for kw in p.key_point.keywords.get(lang)
        for fault in keyword_faults(kw)
    ]
    assert found == [], f"{len(found)} faulty keywords"


def test_no_key_point_repeats_a_keyword_or_has_too_few() -> None:
    doubled = [(str(p), lang, duplicates(p.key_point.keywords.get(lang))) for p in bank_points() for lang in LANGS]
    assert [d for d in doubled if d[2]] == []
    few = [
        (str(p), lang) for p in bank_points() for lang in LANGS if len(p.key_point.keywords.get(lang)) < MIN_KEYWORDS
    ]
    assert few == []


@pytest.mark.parametrize(
    ("keyword", "fault"),
    [
        ("data", "generic"),
        ("every step", "generic"),  # one content term, and a generic one
        ("数据", "generic"),
        ("熵", "single character"),
        ("ZeRO", "single character"),  # "zero" is the number 0 to the grader
        ("on and off", "no content term"),
        ("sbh(34 + 5as/h)", "never matches its own wording"),  # a bracket starts a clause of its own
    ],
)
def test_the_keyword_check_flags_a_bad_keyword(keyword: str, fault: str) -> None:
    assert fault in keyword_faults(keyword)


@pytest.mark.parametrize(
    "keyword", ["training data mix", "gradient norm", "数据配比", "熵正则", "ZeRO-3", "34 + 5as/h"]
)
def test_the_keyword_check_passes_a_specific_keyword(keyword: str) -> None:
    assert keyword_faults(keyword) == []


def test_the_duplicate_check_sees_through_spelling() -> None:
    assert duplicates(["normalised", "gradient norm", "normalized", "Gradient-Norm"]) == ["normalized"]
    assert duplicates(["loss scale", "loss scaling"]) == ["loss scaling"]


# --- 4. spelling variants ------------------------------------------------------------------------------

_US = re.compile(r"\b([a-z]{3,}?)(iz|yz)(e|es|ed|ing|ation|ations|er|ers)\b")
_UK = re.compile(r"\b([a-z]{3,}?)(is|ys)(e|es|ed|ing|ation|ations|er|ers)\b")
_OUR = {"behavior": "behaviour", "color": "colour", "favor": "favour", "neighbor": "neighbour", "labor": "labour"}
_UNCOUNTED = {"std"}  # a statistic's name, not written in the plural
_IRREGULAR_PLURALS = {"matrix": "matrices", "index": "indices", "vertex": "vertices", "axis": "axes"}


def spelling_variants(keyword: str) -> list[str]:
    """The keyword in the other of British and American spelling (-ise/-ize, -isation/-ization, -our/-or)."""
    low = keyword.lower()
    out = {
        _US.sub(lambda m: m.group(1) + ("is" if m.group(2) == "iz" else "ys") + m.group(3), low),
        _UK.sub(lambda m: m.group(1) + ("iz" if m.group(2) == "is" else "yz") + m.group(3), low),
    }
    for us, uk in _OUR.items():
        out |= {re.sub(rf"\b{us}", uk, low), re.sub(rf"\b{uk}", us, low)}
    return sorted(out - {low})


def truncated_words(keyword: str, words: frozenset[str]) -> list[str]:
    """Words of an English keyword that are a cut-off stem ("saturat"): the grader stems whole words
    ("saturates" -> "satur"), so a fragment that no word of the bank stems to meets nothing."""
    stems = bank_stems()
    return [
        w
        for w in re.findall(r"[a-z]{4,}", keyword.lower())
        if w not in words and stem(w) not in stems and any(b.startswith(w) for b in words)
    ]


def plural(word: str) -> str:
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if re.search(r"(s|x|z|ch|sh)$", word):
        return word + "es"
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    return word + "s"


@cache
def bank_words() -> frozenset[str]:
    """Every word the bank's own English texts use (so a plural variant is one an answer would write)."""
    texts = []
    for q in bank_questions():
        texts += [q.prompt.en, q.reference_answer.en, *q.rubric.mistakes.en, *q.rubric.specifics.en]
        texts += [k.text.en for k in q.rubric.key_points]
        for f in q.follow_ups:
            texts += [f.en, f.reference_answer.en if f.reference_answer else ""]
            texts += [k.text.en for k in f.key_points]
    found = {w for t in texts for w in re.findall(r"[a-z][a-z-]*[a-z]", t.lower())}
    return frozenset(found | {part for w in found for part in w.split("-")})


@cache
def bank_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in bank_words())


def plural_variants(keyword: str, words: frozenset[str]) -> list[str]:
    """The keyword with its last word in the plural, when that word can take one here: three letters or
    more, not after a stop word or "single" ("per GPU", "the std" stay singular), and a plural the bank uses."""
    *head, last = keyword.lower().split(" ")
    if not re.fullmatch(r"[a-z][a-z-]*[a-z]{2}", last) or last.endswith("s") or last in _UNCOUNTED:
        return []
    if head and (head[-1] in STOPWORDS or head[-1] == "single"):
        return []
    many = plural(last)
    return [" ".join([*head, many])] if many in words else []


def uncovered_variants(p: Point, words: frozenset[str]) -> list[tuple[str, str]]:
    """(keyword, variant) pairs where no keyword of the point matches the variant written as an answer."""
    own = p.key_point.keywords.en
    out = []
    for kw in own:
        for variant in [*spelling_variants(kw), *plural_variants(kw, words)]:
            if not any(matches(k, variant) for k in own):
                out.append((kw, variant))
    return out


def test_every_english_keyword_meets_its_spelling_variants() -> None:
    words = bank_words()
    found = [(str(p), kw, v) for p in bank_points() for kw, v in uncovered_variants(p, words)]
    assert found == [], f"{len(found)} spelling variants no keyword meets"
    cut = [(str(p), kw, truncated_words(kw, words)) for p in bank_points() for kw in p.key_point.keywords.en]
    assert [c for c in cut if c[2]] == [], "keywords with a cut-off stem meet no word"


def test_the_variant_check_covers_british_american_and_plurals() -> None:
    words = frozenset({"gpus", "gradients", "matrices"})
    assert spelling_variants("initialise the weights") == ["initialize the weights"]
    assert "normalisation layer" in spelling_variants("normalization layer")
    assert plural_variants("layer gradient", words) == ["layer gradients"]
    assert plural_variants("attention matrix", words) == ["attention matrices"]
    assert plural_variants("per gpu", words) == []  # stays singular
    p = bank_points()[0]

    def point(*en: str) -> Point:
        kp = p.key_point.model_copy(update={"keywords": TextList(zh=["占位"], en=list(en))})
        return Point(p.qid, p.where, p.prompt, kp, TextList())

    assert uncovered_variants(point("initialise the weights", "layer gradient"), words) == []  # normalised
    assert uncovered_variants(point("8 GPU"), words) == [("8 GPU", "8 gpus")]  # the stemmer keeps "gpus"
    assert uncovered_variants(point("8 GPU", "8 GPUs"), words) == []  # covered by a second keyword
    assert truncated_words("saturat", bank_words()) == ["saturat"]  # the stem of "saturates" is "satur"
    assert truncated_words("saturates", bank_words()) == truncated_words("retun", bank_words()) == []


# --- 2. stance-blind keywords: the question's own wrong answers -----------------------------------------

grader = OfflineGrader()
RANK = {"missed": 0, "partial": 1, "hit": 2}


def rubrics_of(q: Question) -> list[tuple[str, Question]]:
    """The question, and each follow-up as the grader grades an answer to it (with its own rubric)."""
    out = [("rubric", q)]
    out += [
        (f"follow-up {i + 1}", follow_up_question(q, None, f.en)) for i, f in enumerate(q.follow_ups) if f.key_points
    ]
    return out


# How probes.negated_reference cuts a sentence before flipping each piece's stance.
_PROBE_PIECES = re.compile(r"，|；|, |; |: |：|\(|\)|（|）| - ")


def fired_keywords(kp: KeyPoint, answer: str, lang: Lang, *, negating: str | None = None) -> list[str]:
    """The point's keywords the grader finds in the answer. For a negated reference (`negating`: the text it
    negates), only those found in a piece the probe flipped, before the negation: the keyword names what the
    piece denies ("3-digit groups are not compact"). A piece the probe left as it was, a keyword that carries
    its own negation, and a clause the grader splits off a flipped piece ("it is not true that so train ...":
    "so" starts a new clause, which reads as asserted) are not the keyword's fault."""
    if negating is None:
        clauses = [c for s in analyse(answer) for c in s.clauses]
        return [kw for kw in kp.keywords.get(lang) if any(Phrase.of(kw).in_clause(c) for c in clauses)]
    pieces = [
        p for s in split_sentences(answer) for p in _PROBE_PIECES.split(s) if p.strip() and p.strip() not in negating
    ]
    clauses = [c for p in pieces for s in analyse(p) for c in s.clauses if c.negated]
    return [
        kw
        for kw in kp.keywords.get(lang)
        if not Phrase.of(kw).negated and any(Phrase.of(kw).in_clause(c) for c in clauses)
    ]


def without(q: Question, drop: dict[str, list[str]], lang: Lang) -> Question:
    """The question with some keywords of some of its points removed (point id -> keywords in `lang`)."""

    def kept(k: KeyPoint) -> KeyPoint:
        kws = {**k.keywords.model_dump(), lang: [w for w in k.keywords.get(lang) if w not in drop.get(k.id, [])]}
        return k.model_copy(update={"keywords": TextList(**kws)})

    return q.model_copy(
        update={"rubric": q.rubric.model_copy(update={"key_points": [kept(k) for k in q.rubric.key_points]})}
    )


def keyword_lifts(
    q: Question, answer: str, lang: Lang, *, negating: str | None = None
) -> list[tuple[str, str, str, list[str]]]:
    """Key points a wrong answer earns more credit for through keywords it should not meet (`fired_keywords`):
    each (point id, verdict, verdict without those keywords, the keywords)."""
    graded = grader.grade_sync(q, answer, lang)
    points = {k.id: k for k in q.rubric.key_points}
    drop = {}
    for r in graded.key_points:
        if r.verdict != "missed" and (fired := fired_keywords(points[r.id], answer, lang, negating=negating)):
            drop[r.id] = fired
    if not drop:
        return []
    bare = {k.id: k.verdict for k in grader.grade_sync(without(q, drop, lang), answer, lang).key_points}
    return [
        (k.id, k.verdict, bare[k.id], drop[k.id])
        for k in graded.key_points
        if k.id in drop and RANK[k.verdict] > RANK[bare[k.id]]
    ]


@cache
def mistakes_grade(qid: str, lang: Lang) -> tuple[tuple[str, str], ...]:
    q = next(q for q in bank_questions() if q.id == qid)
    return tuple((k.id, k.verdict) for k in grader.grade_sync(q, mistakes_answer(q, lang), lang).key_points)


@pytest.mark.parametrize("lang", LANGS)
def test_the_listed_mistakes_hit_no_key_point(lang: Lang) -> None:
    """A partial is allowed: a listed mistake names the quantities of the point it gets wrong ("counts only
    the 26 GB of weights"); the keywords never earn it (the test below)."""
    hits = [
        (q.id, kp)
        for q in bank_questions()
        if q.rubric.mistakes.get(lang)
        for kp, v in mistakes_grade(q.id, lang)
        if v == "hit"
    ]
    assert hits == []


@pytest.mark.parametrize("probe", ["listed_mistakes", "negated_reference"])
@pytest.mark.parametrize("lang", LANGS)
def test_keywords_earn_nothing_for_the_banks_wrong_answers(probe: str, lang: Lang) -> None:
    lifted = []
    for q in bank_questions():
        for where, rq in rubrics_of(q):
            if probe == "listed_mistakes":
                answer, negating = mistakes_answer(q, lang), None
            else:
                answer, negating = negated_reference(rq, lang), rq.reference_answer.get(lang)
            if not answer.strip(" .。"):
                continue
            blind = keyword_lifts(rq, answer, lang, negating=negating)
            lifted += [(q.id, where, *lift) for lift in blind]
    assert lifted == [], f"{probe}/{lang}: keywords credit a wrong answer (point, verdict, without them, keywords)"


# Points whose keywords, before this hygiene pass, credited the bank's own wrong answers: the lift check must
# flag the old keywords (restored in memory) and pass the current ones.
STANCE_BLIND: list[tuple[str, str, str, Lang, str, tuple[str, ...]]] = [  # question, rubric, point, language, probe
    # "只算权重 26 GB 就说全参 Adam 能放下"
    (
        "pipe-mem-13b-001",
        "rubric",
        "arithmetic",
        "zh",
        "listed_mistakes",
        ("208 GB", "26 GB", "52 GB", "16 字节", "不可能"),
    ),
    # "embedding、LM head、各种 norm 和 attention 的 softmax 留不在 BF16/FP32"
    (
        "stab-precision-004",
        "rubric",
        "high_precision",
        "zh",
        "negated_reference",
        ("embedding", "LM head", "主权重", "FP32 累加", "softmax"),
    ),
    # "while 3-digit groups are not compact"
    (
        "pipe-tok-002",
        "follow-up 2",
        "fu2-tradeoff",
        "en",
        "negated_reference",
        ("more tokens per number", "3-digit groups", "right alignment"),
    ),
    # "融合后中间结果留在寄存器里不用 FP32 计算"
    (
        "pipe-kernel-fusion-001",
        "follow-up 2",
        "fu2-rounding",
        "zh",
        "negated_reference",
        ("舍入", "中间结果", "FP32", "寄存器"),
    ),
]


@pytest.mark.parametrize(("qid", "where", "kp_id", "lang", "probe", "old"), STANCE_BLIND)
def test_the_lift_check_flags_the_stance_blind_keywords_this_pass_replaced(
    qid: str, where: str, kp_id: str, lang: Lang, probe: str, old: tuple[str, ...]
) -> None:
    parent = next(q for q in bank_questions() if q.id == qid)
    q = dict(rubrics_of(parent))[where]

    def point(k: KeyPoint) -> KeyPoint:
        kws = TextList(**{**k.keywords.model_dump(), lang: list(old)})
        return k.model_copy(update={"keywords": kws}) if k.id == kp_id else k

    before = q.model_copy(
        update={"rubric": q.rubric.model_copy(update={"key_points": [point(k) for k in q.rubric.key_points]})}
    )
    if probe == "listed_mistakes":
        answer, negating = mistakes_answer(parent, lang), None
    else:
        answer, negating = negated_reference(q, lang), q.reference_answer.get(lang)
    assert [x[0] for x in keyword_lifts(before, answer, lang, negating=negating)].count(kp_id) == 1
    assert kp_id not in [x[0] for x in keyword_lifts(q, answer, lang, negating=negating)]


def test_the_whole_bank_is_covered() -> None:
    assert len(bank_files()) == len(bank_questions()) >= 140
    assert Counter(p.where == "rubric" for p in bank_points())[False] >= len(
        bank_files()
    )  # the follow-ups' rubrics too
    assert {q.id for q in bank_questions()} == {p.stem for p in DEFAULT_CONTENT_DIR.glob("*/*.yaml")}
