"""The user's own data: /stats (text and chart), /export as JSON (zipped or split to fit the platform) and their
answers as Markdown, /forget."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot.features.account import export_files, export_markdown
from bot.features.deps import Deps
from bot.features.mock import mock
from bot.features.stats.report import progress_reply
from bot.kernel import actions
from bot.kernel import commands as c
from bot.kernel.i18n import listing, t, tn
from bot.kernel.models import Lang, Question, User
from bot.kernel.replies import Attachment, Button, Reply
from bot.kernel.session import ConfirmingForget, Forgotten, Idle, Session
from bot.kernel.timeutil import local_now


async def show_stats(cmd: c.ShowStats, deps: Deps, user: User) -> list[Reply]:
    reply = await progress_reply(deps, user)
    if reply is None:
        return [Reply(t(user.language, "stats.none"), [[Button("/drill", actions.Next().encode())]])]
    trend = await mock.stats_line(deps, user)  # the mock interviews' scores in order
    return [replace(reply, text=reply.text + "\n" + trend) if trend else reply]


async def forget(cmd: c.Forget, deps: Deps, user: User) -> list[Reply]:
    lang = user.language
    await deps.store.set_session(user.id, ConfirmingForget())
    buttons = [
        [
            Button(t(lang, "btn.yes_delete"), actions.ConfirmForget(answer="yes").encode()),
            Button(t(lang, "btn.cancel"), actions.ConfirmForget(answer="no").encode()),
        ]
    ]
    return [Reply(t(lang, "forget.confirm"), buttons)]


async def confirm_forget(cmd: c.ConfirmForget, deps: Deps, user: User, session: Session) -> list[Reply]:
    """Delete the user and everything of theirs, and say what that was. The identities they chat from get a blank
    user in their language, so the next message is greeted and starts onboarding (the user is still there to
    talk to; nothing else of theirs is kept). Files a platform wrote for them are its to delete (the terminal's
    saved charts and exports): the reply's kind, "forgotten", tells it."""
    lang = user.language
    if not cmd.confirmed or not isinstance(session, ConfirmingForget):
        await deps.store.set_session(user.id, Idle())
        return [Reply(t(lang, "forget.cancelled"))]
    deleted = await _what_is_kept(deps, user)
    identities = await deps.store.identities(user.id)
    await deps.store.delete_user(user.id)
    lim = deps.limits
    for platform, external_id in identities:
        blank = User(id=0, language=lang, timezone=lim.default_timezone, new_per_day=lim.default_new_per_day,
                     created_at=deps.clock.now(), dm_opt_in=False)  # fmt: skip
        fresh = await deps.store.get_or_create_user(platform, external_id, blank)
        await deps.store.set_session(fresh.id, Forgotten())
    what = listing(lang, [*deleted, t(lang, "forget.settings")])
    return [Reply(t(lang, "forget.done", what=what), kind="forgotten")]


async def _what_is_kept(deps: Deps, user: User) -> list[str]:
    """What /forget is about to delete, counted in words ("12 answers", "2 interviews"), the empty kinds left out."""
    store, lang = deps.store, user.language
    counts = [
        ("count.answer", len(await store.list_attempts(user.id))),
        ("count.card", len(await store.list_cards(user.id))),
        ("count.interview", len(await store.list_interviews(user.id))),
        ("count.interview_question", len(await store.list_review_items(user.id))),
        ("count.mock", len(await store.list_mocks(user.id))),
        ("count.jd", len(await store.list_jds(user.id))),
        ("count.notebook", len(await store.list_notes(user.id))),
        ("count.application", len(await store.list_applications(user.id))),
        ("count.reminder", len([r for r in await store.list_reminders(user.id) if r.state == "pending"])),
    ]
    return [tn(lang, key, n) for key, n in counts if n]


