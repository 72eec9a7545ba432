"""The message catalogue: every message in both languages, with the same placeholders."""

from __future__ import annotations

import re
import string

import pytest

from bot.kernel.i18n import MESSAGES, listing, plural_form, t, tn
from bot.kernel.i18n_counts import PLURALS
from bot.kernel.models import DIMENSIONS, Grade, Rating
from bot.kernel.registry import help_text
from bot.kernel.render import grade_text
from tests.conftest import make_question


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_both_languages_and_the_same_placeholders() -> None:
    problems = []
    for key, entry in MESSAGES.items():
        if set(entry) != {"zh", "en"} or bool(entry["zh"].strip()) != bool(entry["en"].strip()):
            problems.append(f"{key}: missing a language")  # (both empty is allowed: an empty tag by design)
        elif placeholders(entry["zh"]) != placeholders(entry["en"]):
            problems.append(f"{key}: {placeholders(entry['zh'])} != {placeholders(entry['en'])}")
    assert problems == []


def test_lookup_formats_in_the_requested_language() -> None:
    assert (
        t("zh", "answer_too_long", length=7000, limit=6000) == "你的回答有 7000 个字符，上限是 6000。请精简后重新发送。"
    )
    assert "7000" in t("en", "answer_too_long", length=7000, limit=6000)


# --- plural forms (issue #18) ----------------------------------------------------------------------

# "{n} answers" in a one-form English message reads "1 answers" when n is 1. Placeholders that are not
# counts, or never 1, are named here with the reason.
COUNT_BEFORE_PLURAL = re.compile(r"\{(\w+)\} +(?:[a-z-]+ +)?(?!(?:is|was|has|as|this|its)\b)[a-z]+s\b")
NOT_A_COUNT_OF_ONE = {
    "company": "a name",
    "high": "the top of a fixed target range, e.g. 120-160 words a minute",
    "length": "the length of an answer over the limit, thousands of characters",
    "parts": "an export is split only into two parts or more",
}
SINGULAR_WITH_PLURAL_NOUN = re.compile(r"(?<![\d.])\b1 (?:new |interview |filler |more )?[a-z]+s\b")


def dummy_values(text: str) -> dict[str, str]:
    return {name: f"<{name}>" for name in placeholders(text) if name != "n"}


def test_no_one_form_english_message_puts_a_count_before_a_plural_noun() -> None:
    offenders = [
        (key, m.group(0))
        for key, entry in MESSAGES.items()
        for m in COUNT_BEFORE_PLURAL.finditer(entry["en"])
        if m.group(1) not in NOT_A_COUNT_OF_ONE
    ]
    assert offenders == []
    assert COUNT_BEFORE_PLURAL.search("Here is all your data ({n} answers).")  # control: this one is caught
    assert not set(MESSAGES) & set(PLURALS)


def test_every_counted_message_has_both_english_forms_and_renders_for_0_1_2() -> None:
    assert PLURALS
    for key, entry in PLURALS.items():
        assert set(entry) == {"en", "zh"}, key
        assert set(entry["en"]) == {"one", "other"} and set(entry["zh"]) == {"other"}, key  # Chinese: one form
        forms = [*entry["en"].values(), *entry["zh"].values()]
        assert len({frozenset(placeholders(f)) for f in forms}) == 1 and "n" in placeholders(forms[0]), key
        assert entry["en"]["one"] != entry["en"]["other"], key
        extra = dummy_values(forms[0])
        for n in (0, 1, 2):
            en, zh = tn("en", key, n, **extra), tn("zh", key, n, **extra)
            assert str(n) in en and str(n) in zh, (key, n)
            assert en == entry["en"]["one" if n == 1 else "other"].format(n=n, **extra), (key, n)
            assert zh == entry["zh"]["other"].format(n=n, **extra), (key, n)
        assert not SINGULAR_WITH_PLURAL_NOUN.search(tn("en", key, 1, **extra)), key


def test_plural_forms_by_example() -> None:
    assert [tn("en", "count.day", n) for n in (0, 1, 2, 11, 21)] == ["0 days", "1 day", "2 days", "11 days", "21 days"]
    assert [tn("zh", "count.day", n) for n in (0, 1, 2)] == ["0 天", "1 天", "2 天"]
    assert tn("en", "review_due_nudge", 1).startswith("1 question is due")
    assert tn("en", "review_due_nudge", 5).startswith("5 questions are due")
    assert (plural_form("en", 1), plural_form("en", 0), plural_form("zh", 1)) == ("one", "other", "other")


# --- Chinese typography (issue #18) ----------------------------------------------------------------

CJK_CHAR = "\u3400-\u9fff\u3000-\u303f\uff00-\uffef"
ASCII_AFTER_CJK = re.compile(f"[{CJK_CHAR}][,:;?!]")
ASCII_AFTER_PLACEHOLDER = re.compile(r"\}[,:;?!](?=\s|$)")  # "{subtopic}: " shows a Chinese name


def chinese_texts() -> list[tuple[str, str]]:
    texts = [(key, entry["zh"]) for key, entry in MESSAGES.items()]
    return texts + [(key, form) for key, entry in PLURALS.items() for form in entry["zh"].values()]


def test_chinese_messages_use_full_width_punctuation() -> None:
    offenders = [
        (key, text)
        for key, text in chinese_texts()
        if ASCII_AFTER_CJK.search(text) or ASCII_AFTER_PLACEHOLDER.search(text)
    ]
    assert offenders == []
    assert ASCII_AFTER_CJK.search("分项: 结构") and ASCII_AFTER_CJK.search("训练稳定性, 训练流程")  # controls
    assert ASCII_AFTER_PLACEHOLDER.search("- {subtopic}: {score}")


def test_lists_are_joined_with_the_enumeration_comma_in_chinese() -> None:
    assert listing("zh", ["训练稳定性", "训练流程"]) == "训练稳定性、训练流程"
    assert listing("en", ["stability", "pipeline"]) == "stability, pipeline"


def test_a_grade_reads_with_full_width_colons_and_enumeration_commas_in_chinese() -> None:
    q = make_question("stab-1")
    grade = Grade(score=70, dimensions={d: 70 for d in DIMENSIONS}, feedback="结构不错。", follow_up="阈值怎么选？")
    zh = grade_text(grade, q, "zh", Rating.GOOD, "明天")
    assert "分项：要点覆盖 70、结构 70、具体程度 70、实例 70、正确性 70" in zh
    assert "点评：结构不错。" in zh and "追问：阈值怎么选？" in zh
    assert ASCII_AFTER_CJK.search(zh) is None and ": " not in zh
    en = grade_text(grade, q, "en", Rating.GOOD, "tomorrow")
    assert "Dimensions: coverage 70, structure 70, specificity 70, evidence 70, correctness 70" in en
    assert "Feedback: " in en and "Follow-up: " in en


def test_a_key_registered_twice_is_refused_and_nothing_of_it_is_added() -> None:
    from bot.kernel.i18n import register

    with pytest.raises(ValueError, match=r"help\.jd"):
        register({"test.brand_new": {"en": "x", "zh": "x"}, "help.jd": {"en": "again", "zh": "again"}})
    assert "test.brand_new" not in MESSAGES


def test_each_tools_help_lines_end_the_help_in_their_order() -> None:
    for lang in ("en", "zh"):
        text = help_text(lang)  # type: ignore[arg-type]
        tails = [MESSAGES[k][lang] for k in ("help.mock", "help.jd", "help.notes", "help.apps", "help.debrief")]
        assert text.endswith("".join(tails)), lang
        assert text.index(tails[0]) < text.index(tails[1]) < text.index(tails[4])
