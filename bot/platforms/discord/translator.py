"""Slash command names and descriptions come from the core's catalogue; Chinese clients see Chinese.

Each name or description is a `locale_str` whose default text is the English entry and whose
`key` names the catalogue entry; discord.py asks the translator for every locale when syncing.
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
    return app_commands.locale_str(t("en", key), key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or locale not in CHINESE:
            return None  # English is the default text
        return t("zh", key)
