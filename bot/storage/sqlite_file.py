"""The SQLite file itself: writable when the bot starts, and still the same file at every write.

`check_writable` opens the file as the bot will (WAL) and makes a write that it rolls back, so a
read-only file, folder or file system, or a file that is not a database, stops start-up with one
line naming the path and the problem instead of a traceback (or, worse, a bot that starts and
fails on the first answer).

`FileGuard` watches for the file being deleted or replaced while the bot runs. SQLite keeps
writing to the inode it opened, so after an `rm data/bot.db` every later write would be
acknowledged and then lost with the unlinked inode. The writer engine calls `check()` at the
start and the commit of every transaction (with group commit, once per batch: one `stat`); when
the path no longer names the file that was opened, the write fails with `DatabaseFileGone`, the
error is logged, and `lost` is set so the runner stops the bot.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

_READONLY, _CANTOPEN, _NOTADB, _BUSY = 8, 14, 26, 5


class DatabaseUnavailable(Exception):
    """The database cannot be used at all (read-only, cannot be opened, not a database): a setup problem."""


class DatabaseFileGone(RuntimeError):
    """The SQLite file was deleted or replaced while the bot ran; a write now would be lost."""


def sqlite_path(url: str) -> Path | None:
    """The file of a `sqlite+aiosqlite:///path` URL; None for other databases, memory and URIs."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    if _is_uri(parsed.query):
        return None
    return Path(parsed.database).expanduser()


def _is_uri(query: Mapping[str, Any]) -> bool:
    """`sqlite:///file:path?mode=ro&uri=true`: SQLite parses the name as a URI (SQLAlchemy passes the rest on)."""
    return str(query.get("uri", "")).lower() in ("true", "1")


def _problem(err: sqlite3.Error, path: Path | None) -> str:
    code = getattr(err, "sqlite_errorcode", 0) & 0xFF
    if code == _NOTADB:
        return f"is not an SQLite database ({err})"
    if path is not None and code in (_READONLY, _CANTOPEN):
        if path.exists() and not os.access(path, os.W_OK):
            return f"is read-only ({err}): the bot must be able to write it"
        if not os.access(path.parent, os.W_OK):
            return f"is in a read-only folder ({err}): SQLite must be able to create its -wal and -shm files there"
    if code == _READONLY:
        return f"is read-only ({err}): the bot must be able to write it"
    if code == _CANTOPEN:
        return f"cannot be opened ({err}): its folder must exist and be writable"
    return f"cannot be written ({err})"


def _probe(target: str, uri: bool, busy_timeout_s: float) -> None:
    """Open as the bot does (WAL) and write the header's user_version as it is, rolled back."""
    conn = sqlite3.connect(target, uri=uri, timeout=busy_timeout_s, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA user_version={int(version)}")
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    finally:
        conn.close()


def check_writable(url: str, busy_timeout_s: float = 10.0) -> None:
    """Raise DatabaseUnavailable unless the SQLite database at `url` can be opened in WAL mode and written.
    Nothing is changed (the write is rolled back); other databases are not checked here."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return
    name, uri = parsed.database, _is_uri(parsed.query)
    path = None if uri else Path(name).expanduser()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise DatabaseUnavailable(f"database {name}: its folder cannot be created ({err.strerror})") from None
    params = [f"{k}={v}" for k, v in parsed.query.items() if k != "uri"]
    target = str(path) if path is not None else name + ("?" + "&".join(params) if params else "")
    try:
        _probe(target, uri, busy_timeout_s)
    except sqlite3.Error as err:
        if getattr(err, "sqlite_errorcode", 0) & 0xFF == _BUSY:
            return  # another process holds the write lock: the file is writable
        raise DatabaseUnavailable(f"database {name} {_problem(err, path)}") from None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class FileGuard:
    """Pins the identity (device, inode) of the file the writer first opened; `check()` refuses a write
    once the path names another file or none."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.identity: tuple[int, int] | None = None
        self.gone: DatabaseFileGone | None = None
        self.lost = asyncio.Event()

    def pin(self) -> None:
        """On each writer connection: the first one fixes the identity, a later one must find the same file."""
        if self.identity is None:
            self.identity = _identity(self.path)
        else:
            self.check()

    def check(self) -> None:
        if self.gone is not None:
            raise self.gone
        if self.identity is None or _identity(self.path) == self.identity:
            return
        state = "was replaced by another file" if self.path.exists() else "was deleted"
        self.gone = DatabaseFileGone(
            f"the database file {self.path} {state} while the bot was running; "
            "stopping so that no further write is lost (restore the file, or restart to start a new database)"
        )
        log.critical("%s", self.gone)
        self.lost.set()
        raise self.gone
