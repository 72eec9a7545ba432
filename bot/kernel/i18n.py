"""The message engine: every user-facing text lives in a gettext catalogue file (`locales/zh.po`) beside the code
that shows it, read here with Babel; `t` looks a message up, `tn` a counted one in its CLDR plural form.

A catalogue file is the Chinese translation of its package's messages: each entry's msgctxt is the key the code
looks up, its msgid the English text (the source) and its msgstr the Chinese; a counted message has the English
"one" and "other" forms as msgid and msgid_plural and one Chinese form (msgstr[0]). Placeholders are Python's
`{name}`. The kernel's own catalogues (locales/<part>/zh.po) load with this module; a feature's load when its
package is imported (its __init__ calls `register_catalogue`); a key that is already there raises.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.pofile import PoFileError, read_po

from bot.kernel.models import Lang

SOURCE_LANG = "en"  # the msgid's language
LOCALES = Path(__file__).with_name("locales")
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")  # gettext's msgstr[i] follow the language's in this order


@dataclass(frozen=True)
class CatalogueFile:
    """One catalogue file as the engine reads it: {key: {lang: text}} and {key: {lang: {category: text}}}."""

    path: Path
    lang: str
    messages: dict[str, dict[str, str]]
    plurals: dict[str, dict[str, dict[str, str]]]
    untranslated: tuple[str, ...]  # keys whose translation is empty or marked fuzzy: they show the English


@functools.cache
def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories of a language in gettext's order (msgstr[0], msgstr[1], ...)."""
    tags = Locale.parse(lang).plural_form.tags | {"other"}
    return tuple(tag for tag in CLDR_ORDER if tag in tags)


def read_catalogue(path: Path) -> CatalogueFile:
    """Read one catalogue file (its language is its name: zh.po); an entry without a key, a key twice, or plural
    forms that are not the languages' CLDR categories raise ValueError naming the file."""
    lang = path.stem
    raw = path.read_bytes()
    try:
        with path.open("rb") as fileobj:
            catalog = read_po(fileobj, locale=lang, abort_invalid=True)
    except PoFileError as error:
        raise ValueError(f"{path}: {error}") from error
    entries = [m for m in catalog if m.id]
    keys = [m.context for m in entries]
    # Babel merges two entries with the same key into one: count the file's keys to see it
    if raw.count(b"\nmsgctxt ") != len(entries) or None in keys:
        written = [line.split(b'"')[1].decode() for line in raw.splitlines() if line.startswith(b"msgctxt ")]
        twice = sorted({k for k in written if written.count(k) > 1})
        raise ValueError(f"{path}: every entry needs one msgctxt (its key), once: repeated {twice}")
    messages: dict[str, dict[str, str]] = {}
    plurals: dict[str, dict[str, dict[str, str]]] = {}
    untranslated = []
    for m in entries:
        key = str(m.context)
        source = [m.id] if isinstance(m.id, str) else list(m.id)
        translated = [m.string] if isinstance(m.string, str) else list(m.string or ())
        if m.fuzzy or not all(translated):  # as gettext does: an empty or fuzzy translation shows the English
            untranslated.append(key)
        if isinstance(m.id, str):
            messages[key] = {SOURCE_LANG: m.id} | ({} if key in untranslated else {lang: translated[0]})
            continue
        if len(source) != len(plural_categories(SOURCE_LANG)) or len(translated) != len(plural_categories(lang)):
            raise ValueError(f"{path}: {key} needs {plural_categories(lang)} forms, has {translated}")
        plurals[key] = {SOURCE_LANG: dict(zip(plural_categories(SOURCE_LANG), source, strict=True))}
        if key not in untranslated:
            plurals[key][lang] = dict(zip(plural_categories(lang), translated, strict=True))
    return CatalogueFile(path, lang, messages, plurals, tuple(untranslated))


def catalogue_files(folder: Path) -> list[Path]:
    """The catalogue files under a folder (locales/zh.po, or locales/<part>/zh.po), in a stable order."""
    return sorted(folder.rglob("*.po"))


