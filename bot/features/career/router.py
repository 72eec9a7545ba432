"""The career tools (/jd, /notes, /apps, /debrief) behind one door: their commands, their buttons
(`cr:<tool>:<arg>`), the text a tool waits for (the `InCareer` session), and files the user sends.

Each tool is a `Tool` (bot/features/career/tool.py) in `TOOLS`; this module only routes. A sent file is read
to text (bot/documents.py through `read_document`, or the worker pool: `cpu`) and handed to the tool waiting for
text; with none waiting, the user is asked what the file is for. Each handler here is given the tools bound (`tools`:
their handlers name what they use, bound with these: bot/features/career/tool.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.features.apps import apps
from bot.features.career.tool import Tool, Toolbox, ToolTable
from bot.features.debrief import debrief
from bot.features.jd import jd
from bot.features.notebook import notebook
from bot.kernel import actions
from bot.kernel import commands as c
from bot.kernel.actions import ToolAction
from bot.kernel.i18n import t, tn
from bot.kernel.inject import routes_to
from bot.kernel.limits import Limits
from bot.kernel.models import User
from bot.kernel.ports import CpuWork, DocumentError
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer
from bot.kernel.store_ports import UsersPort

log = logging.getLogger(__name__)

TOOLS: dict[str, Tool] = {"jd": jd.TOOL, "apps": apps.TOOL, "debrief": debrief.TOOL, "notes": notebook.TOOL}
"""Each tool by name: its module's `TOOL`."""
TABLE = ToolTable(TOOLS)


@routes_to(tools=TABLE)
async def command(cmd: c.CareerCommand, user: User, tools: Toolbox) -> list[Reply]:
    tool = tools.get(cmd.tool)
    if tool is None:
        return [Reply(t(user.language, "unknown_command", command="/" + cmd.tool[:40]), kind="error")]
    return await tool.command(cmd.args, user)


@routes_to(tools=TABLE)
async def action(cmd: c.CareerAction, user: User, users: UsersPort, tools: Toolbox) -> list[Reply]:
    if cmd.tool == "file":
        return await _place_file(cmd.arg, user, users, tools)
    tool = tools.get(cmd.tool)
    if tool is None:
        return [Reply(t(user.language, "unknown_command", command=cmd.tool[:40]), kind="error")]
    pressed = await tool.press(cmd.payload, user) if isinstance(cmd.payload, ToolAction) else None
    return pressed if pressed is not None else await tool.action(cmd.arg, user)


@routes_to(tools=TABLE)
async def text(value: str, user: User, state: InCareer, users: UsersPort, tools: Toolbox) -> list[Reply]:
    """Typed text while a tool waits; at a "file" question, text is not an answer: ask again."""
    tool = tools.get(state.tool)
    if tool is None:
        await users.set_session(user.id, Idle())
        return [Reply(t(user.language, "career.file_dropped"))]
    return await tool.text(value, user, state)


@routes_to(tools=TABLE)
async def upload(
    cmd: c.UploadDocument,
    user: User,
    users: UsersPort,
    limits: Limits,
    read_document: Callable[[bytes, str], str] | None,
    cpu: CpuWork | None,
    tools: Toolbox,
) -> list[Reply]:
    """A sent file: its text to the tool waiting for text, else the question which tool it is for."""
    lang, lim = user.language, limits
    if len(cmd.data) > lim.max_document_bytes:
        size, limit = f"{len(cmd.data) / 1e6:.1f}", f"{lim.max_document_bytes / 1e6:.0f}"
        return [Reply(t(lang, "career.file_too_big", size=size, limit=limit), kind="error")]
    if read_document is None and cpu is None:
        return [Reply(t(lang, "career.file_unreadable"), kind="error")]
    try:
        if cpu is not None:  # in a worker process, under a deadline (issue #34)
            body = await cpu.read_document(cmd.data, cmd.filename, lim.max_document_chars)
        else:
            assert read_document is not None
            body = await asyncio.to_thread(read_document, cmd.data, cmd.filename)
    except DocumentError as err:
        key = {"type": "career.file_type", "empty": "career.file_empty"}.get(err.reason, "career.file_unreadable")
        return [Reply(t(lang, key), kind="error")]
    if len(body) > lim.max_document_chars:
        return [Reply(t(lang, "career.file_too_long", length=len(body), limit=lim.max_document_chars), kind="error")]
    state = await users.get_session(user.id)
    waiting = tools.get(state.tool) if isinstance(state, InCareer) else None
    if isinstance(state, InCareer) and waiting is not None:
        return await waiting.text(body, user, state)
    takers = tools.file_takers()
    if not takers:
        return [Reply(t(lang, "career.file_unused"), kind="error")]
    await users.set_session(user.id, InCareer(tool="file", step="choose", data={"text": body}))
    buttons = [[Button(t(lang, label), actions.Career(tool="file", arg=name).encode()) for name, label in takers]]
    buttons.append([Button(t(lang, "btn.cancel"), actions.Career(tool="file", arg="cancel").encode())])
    return [Reply(t(lang, "career.file_what", chars=tn(lang, "count.character", len(body))), buttons)]


async def _place_file(arg: str, user: User, users: UsersPort, tools: Toolbox) -> list[Reply]:
    """The answer to "what is this file for?": its text goes to that tool as if typed there."""
    state = await users.get_session(user.id)
    if not isinstance(state, InCareer) or state.tool != "file":
        return [Reply(t(user.language, "career.expired"))]
    await users.set_session(user.id, Idle())
    tool = tools.get(arg)
    if tool is None or tool.file_label is None:
        return [Reply(t(user.language, "career.file_dropped"))]
    return await tool.text(state.data.get("text", ""), user, InCareer(tool=arg, step="file"))