async def privacy(cmd: c.ShowPrivacy, deps: Deps, user: User) -> list[Reply]:
    """/privacy (Telegram's clients offer it to every bot): what is stored, for how long, where the answers go
    (the LLM's host and model and the transcriber's, from the settings), and how to export and delete it all."""
    lang, facts = user.language, deps.data_facts
    llm = t(lang, "privacy.llm", llm=facts.llm) if facts.llm else t(lang, "privacy.no_llm")
    if facts.transcriber in ("", "local"):
        voice = t(lang, "privacy.voice." + (facts.transcriber or "none"))
    else:
        voice = t(lang, "privacy.voice.host", host=facts.transcriber)
    database = t(lang, f"privacy.db.{facts.database}")
    text = t(lang, "privacy", database=database, days=tn(lang, "count.day", facts.event_days), llm=llm, voice=voice)
    return [Reply(text)]


async def export_data(cmd: c.ExportData, deps: Deps, user: User) -> list[Reply]:
    """All the user's data as JSON; zipped, or split into zips, when it is over their platform's upload limit."""
    store = deps.store
    attempts = await store.list_attempts(user.id)
    cards = await store.list_cards(user.id)
    personal = await store.list_personal_questions(user.id)
    identities = await store.identities(user.id)
    data: dict[str, Any] = {
        "user": user.model_dump(mode="json"),
        "identities": [{"platform": p, "id": i} for p, i in identities],
        "cards": [x.model_dump(mode="json") for x in cards],
        "attempts": [a.model_dump(mode="json") for a in attempts],
        "personal_questions": [q.model_dump(mode="json") for q in personal],
        "interviews": [x.model_dump(mode="json") for x in await store.list_interviews(user.id)],
        "review_items": [x.model_dump(mode="json") for x in await store.list_review_items(user.id)],
        "reminders": [x.model_dump(mode="json") for x in await store.list_reminders(user.id)],
        "mock_interviews": [x.model_dump(mode="json") for x in await store.list_mocks(user.id)],
        "job_descriptions": [x.model_dump(mode="json") for x in await store.list_jds(user.id)],
        "notebook": [x.model_dump(mode="json") for x in await store.list_notes(user.id)],
        "applications": [x.model_dump(mode="json") for x in await store.list_applications(user.id)],
    }
    limits = deps.limits.upload_limits
    limit = min((limits[p] for p, _ in identities if p in limits), default=None)
    now = deps.clock.now()
    stamp = local_now(now, user.timezone).strftime("%Y-%m-%d-%H%M")  # the user's date: no id, no overwrite a day
    packed = await asyncio.to_thread(export_files.pack, data, f"drill-export-{stamp}", limit)
    by_id = {q.id: q for q in personal}

    def question(question_id: str) -> Question | None:
        return deps.bank.get(question_id) or by_id.get(question_id)

    mocks = await store.list_mocks(user.id)
    markdown = await asyncio.to_thread(
        export_markdown.render, attempts, question, user, now, f"drill-answers-{stamp}", limit, mocks
    )
    return [*_json_replies(packed, limit, user.language, len(attempts)), *_markdown_replies(markdown, user.language)]


def _json_replies(packed: export_files.Packed, limit: int | None, lang: Lang, n: int) -> list[Reply]:
    files, answers = packed.files, tn(lang, "count.answer", n)
    if len(files) == 1 and files[0].mime == export_files.JSON_MIME:
        return [Reply(t(lang, "export.done", answers=answers), file=files[0])]
    sizes = {"mb": f"{packed.raw_bytes / 1e6:.1f}", "limit": f"{(limit or 0) / 1e6:g}"}
    if len(files) == 1:
        return [Reply(t(lang, "export.zipped", answers=answers, **sizes), file=files[0])]
    first = Reply(t(lang, "export.split", answers=answers, parts=len(files), **sizes), file=files[0])
    rest = [Reply(t(lang, "export.part", part=k, parts=len(files)), file=f) for k, f in enumerate(files[1:], 2)]
    return [first, *rest]


def _markdown_replies(files: list[Attachment], lang: Lang) -> list[Reply]:
    if len(files) == 1:
        return [Reply(t(lang, "export.markdown"), file=files[0])]
    return [Reply(t(lang, "export.markdown_part", part=k, parts=len(files)), file=f) for k, f in enumerate(files, 1)]
