"""Logging for the CLI: one stderr handler, secrets redacted, the libraries kept at INFO.

Libraries log secrets at DEBUG: python-telegram-bot logs the Bot API URL (it holds the token) and
its calls' parameters (setWebhook's `secret_token`), httpx logs every request URL at INFO, and
discord.py logs interaction tokens (in gateway events and in the webhook URLs it posts replies to).
So every handler on the root logger gets a `RedactingFilter`: the configured secrets (every
`SecretStr` in the settings, the database URL's password) and the token shapes those libraries log
are replaced by `[redacted]` in the message, its arguments, the exception text and the stack.

LOG_LEVEL sets the bot's own loggers (`bot.*`). The root logger, and so every library, stays at
INFO or above (httpx at WARNING: a line per request) unless LOG_LIBRARY_LEVEL asks for more.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from typing import TextIO
from urllib.parse import quote, unquote, urlsplit

from pydantic import BaseModel, SecretStr

from bot.config import Settings

REDACTED = "[redacted]"
MIN_SECRET_CHARS = 6
"""Shorter configured values (`x`, `EMPTY` for a local server that wants no key) are not redacted literally."""
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# httpx: one INFO line per HTTP request, each long poll included; alembic: a dozen at every start (plugin set-up,
# "Context impl", each revision), shown at LOG_LEVEL=DEBUG, while the bot logs one line when a migration ran
CHATTY = {"httpx": logging.WARNING, "alembic": logging.WARNING}
SHOWN_AT_DEBUG = frozenset({"alembic"})

# Shapes of secrets that are not configured but that libraries log: the token in a Bot API URL, an
# interaction's token in Discord's callback and webhook URLs, `token`/`secret`/`password` keys in logged
# dicts and query strings, Authorization header values, and the password in any URL with credentials.
# Each runs only when its hints occur in the lower-cased text: most lines have none, and `re` is slow.
_PATTERNS = [
    (("/bot",), re.compile(r"(/(?:file/)?bot)\d+:[A-Za-z0-9_-]+"), rf"\1{REDACTED}"),
    (("/interactions/", "/webhooks/"), re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?#\s'\"]+"), rf"\1{REDACTED}"),
    (
        ("token", "secret", "passw", "api_key", "apikey", "api-key"),
        re.compile(
            r"(?i)((?:token|secret|password|passwd|api[_-]?key)['\"]?\s*[:=]\s*['\"]?)"
            r"(?!None\b|null\b|\[redacted\])[^'\"\s,;&)}\]]+"
        ),
        rf"\1{REDACTED}",
    ),
    (("bearer",), re.compile(r"(?i)\b(Bearer\s+)[A-Za-z0-9._~+/=-]{16,}"), rf"\1{REDACTED}"),
    (("@",), re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/:@\s]*:)[^@\s/]+@"), rf"\1{REDACTED}@"),
]


def configured_secrets(settings: BaseModel) -> list[str]:
    """Every secret value in the settings: each SecretStr (nested models too) and the database URL's password."""
    found: list[str] = []

    def walk(model: BaseModel) -> None:
        for name in type(model).model_fields:
            value = getattr(model, name)
            if isinstance(value, SecretStr):
                found.append(value.get_secret_value())
            elif isinstance(value, BaseModel):
                walk(value)

    walk(settings)
    url = getattr(settings, "database_url", None)
    if isinstance(url, str):
        try:
            password = urlsplit(url).password
        except ValueError:
            password = None
        if password:
            found += [password, unquote(password)]
    return found


class RedactingFilter(logging.Filter):
    """Replaces secrets in a record before any handler formats it (a handler filter: it sees records
    propagated from every logger, which a logger's own filter would not)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        literal = {s for s in secrets if len(s) >= MIN_SECRET_CHARS}
        literal |= {quote(s, safe="") for s in literal}  # as it appears inside a URL
        self._literal = sorted(literal, key=len, reverse=True)  # a longer secret before any secret it contains

    def redact(self, text: str) -> str:
        for secret in self._literal:
            if secret in text:
                text = text.replace(secret, REDACTED)
        lowered = text.lower()
        for hints, pattern, replacement in _PATTERNS:
            if any(hint in lowered for hint in hints):
                text = pattern.sub(replacement, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: keep what can be shown, redacted
            message = f"{record.msg} {record.args!r}"
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def level_of(name: str | int) -> int:
    return name if isinstance(name, int) else logging.getLevelNamesMapping()[name]


def configure_logging(
    settings: Settings, level: str | int | None = None, stream: TextIO | None = None
) -> logging.Handler | None:
    """Set up logging for a CLI command: a stderr handler (unless the root logger has one already, as
    under pytest; `stream` always adds one), the redacting filter on every root handler, and the levels.
    `level` overrides LOG_LEVEL (the terminal chat shows warnings only). Returns the handler it added."""
    root = logging.getLogger()
    added: logging.Handler | None = None
    if stream is not None or not root.handlers:
        added = logging.StreamHandler(stream or sys.stderr)
        added.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(added)
    redacting = RedactingFilter(configured_secrets(settings))
    for handler in root.handlers:
        for old in [f for f in handler.filters if isinstance(f, RedactingFilter)]:
            handler.removeFilter(old)
        handler.addFilter(redacting)
    set_levels(level_of(level or settings.log_level), settings.log_library_level)
    return added


def set_levels(bot_level: int, library_level: str | int | None = None) -> None:
    """The bot's loggers at `bot_level`; every other logger at `library_level` if given, else at
    `bot_level` but never below INFO (and the chatty ones higher)."""
    logging.getLogger("bot").setLevel(bot_level)
    libraries = level_of(library_level) if library_level is not None else max(bot_level, logging.INFO)
    logging.getLogger().setLevel(libraries)
    for name, floor in CHATTY.items():
        asked = library_level is not None or (name in SHOWN_AT_DEBUG and bot_level <= logging.DEBUG)
        logging.getLogger(name).setLevel(libraries if asked else max(libraries, floor))
