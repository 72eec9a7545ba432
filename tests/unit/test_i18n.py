"""The message catalogue: every catalogue file (a package's locales/zh.po) has every message in both languages,
with the same placeholders, English plurals and Chinese typography; each test runs once per file."""

from __future__ import annotations

import importlib
import re
import string
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import bot
from bot.kernel.i18n import (
    MESSAGES,
    PLURALS,
    CatalogueFile,
    listing,
    plural_categories,
    plural_form,
    read_catalogue,
    t,
    tn,
)
from bot.kernel.models import DIMENSIONS, Grade, Rating
from bot.kernel.registry import help_text
from bot.kernel.render import grade_text
from tests.conftest import make_question

BOT = Path(bot.__file__).parent
FILES = sorted(BOT.glob("**/locales/**/*.po"))
by_file = pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(BOT)) for p in FILES])


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_catalogue_files_are_the_kernels_the_features_and_the_graders() -> None:
    names = [str(p.relative_to(BOT)) for p in FILES]
    assert len(names) == 15 and "kernel/locales/core/zh.po" in names and "grading/locales/zh.po" in names
    assert "features/mock/locales/zh.po" in names


def test_every_catalogue_file_is_loaded_and_every_loaded_message_comes_from_one() -> None:
    for package in ("apps", "career", "debrief", "jd", "mock", "notebook", "review"):
        importlib.import_module(f"bot.features.{package}")  # each loads its catalogue
    importlib.import_module("bot.grading.feedback")
    in_files: list[str] = []
    for path in FILES:
        part = read_catalogue(path)
        in_files += [*part.messages, *part.plurals]
    assert len(in_files) == len(set(in_files))
    assert set(in_files) == set(MESSAGES) | set(PLURALS)


@by_file
def test_every_message_has_both_languages_and_the_same_placeholders(path: Path) -> None:
    part = read_catalogue(path)
    assert part.lang == "zh" and part.untranslated == ()
    problems = []
    for key, entry in part.messages.items():
        if set(entry) != {"zh", "en"} or not entry["zh"].strip() or not entry["en"].strip():
            problems.append(f"{key}: missing a language")
        elif placeholders(entry["zh"]) != placeholders(entry["en"]):
            problems.append(f"{key}: {placeholders(entry['zh'])} != {placeholders(entry['en'])}")
    assert problems == []


@by_file
def test_every_text_with_a_placeholder_is_marked_python_brace_format(path: Path) -> None:
    """Translators' tools (Poedit, Weblate, msgfmt --check) check a marked message's placeholders."""
    with path.open("rb") as fileobj:
        catalog = read_po(fileobj)
    texts = {m.context: [*([m.id] if isinstance(m.id, str) else m.id)] for m in catalog if m.id}
    flagged = {m.context for m in catalog if m.id and "python-brace-format" in m.flags}
    assert flagged == {key for key, forms in texts.items() if any(placeholders(f) for f in forms)}


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


@by_file
def test_no_one_form_english_message_puts_a_count_before_a_plural_noun(path: Path) -> None:
    part = read_catalogue(path)
    offenders = [
        (key, m.group(0))
        for key, entry in part.messages.items()
        for m in COUNT_BEFORE_PLURAL.finditer(entry["en"])
        if m.group(1) not in NOT_A_COUNT_OF_ONE
    ]
    assert offenders == []
    assert not set(part.messages) & set(part.plurals)


def test_the_count_before_a_plural_noun_is_caught() -> None:
    assert COUNT_BEFORE_PLURAL.search("Here is all your data ({n} answers).")  # control: this one is caught
    assert not COUNT_BEFORE_PLURAL.search("{n} question is due")


@by_file
def test_every_counted_message_has_both_english_forms_and_renders_for_0_1_2(path: Path) -> None:
    for key, entry in read_catalogue(path).plurals.items():
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


def test_the_counted_messages_are_in_the_counts_and_the_notebooks_files() -> None:
    counted = {str(p.relative_to(BOT)): len(read_catalogue(p).plurals) for p in FILES if read_catalogue(p).plurals}
    assert counted == {"kernel/locales/counts/zh.po": 23, "features/notebook/locales/zh.po": 2}


def test_plural_forms_by_example() -> None:
    assert [tn("en", "count.day", n) for n in (0, 1, 2, 11, 21)] == ["0 days", "1 day", "2 days", "11 days", "21 days"]
    assert [tn("zh", "count.day", n) for n in (0, 1, 2)] == ["0 天", "1 天", "2 天"]
    assert tn("en", "review_due_nudge", 1).startswith("1 question is due")
    assert tn("en", "review_due_nudge", 5).startswith("5 questions are due")
    assert (plural_form("en", 1), plural_form("en", 0), plural_form("zh", 1)) == ("one", "other", "other")


def test_plural_categories_are_cldrs_from_babel() -> None:
    """CLDR (through Babel), not a rule written here: English "one" is the integer 1 only; Chinese has one form;
    Russian, which no catalogue has yet, has four, so a Russian file would need msgstr[0] to msgstr[3]."""
    english = [plural_form("en", n) for n in (0, 1, 2, 11, 21, 101)]
    assert english == ["other", "one", "other", "other", "other", "other"]
    assert {plural_form("zh", n) for n in (0, 1, 2, 21)} == {"other"}
    assert (plural_categories("en"), plural_categories("zh")) == (("one", "other"), ("other",))
    assert plural_categories("ru") == ("one", "few", "many", "other")
    assert [plural_form("ru", n) for n in (1, 2, 5, 21)] == ["one", "few", "many", "one"]  # type: ignore[arg-type]


# --- Chinese typography (issue #18) ----------------------------------------------------------------

CJK_CHAR = "\u3400-\u9fff\u3000-\u303f\uff00-\uffef"
ASCII_AFTER_CJK = re.compile(f"[{CJK_CHAR}][,:;?!]")
ASCII_AFTER_PLACEHOLDER = re.compile(r"\}[,:;?!](?=\s|$)")  # "{subtopic}: " shows a Chinese name


def chinese_texts(part: CatalogueFile) -> list[tuple[str, str]]:
    texts = [(key, entry["zh"]) for key, entry in part.messages.items()]
    return texts + [(key, form) for key, entry in part.plurals.items() for form in entry["zh"].values()]


@by_file
def test_chinese_messages_use_full_width_punctuation(path: Path) -> None:
    offenders = [
        (key, text)
        for key, text in chinese_texts(read_catalogue(path))
        if ASCII_AFTER_CJK.search(text) or ASCII_AFTER_PLACEHOLDER.search(text)
    ]
    assert offenders == []


def test_ascii_punctuation_after_chinese_is_caught() -> None:
    assert ASCII_AFTER_CJK.search("分项: 结构") and ASCII_AFTER_CJK.search("训练稳定性, 训练流程")  # controls
    assert ASCII_AFTER_PLACEHOLDER.search("- {subtopic}: {score}")
    assert not ASCII_AFTER_CJK.search("分项：结构")


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


def test_the_package_ships_every_catalogue_file() -> None:
    """`pip install .` copies a package's data files only when pyproject.toml's package-data names them."""
    pyproject = tomllib.loads((BOT.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["*"]
    for path in FILES:
        package = next(p for p in path.parents if (p / "__init__.py").exists())
        assert any(path.relative_to(package).match(pattern) for pattern in patterns), path
