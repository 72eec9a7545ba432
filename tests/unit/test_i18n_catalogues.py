"""The catalogue loader (bot.kernel.i18n): gettext files read with Babel, a key twice refused wherever it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.kernel.i18n import Catalogue, read_catalogue

HEADER = """msgid ""
msgstr ""
"Language: {lang}\\n"
"Plural-Forms: {plural}\\n"
"Content-Type: text/plain; charset=utf-8\\n"

"""
ZH = HEADER.replace("{lang}", "zh").replace("{plural}", "nplurals=1; plural=0;")


def write(folder: Path, body: str, name: str = "zh.po", header: str = ZH) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(header + body, encoding="utf-8")
    return path


def entry(key: str, en: str, zh: str, flags: str = "") -> str:
    return f'{flags}msgctxt "{key}"\nmsgid "{en}"\nmsgstr "{zh}"\n\n'


COUNTED = 'msgctxt "count.cup"\nmsgid "{n} cup"\nmsgid_plural "{n} cups"\nmsgstr[0] "{n} 杯"\n\n'


def test_a_file_becomes_messages_and_counted_messages_by_key(tmp_path: Path) -> None:
    part = read_catalogue(write(tmp_path, entry("greet", "Hello {name}", "你好 {name}") + COUNTED))
    assert part.lang == "zh" and part.untranslated == ()
    assert part.messages == {"greet": {"en": "Hello {name}", "zh": "你好 {name}"}}
    assert part.plurals == {"count.cup": {"en": {"one": "{n} cup", "other": "{n} cups"}, "zh": {"other": "{n} 杯"}}}


def test_a_key_twice_in_one_file_is_refused(tmp_path: Path) -> None:
    """Babel would merge the two entries into one, silently: the loader counts the file's keys."""
    path = write(tmp_path, entry("greet", "Hello", "你好") + entry("greet", "Hello", "您好"))
    with pytest.raises(ValueError, match=r"repeated \['greet'\]"):
        read_catalogue(path)


def test_an_entry_without_a_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, entry("greet", "Hello", "你好") + 'msgid "Bye"\nmsgstr "再见"\n\n')
    with pytest.raises(ValueError, match="needs one msgctxt"):
        read_catalogue(path)


def test_a_key_in_two_folders_is_refused_and_nothing_of_the_second_is_added(tmp_path: Path) -> None:
    catalogue = Catalogue()
    catalogue.register_catalogue(write(tmp_path / "a" / "locales", entry("greet", "Hello", "你好")).parent)
    second = write(tmp_path / "b" / "locales", entry("other", "Other", "其他") + entry("greet", "Hi", "嗨")).parent
    with pytest.raises(ValueError, match="greet"):
        catalogue.register_catalogue(second)
    assert catalogue.messages == {"greet": {"en": "Hello", "zh": "你好"}}


def test_a_key_in_two_files_of_one_folder_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "locales" / "one", entry("greet", "Hello", "你好"))
    write(tmp_path / "locales" / "two", entry("greet", "Hello", "你好"))
    with pytest.raises(ValueError, match=r"greet is in .*one/zh\.po and in .*two/zh\.po"):
        Catalogue().register_catalogue(tmp_path / "locales")


def test_a_second_language_file_adds_its_translations_to_the_same_keys(tmp_path: Path) -> None:
    folder = tmp_path / "locales"
    write(folder, entry("greet", "Hello", "你好") + COUNTED)
    ja = HEADER.replace("{lang}", "ja").replace("{plural}", "nplurals=1; plural=0;")
    write(folder, entry("greet", "Hello", "こんにちは") + COUNTED.replace("杯", "杯だ"), "ja.po", ja)
    catalogue = Catalogue()
    catalogue.register_catalogue(folder)
    assert catalogue.messages == {"greet": {"en": "Hello", "ja": "こんにちは", "zh": "你好"}}
    assert catalogue.plurals["count.cup"]["ja"] == {"other": "{n} 杯だ"}
    write(folder, entry("greet", "Hello there", "こんにちは"), "ja.po", ja)
    with pytest.raises(ValueError, match="English of greet differs"):
        Catalogue().register_catalogue(folder)


def test_plural_forms_must_be_the_languages_cldr_categories(tmp_path: Path) -> None:
    two = COUNTED.replace('msgstr[0] "{n} 杯"', 'msgstr[0] "{n} 杯"\nmsgstr[1] "{n} 杯子"')
    with pytest.raises(ValueError, match=r"zh\.po: msg has more translations than num_plurals"):
        read_catalogue(write(tmp_path, two))  # Chinese has one form (CLDR "other")
    ja = HEADER.replace("{lang}", "ja").replace("{plural}", "nplurals=2; plural=(n != 1);")  # a header that lies
    with pytest.raises(ValueError, match=r"count\.cup needs \('other',\) forms"):
        read_catalogue(write(tmp_path, two, "ja.po", ja))


def test_a_fuzzy_or_empty_translation_shows_the_english_as_gettext_does(tmp_path: Path) -> None:
    body = entry("greet", "Hello", "你好", "#, fuzzy\n") + entry("bye", "Bye", "") + entry("ok", "OK", "好")
    part = read_catalogue(write(tmp_path, body))
    assert part.untranslated == ("greet", "bye")
    assert part.messages == {"greet": {"en": "Hello"}, "bye": {"en": "Bye"}, "ok": {"en": "OK", "zh": "好"}}
