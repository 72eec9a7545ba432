"""/interview's reminders: after an interview, how did it go; the next day again if nothing was logged since."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.kernel.i18n import t
from bot.kernel.models import Reminder, User
from bot.kernel.push_rules import register_reminder
from bot.kernel.replies import Reply
from bot.kernel.store_ports import InterviewsPort

FIRST, AGAIN = "post_interview", "post_interview_again"


async def post_interview(
    interviews: InterviewsPort, user: User, payload: dict[str, Any], second: bool
) -> list[Reply] | None:
    """After an interview: ask how it went; the next-day reminder only if nothing was logged since."""
    company = str(payload.get("company", ""))
    if second:
        since = datetime.fromisoformat(str(payload.get("at"))) if payload.get("at") else None
        items = await interviews.list_review_items(user.id)
        if any(i.company == company and (since is None or i.created_at >= since) for i in items):
            return None
        return [Reply(t(user.language, "post_interview_again", company=company))]
    return [Reply(t(user.language, "post_interview", company=company))]


async def _reminder(user: User, reminder: Reminder, interviews: InterviewsPort) -> list[Reply] | None:
    return await post_interview(interviews, user, reminder.payload, reminder.kind == AGAIN)


register_reminder(FIRST, _reminder)
register_reminder(AGAIN, _reminder)
