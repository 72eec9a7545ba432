"""One bot process per SQLite file.

SQLite is the default for one process; a second `python -m bot run` (or `chat`) on the same file
would poll Telegram twice, push every daily drill twice and fight for the write lock. So the CLI
holds an exclusive OS lock (`fcntl.flock`, non-blocking) on a lock file beside the database for the
process's lifetime, and a second process stops at once with one line saying why and what to do.

The lock belongs to the CLI's run path, not to the engine: tests and tools that open several engines
on one file in one process are unaffected. The OS drops it when the process ends, even on SIGKILL.
In-memory SQLite and PostgreSQL need none (PostgreSQL is how several replicas share one database).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from bot.storage.sqlite_file import sqlite_path

try:
    import fcntl
except ImportError:  # Windows: no flock; the guard is skipped there
    fcntl = None  # type: ignore[assignment]


class DatabaseInUse(Exception):
    """Another process holds the SQLite file's lock: a setup problem, said in one line."""


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


def hold_database(url: str) -> IO[str] | None:
    """Take the single-process lock of the SQLite database at `url` and return the open lock file (keep it
    open as long as the process serves); None where no lock is needed. Raises DatabaseInUse when another
    process holds it."""
    database = sqlite_path(url)
    if database is None or fcntl is None:
        return None
    path = lock_path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the process's lifetime
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "?"
        handle.close()
        raise DatabaseInUse(
            f"another bot process (pid {holder}) is already using the database {database}: SQLite serves one "
            "process. Stop the other one, or, to run several replicas, use PostgreSQL "
            "(DATABASE_URL=postgresql+asyncpg://...; see README.md, Scale out)."
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle
