"""The answer notebook's store port (bot/storage/career.py, tests/fakes.py): a handler names it `notes`."""

from __future__ import annotations

from typing import Protocol

from bot.features.career.models import NoteEntry


class NotebookPort(Protocol):
    """The answer notebook (/notes): versions of the user's own answers, numbered per question."""

    async def add_note(self, entry: NoteEntry) -> NoteEntry:
        """The entry stored with its id and the next version number of (user, question), given atomically."""
        ...

    async def get_note(self, note_id: int) -> NoteEntry | None: ...
    async def list_notes(self, user_id: int, question_id: str | None = None) -> list[NoteEntry]:
        """The user's entries (of one question when given), by question id then version."""
        ...

    async def save_note(self, entry: NoteEntry) -> None:
        """Update its text, grade, company tag (never owner, question, version, best flag or creation time)."""
        ...

    async def mark_best(self, user_id: int, note_id: int) -> bool:
        """In one transaction: this entry of the user's is the best of its question and no other one is; False
        when it is not the user's."""
        ...

    async def delete_note(self, user_id: int, note_id: int) -> bool: ...
    async def count_notes(self, user_id: int) -> int: ...
