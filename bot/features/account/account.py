"""The user's own data: /stats (text and chart), /export as JSON (zipped or split to fit the platform) and their
answers as Markdown, /forget."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot.features.account import export_files, export_markdown
from bot.features.apps.ports import ApplicationsPort
from bot.features.jd.ports import JobsPort
from bot.features.mock import mock
from bot.features.mock.ports import MocksPort
from bot.features.notebook.ports import NotebookPort
from bot.features.stats.report import History, progress_reply
from bot.kernel import actions
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.i18n import listing, t, tn
from bot.kernel.inject import group
from bot.kernel.limits import DataFacts, Limits
from bot.kernel.models import Lang, Question, User
from bot.kernel.ports import Clock
from bot.kernel.replies import Attachment, Button, Reply
from bot.kernel.session import ConfirmingForget, Forgotten, Idle, Session
from bot.kernel.store_ports import AttemptsPort, CardsPort, InterviewsPort, RemindersPort, UsersPort
from bot.kernel.timeutil import local_now


async def show_stats(cmd: c.ShowStats, user: User, history: History, mocks: MocksPort) -> list[Reply]:
    reply = await progress_reply(history, user)
    if reply is None:
        return [Reply(t(user.language, "stats.none"), [[Button("/drill", actions.Next().encode())]])]
    trend = await mock.stats_line(mocks, user)  # the mock interviews' scores in order
    return [replace(reply, text=reply.text + "\n" + trend) if trend else reply]


async def forget(cmd: c.Forget, user: User, users: UsersPort) -> list[Reply]:
    lang = user.language
    await users.set_session(user.id, ConfirmingForget())
    buttons = [
        [
            Button(t(lang, "btn.yes_delete"), actions.ConfirmForget(answer="yes").encode()),
            Button(t(lang, "btn.cancel"), actions.ConfirmForget(answer="no").encode()),
        ]
    ]
    return [Reply(t(lang, "forget.confirm"), buttons)]


@group
@dataclass(frozen=True)
class Kept:
    """Every store port that keeps something of a user: what /forget counts before it deletes, and /export reads."""

    users: UsersPort
    cards: CardsPort
    attempts: AttemptsPort
    interviews: InterviewsPort
    reminders: RemindersPort
    mocks: MocksPort
    jds: JobsPort
    notes: NotebookPort
    applications: ApplicationsPort


async def confirm_forget(
    cmd: c.ConfirmForget, user: User, session: Session, kept: Kept, clock: Clock, limits: Limits
) -> list[Reply]:
    """Delete the user and everything of theirs, and say what that was. The identities they chat from get a blank
    user in their language, so the next message is greeted and starts onboarding (the user is still there to
    talk to; nothing else of theirs is kept). Files a platform wrote for them are its to delete (the terminal's
    saved charts and exports): the reply's kind, "forgotten", tells it."""
    lang, users = user.language, kept.users
    if not cmd.confirmed or not isinstance(session, ConfirmingForget):
        await users.set_session(user.id, Idle())
        return [Reply(t(lang, "forget.cancelled"))]
    deleted = await _what_is_kept(kept, user)
    identities = await users.identities(user.id)
    await users.delete_user(user.id)
    lim = limits
    for platform, external_id in identities:
        blank = User(id=0, language=lang, timezone=lim.default_timezone, new_per_day=lim.default_new_per_day,
                     created_at=clock.now(), dm_opt_in=False)  # fmt: skip
        fresh = await users.get_or_create_user(platform, external_id, blank)
        await users.set_session(fresh.id, Forgotten())
    what = listing(lang, [*deleted, t(lang, "forget.settings")])
    return [Reply(t(lang, "forget.done", what=what), kind="forgotten")]


