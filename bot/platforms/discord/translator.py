"""Slash command names and descriptions come from the core's registry and catalogue; Chinese clients see Chinese.

Each name or description is a `locale_str` whose default text is the English and whose extras say where its
Chinese is: `key`, a catalogue entry (`t("zh", key)`), or `zh`, the text itself (a command's Chinese name, from
its registry entry). discord.py asks the translator for every locale when syncing (`CommandTree.set_translator`,
then `sync`); zh-CN and zh-TW clients get the Chinese, every other locale the English.
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot.kernel.i18n import t
from bot.kernel.models import Lang

CHINESE = frozenset({Locale.chinese, Locale.taiwan_chinese})


def language_of(locale: Locale | None) -> Lang | None:
    """A Discord client locale as a language hint for a new user (None: use the default)."""
    if locale in CHINESE:
        return "zh"
    if locale is not None and locale.value.startswith("en"):
        return "en"
    return None


def loc(key: str) -> app_commands.locale_str:
    """A catalogue message: its English as the default, its Chinese for Chinese clients."""
    return app_commands.locale_str(t("en", key), key=key)


def named(english: str, chinese: str) -> app_commands.locale_str:
    """A name given in both languages (a command's, from the registry)."""
    return app_commands.locale_str(english, zh=chinese)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if locale not in CHINESE:
            return None  # English is the default text
        chinese = string.extras.get("zh")
        if chinese is not None:
            return str(chinese)
        key = string.extras.get("key")
        return None if key is None else t("zh", key)
