"""The platform identity a limit is kept for: an account on a chat platform ("telegram:123"), not the internal user id.

A `/forget` deletes the user and gives the account a new, blank user with a new id, and a timezone change moves
the user's local day; neither gives an account more of what it may use. So the message rate limit counts per
identity (in memory, `identity`), and the LLM and transcription budgets count per identity over a rolling 24
hours (in the database, `identity_key`).

What the database keeps after a `/forget` is a one-way key of the identity (a SHA-256 hash, not the platform's
id), the time and the tokens or seconds: no user, no content. Those rows count toward the account's 24 hours and
the day's global budget, and are deleted two days after they were made (USAGE_RETENTION). The key is unsalted,
so someone holding the database and trying every account id of a platform could find which account made
them during those two days; nothing else links them to the account or to what was asked.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

ROLLING_DAY = timedelta(hours=24)
"""The window of an account's daily limits: the last 24 hours (not its local day, which a timezone change moves)."""
USAGE_RETENTION = timedelta(days=2)
"""How long a forgotten account's usage rows are kept: past the rolling day and any UTC day they can count in."""


def identity(platform: str, external_id: str) -> str:
    """The account as the platform names it, e.g. "telegram:123" (kept in memory only)."""
    return f"{platform}:{external_id}"


def server_source(platform: str, server_id: str) -> str:
    """The attempt source of answers given in a server (/answer there): where it was answered, e.g.
    "discord:guild:900" (a study server's board counts those with its own suffix, study_server.board_source)."""
    return f"{platform}:guild:{server_id}"


def identity_key(platform: str, external_id: str) -> str:
    """The one-way key the usage ledgers store for an account: 32 hex digits of SHA-256 (128 bits)."""
    return hashlib.sha256(f"drill-bot identity v1\x00{platform}\x00{external_id}".encode()).hexdigest()[:32]
