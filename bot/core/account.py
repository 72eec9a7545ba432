"""The user's own data: /stats (text and chart), /export as JSON, /forget after a confirmation."""

from __future__ import annotations

import json
from typing import Any

from bot.core import commands as c
from bot.core.deps import Deps
from bot.core.i18n import t
from bot.core.models import User
from bot.core.progress_report import progress_reply
from bot.core.replies import Attachment, Button, Reply


async def show_stats(cmd: c.ShowStats, deps: Deps, user: User) -> list[Reply]:
    reply = await progress_reply(deps, user)
    if reply is None:
        return [Reply(t(user.language, "stats.none"), [[Button("/drill", "next")]])]
    return [reply]


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
