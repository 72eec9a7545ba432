"""The career tools (/jd, /notes, /apps, /debrief) behind one door: their commands, their buttons
(`cr:<tool>:<arg>`), the text a tool waits for (the `InCareer` session), and files the user sends.

Each tool is a `Tool` (bot/features/career/tool.py) in `TOOLS`; this module only routes. A sent file is read
to text (bot/documents.py through `Deps.read_document`) and handed to the tool waiting for text; with none
waiting, the user is asked what the file is for."""

from __future__ import annotations

import asyncio
import logging

from bot.features.apps import apps
from bot.features.career.tool import Tool
from bot.features.debrief import debrief
from bot.features.deps import Deps
from bot.features.jd import jd
from bot.features.notebook import notebook
from bot.kernel import actions
from bot.kernel import commands as c
from bot.kernel.actions import ToolAction
from bot.kernel.i18n import t, tn
from bot.kernel.models import User
from bot.kernel.ports import DocumentError
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer

log = logging.getLogger(__name__)

TOOLS: dict[str, Tool] = {"jd": jd.TOOL, "apps": apps.TOOL, "debrief": debrief.TOOL, "notes": notebook.TOOL}
"""Each tool by name: its module's `TOOL`."""


async def command(cmd: c.CareerCommand, deps: Deps, user: User) -> list[Reply]:
    tool = TOOLS.get(cmd.tool)
    if tool is None:
        return [Reply(t(user.language, "unknown_command", command="/" + cmd.tool[:40]), kind="error")]
    return await tool.command(cmd.args, deps, user)


async def action(cmd: c.CareerAction, deps: Deps, user: User) -> list[Reply]:
    if cmd.tool == "file":
        return await _place_file(cmd.arg, deps, user)
    tool = TOOLS.get(cmd.tool)
    if tool is None:
        return [Reply(t(user.language, "unknown_command", command=cmd.tool[:40]), kind="error")]
    if isinstance(cmd.payload, ToolAction) and tool.press is not None:
        return await tool.press(cmd.payload, deps, user)
    return await tool.action(cmd.arg, deps, user)


async def text(value: str, deps: Deps, user: User, state: InCareer) -> list[Reply]:
    """Typed text while a tool waits; at a "file" question, text is not an answer: ask again."""
    tool = TOOLS.get(state.tool)
    if tool is None:
        await deps.store.set_session(user.id, Idle())
        return [Reply(t(user.language, "career.file_dropped"))]
    return await tool.text(value, deps, user, state)


async def upload(cmd: c.UploadDocument, deps: Deps, user: User) -> list[Reply]:
    """A sent file: its text to the tool waiting for text, else the question which tool it is for."""
    lang, lim = user.language, deps.limits
    if len(cmd.data) > lim.max_document_bytes:
        size, limit = f"{len(cmd.data) / 1e6:.1f}", f"{lim.max_document_bytes / 1e6:.0f}"
        return [Reply(t(lang, "career.file_too_big", size=size, limit=limit), kind="error")]
    if deps.read_document is None and deps.cpu is None:
        return [Reply(t(lang, "career.file_unreadable"), kind="error")]
    try:
        if deps.cpu is not None:  # in a worker process, under a deadline (issue #34)
            body = await deps.cpu.read_document(cmd.data, cmd.filename, lim.max_document_chars)
        else:
            assert deps.read_document is not None
            body = await asyncio.to_thread(deps.read_document, cmd.data, cmd.filename)
    except DocumentError as err:
        key = {"type": "career.file_type", "empty": "career.file_empty"}.get(err.reason, "career.file_unreadable")
        return [Reply(t(lang, key), kind="error")]
    if len(body) > lim.max_document_chars:
        return [Reply(t(lang, "career.file_too_long", length=len(body), limit=lim.max_document_chars), kind="error")]
    state = await deps.store.get_session(user.id)
    if isinstance(state, InCareer) and state.tool in TOOLS:
        return await TOOLS[state.tool].text(body, deps, user, state)
    takers = [(name, tool.file_label) for name, tool in TOOLS.items() if tool.file_label]
    if not takers:
        return [Reply(t(lang, "career.file_unused"), kind="error")]
    await deps.store.set_session(user.id, InCareer(tool="file", step="choose", data={"text": body}))
    buttons = [[Button(t(lang, label), actions.Career(tool="file", arg=name).encode()) for name, label in takers]]
    buttons.append([Button(t(lang, "btn.cancel"), actions.Career(tool="file", arg="cancel").encode())])
    return [Reply(t(lang, "career.file_what", chars=tn(lang, "count.character", len(body))), buttons)]


async def _place_file(arg: str, deps: Deps, user: User) -> list[Reply]:
    """The answer to "what is this file for?": its text goes to that tool as if typed there."""
    state = await deps.store.get_session(user.id)
    if not isinstance(state, InCareer) or state.tool != "file":
        return [Reply(t(user.language, "career.expired"))]
    await deps.store.set_session(user.id, Idle())
    tool = TOOLS.get(arg)
    if tool is None or tool.file_label is None:
        return [Reply(t(user.language, "career.file_dropped"))]
    return await tool.text(state.data.get("text", ""), deps, user, InCareer(tool=arg, step="file"))
