"""The user's own data: /stats as text, /export as JSON, /forget after a confirmation."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date, timedelta
from typing import Any

from bot.core import commands as c
from bot.core.deps import Deps
from bot.core.i18n import t
from bot.core.models import Attempt, User
from bot.core.render import topic_name
from bot.core.replies import Attachment, Button, Reply
from bot.core.timeutil import end_of_local_day, local_date


def streaks(days: set[date], today: date) -> tuple[int, int]:
    """(current streak, best streak) in days. The current streak may end today or yesterday."""
    best = run = 0
    prev: date | None = None
    for d in sorted(days):
        run = run + 1 if prev is not None and d - prev == timedelta(days=1) else 1
        best = max(best, run)
        prev = d
    current = 0
    d = today if today in days else today - timedelta(days=1)
    while d in days:
        current += 1
        d -= timedelta(days=1)
    return current, best


def reviewed(attempts: list[Attempt]) -> list[Attempt]:
    """Attempts that count as reviews: graded, self-rated or revealed; follow-ups excluded."""
    return [a for a in attempts if not a.is_follow_up and a.status in ("graded", "self", "revealed", "regrade")]


async def show_stats(cmd: c.ShowStats, deps: Deps, user: User) -> list[Reply]:
    lang, now, store = user.language, deps.clock.now(), deps.store
    attempts = reviewed(await store.list_attempts(user.id))
    if not attempts:
        return [Reply(t(lang, "stats.none"), [[Button("/drill", "next")]])]
    days = {local_date(a.created_at, user.timezone) for a in attempts}
    current, best = streaks(days, local_date(now, user.timezone))
    week = sum(1 for a in attempts if a.created_at > now - timedelta(days=7))
    cards = await store.list_cards(user.id)
    due_today = await store.count_due(user.id, end_of_local_day(now, user.timezone))
    lines = [
        t(
            lang,
            "stats",
            total=len(attempts),
            week=week,
            streak=current,
            best=best,
            due_today=due_today,
            cards=len(cards),
            personal=sum(1 for x in cards if x.personal),
        )
    ]
    by_topic: dict[str, list[int]] = defaultdict(list)
    for a in attempts:
        if a.grade is not None:
            q = await deps.question(a.question_id)
            by_topic[q.topic if q else "other"].append(a.grade.score)
    if by_topic:
        lines.append(t(lang, "stats.by_topic"))
        for topic, scores in sorted(by_topic.items()):
            mean = round(sum(scores) / len(scores))
            lines.append(t(lang, "stats.topic_line", topic=topic_name(topic, lang), mean=mean, n=len(scores)))
    interviews = await store.list_interviews(user.id)
    items = await store.list_review_items(user.id)
    if interviews or items:
        lines.append(t(lang, "stats.interviews", interviews=len(interviews), questions=len(items)))
    return [Reply("\n".join(lines), kind="stats")]


async def forget(cmd: c.Forget, deps: Deps, user: User) -> list[Reply]:
    lang = user.language
    await deps.store.set_session(user.id, {"mode": "confirm_forget"})
    buttons = [[Button(t(lang, "btn.yes_delete"), "forget:yes"), Button(t(lang, "btn.cancel"), "forget:no")]]
    return [Reply(t(lang, "forget.confirm"), buttons)]


async def confirm_forget(cmd: c.ConfirmForget, deps: Deps, user: User) -> list[Reply]:
    session = await deps.store.get_session(user.id)
    if not cmd.confirmed or session.get("mode") != "confirm_forget":
        await deps.store.set_session(user.id, {"mode": "idle"})
        return [Reply(t(user.language, "forget.cancelled"))]
    await deps.store.delete_user(user.id)
    return [Reply(t(user.language, "forget.done"))]


async def export_data(cmd: c.ExportData, deps: Deps, user: User) -> list[Reply]:
    store = deps.store
    attempts = await store.list_attempts(user.id)
    cards = await store.list_cards(user.id)
    personal = [
        await store.get_personal_question(x.question_id) for x in cards if x.question_id.startswith("personal:")
    ]
    data: dict[str, Any] = {
        "user": user.model_dump(mode="json"),
        "identities": [{"platform": p, "id": i} for p, i in await store.identities(user.id)],
        "cards": [x.model_dump(mode="json") for x in cards],
        "attempts": [a.model_dump(mode="json") for a in attempts],
        "personal_questions": [q.model_dump(mode="json") for q in personal if q is not None],
        "interviews": [x.model_dump(mode="json") for x in await store.list_interviews(user.id)],
        "review_items": [x.model_dump(mode="json") for x in await store.list_review_items(user.id)],
        "reminders": [x.model_dump(mode="json") for x in await store.list_reminders(user.id)],
    }
    blob = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")
    name = f"drill-export-{user.id}.json"
    return [Reply(t(user.language, "export.done", n=len(attempts)), file=Attachment(name, blob, "application/json"))]