async def _what_is_kept(kept: Kept, user: User) -> list[str]:
    """What /forget is about to delete, counted in words ("12 answers", "2 interviews"), the empty kinds left out."""
    lang, uid = user.language, user.id
    counts = [
        ("count.answer", len(await kept.attempts.list_attempts(uid))),
        ("count.card", len(await kept.cards.list_cards(uid))),
        ("count.interview", len(await kept.interviews.list_interviews(uid))),
        ("count.interview_question", len(await kept.interviews.list_review_items(uid))),
        ("count.mock", len(await kept.mocks.list_mocks(uid))),
        ("count.jd", len(await kept.jds.list_jds(uid))),
        ("count.notebook", len(await kept.notes.list_notes(uid))),
        ("count.application", len(await kept.applications.list_applications(uid))),
        ("count.reminder", len([r for r in await kept.reminders.list_reminders(uid) if r.state == "pending"])),
    ]
    return [tn(lang, key, n) for key, n in counts if n]


async def privacy(cmd: c.ShowPrivacy, user: User, data_facts: DataFacts) -> list[Reply]:
    """/privacy (Telegram's clients offer it to every bot): what is stored, for how long, where the answers go
    (the LLM's host and model and the transcriber's, from the settings), and how to export and delete it all."""
    lang, facts = user.language, data_facts
    llm = t(lang, "privacy.llm", llm=facts.llm) if facts.llm else t(lang, "privacy.no_llm")
    if facts.transcriber in ("", "local"):
        voice = t(lang, "privacy.voice." + (facts.transcriber or "none"))
    else:
        voice = t(lang, "privacy.voice.host", host=facts.transcriber)
    database = t(lang, f"privacy.db.{facts.database}")
    text = t(lang, "privacy", database=database, days=tn(lang, "count.day", facts.event_days), llm=llm, voice=voice)
    return [Reply(text)]


async def export_data(
    cmd: c.ExportData, user: User, kept: Kept, bank: Bank, clock: Clock, limits: Limits
) -> list[Reply]:
    """All the user's data as JSON; zipped, or split into zips, when it is over their platform's upload limit."""
    return await _export(kept, user, bank, clock.now(), limits.upload_limits)


async def _export(kept: Kept, user: User, bank: Bank, now: datetime, limits: Mapping[str, int]) -> list[Reply]:
    answers = await kept.attempts.list_attempts(user.id)
    deck = await kept.cards.list_cards(user.id)
    personal = await kept.interviews.list_personal_questions(user.id)
    identities = await kept.users.identities(user.id)
    data: dict[str, Any] = {
        "user": user.model_dump(mode="json"),
        "identities": [{"platform": p, "id": i} for p, i in identities],
        "cards": [x.model_dump(mode="json") for x in deck],
        "attempts": [a.model_dump(mode="json") for a in answers],
        "personal_questions": [q.model_dump(mode="json") for q in personal],
        "interviews": [x.model_dump(mode="json") for x in await kept.interviews.list_interviews(user.id)],
        "review_items": [x.model_dump(mode="json") for x in await kept.interviews.list_review_items(user.id)],
        "reminders": [x.model_dump(mode="json") for x in await kept.reminders.list_reminders(user.id)],
        "mock_interviews": [x.model_dump(mode="json") for x in await kept.mocks.list_mocks(user.id)],
        "job_descriptions": [x.model_dump(mode="json") for x in await kept.jds.list_jds(user.id)],
        "notebook": [x.model_dump(mode="json") for x in await kept.notes.list_notes(user.id)],
        "applications": [x.model_dump(mode="json") for x in await kept.applications.list_applications(user.id)],
    }
    limit = min((limits[p] for p, _ in identities if p in limits), default=None)
    stamp = local_now(now, user.timezone).strftime("%Y-%m-%d-%H%M")  # the user's date: no id, no overwrite a day
    packed = await asyncio.to_thread(export_files.pack, data, f"drill-export-{stamp}", limit)
    by_id = {q.id: q for q in personal}

    def question(question_id: str) -> Question | None:
        return bank.get(question_id) or by_id.get(question_id)

    rounds = await kept.mocks.list_mocks(user.id)
    markdown = await asyncio.to_thread(
        export_markdown.render, answers, question, user, now, f"drill-answers-{stamp}", limit, rounds
    )
    return [*_json_replies(packed, limit, user.language, len(answers)), *_markdown_replies(markdown, user.language)]


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
