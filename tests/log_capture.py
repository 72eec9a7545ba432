"""Capture what the bot's logging setup writes, as `python -m bot` configures it, and put logging back."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from bot.config import Settings
from bot.logging_setup import CHATTY, configure_logging


@contextmanager
def captured_logs(settings: Settings) -> Iterator[io.StringIO]:
    """Every record that reaches the root handlers, formatted, in the returned buffer."""
    root = logging.getLogger()
    names = ["bot", *CHATTY]
    levels = {name: logging.getLogger(name).level for name in names}
    root_level, filters = root.level, {h: list(h.filters) for h in root.handlers}
    out = io.StringIO()
    added = configure_logging(settings, stream=out)
    try:
        yield out
    finally:
        if added is not None:
            root.removeHandler(added)
        for handler, kept in filters.items():
            handler.filters[:] = kept
        root.setLevel(root_level)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
