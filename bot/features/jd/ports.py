"""/jd's store port (bot/storage/career.py, tests/fakes.py): a handler names it `jds`."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.features.career.models import JobDescription


class JobsPort(Protocol):
    """Job descriptions (/jd): several kept per user, at most one active (focusing the practice) at a time."""

    async def add_jd(self, jd: JobDescription) -> JobDescription:
        """The job description stored, with the id it got (never active on arrival: see `activate_jd`)."""
        ...

    async def get_jd(self, jd_id: int) -> JobDescription | None: ...
    async def list_jds(self, user_id: int) -> list[JobDescription]:
        """Oldest first (by creation time, then id)."""
        ...

    async def save_jd(self, jd: JobDescription) -> None:
        """Update what was read from it (never its owner, creation time or active date); one that is gone stays gone."""
        ...

    async def activate_jd(self, user_id: int, jd_id: int | None, until: datetime | None) -> bool:
        """In one transaction: the user's other job descriptions stop being active and this one (theirs) is
        active until `until`; `jd_id` None only clears. False (nothing changed) when it is not the user's."""
        ...

    async def active_jd(self, user_id: int, now: datetime) -> JobDescription | None:
        """The user's job description active at `now` (active_until after it), if any."""
        ...

    async def delete_jd(self, user_id: int, jd_id: int) -> bool:
        """Delete the user's job description; False when it is not theirs (or gone)."""
        ...