class Catalogue:
    """The messages loaded so far, {key: {lang: text}}, and the counted ones, {key: {lang: {category: text}}}."""

    def __init__(self) -> None:
        self.messages: dict[str, dict[str, str]] = {}
        self.plurals: dict[str, dict[str, dict[str, str]]] = {}

    def register(
        self,
        messages: Mapping[str, Mapping[str, str]],
        plurals: Mapping[str, Mapping[str, Mapping[str, str]]] | None = None,
    ) -> None:
        """Add messages; a key that is already there is a bug, so it raises and adds nothing."""
        taken = sorted(set(messages) & set(self.messages)) + sorted(set(plurals or {}) & set(self.plurals))
        if taken:
            raise ValueError(f"message keys registered twice: {', '.join(taken[:10])}")
        self.messages.update({key: dict(texts) for key, texts in messages.items()})
        self.plurals.update(
            {key: {lang: dict(forms) for lang, forms in by_lang.items()} for key, by_lang in (plurals or {}).items()}
        )

    def register_catalogue(self, folder: Path) -> None:
        """Load the catalogue files under `folder` (a package's locales/); a key that is already there, in this
        folder or in any loaded before, raises ValueError and adds nothing."""
        messages: dict[str, dict[str, str]] = {}
        plurals: dict[str, dict[str, dict[str, Any]]] = {}
        seen: dict[tuple[str, str], Path] = {}
        for path in catalogue_files(folder):
            part = read_catalogue(path)
            for key in [*part.messages, *part.plurals]:
                if (key, part.lang) in seen:
                    raise ValueError(f"message key {key} is in {seen[key, part.lang]} and in {path}")
                seen[key, part.lang] = path
            for key, texts in part.messages.items():
                _merge(messages.setdefault(key, {}), texts, key, path)
            for key, forms in part.plurals.items():
                _merge(plurals.setdefault(key, {}), forms, key, path)
        both = sorted(set(messages) & set(plurals))
        if both:
            raise ValueError(f"{folder}: keys both counted and not: {both}")
        self.register(messages, plurals)


def _merge(into: dict[str, Any], texts: Mapping[str, Any], key: str, path: Path) -> None:
    """One key's texts from two language files of a folder: their English (the msgid) must be the same."""
    if SOURCE_LANG in into and into[SOURCE_LANG] != texts[SOURCE_LANG]:
        raise ValueError(f"{path}: the English of {key} differs from the folder's other language files")
    into.update(texts)


CATALOGUE = Catalogue()
MESSAGES = CATALOGUE.messages
PLURALS = CATALOGUE.plurals
register = CATALOGUE.register
register_catalogue = CATALOGUE.register_catalogue
register_catalogue(LOCALES)
LIST_SEPARATOR = {"en": ", ", "zh": "、"}


def t(lang: Lang, key: str, **kwargs: Any) -> str:
    """Look up `key` in `lang` and format it; a missing key is a bug, so it raises."""
    entry = MESSAGES[key]
    text = entry.get(lang) or entry[SOURCE_LANG]
    return text.format(**kwargs) if kwargs else text


@functools.cache
def _plural_rule(lang: str) -> Any:
    return Locale.parse(lang).plural_form


def plural_form(lang: Lang, n: int) -> str:
    """The CLDR plural category of a whole number in a language (Babel's CLDR data): English "one" for 1."""
    return str(_plural_rule(lang)(n))


def tn(lang: Lang, key: str, n: int, **kwargs: Any) -> str:
    """Look up a counted message (bot/kernel/locales/counts/zh.po) in the form `n` takes and format it with `n`."""
    forms = PLURALS[key].get(lang) or PLURALS[key][SOURCE_LANG]
    return forms.get(plural_form(lang, n), forms["other"]).format(n=n, **kwargs)


def listing(lang: Lang, items: Iterable[str]) -> str:
    """Items as one list: "a, b, c" in English, "a、b、c" in Chinese."""
    return LIST_SEPARATOR[lang].join(items)
