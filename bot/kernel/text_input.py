"""User text at the edge: what every command's text becomes before any handler sees it.

NUL and the other control characters (C0 but tab, line feed and carriage return; DEL; C1) are
removed: PostgreSQL refuses NUL in text, a terminal obeys escape sequences, and no answer needs
them. Lone surrogates (valid in JSON's \\uXXXX escapes, not in UTF-8) are removed too: neither
database can store them. Everything else stays as typed.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from bot.kernel import commands as c

_UNWANTED = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` without control characters and lone surrogates; tabs and line breaks stay."""
    return _UNWANTED.sub("", text)


def cleaned(cmd: c.Command) -> c.Command:
    """The command with `clean_text` applied to every text it carries, whichever platform built it."""
    changes: dict[str, Any] = {
        f.name: clean_text(v)
        for f in dataclasses.fields(cmd)
        if isinstance(v := getattr(cmd, f.name), str) and _UNWANTED.search(v)
    }
    return dataclasses.replace(cmd, **changes) if changes else cmd
