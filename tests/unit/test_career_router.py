"""The career tools' one door (bot/features/career/router.py), with a hand-written tool: commands, buttons and
waited-for text reach the tool named; a sent file is checked for size and text, then goes to the tool
waiting for text, or the user is asked what it is for; a file read, then cancelled, leaves nothing behind."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from unittest.mock import patch

import pytest

from bot.bootstrap import compose
from bot.features.career import router as career_router
from bot.features.career.router import TOOLS
from bot.features.career.tool import Tool
from bot.features.deps import Deps, Limits
from bot.kernel import commands as c
from bot.kernel.inject import UnknownDependency, group
from bot.kernel.models import User
from bot.kernel.parsing import parse_action, parse_line
from bot.kernel.ports import DocumentError
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.kernel.session import Idle, InCareer
from bot.kernel.store_ports import CardsPort, UsersPort
from tests.fakes import FakeStore
from tests.unit.test_service import new_user


@dataclass
class RecordingTool:
    """A tool that records what reached it and waits for text after its command."""

    seen: list[tuple[str, str]] = field(default_factory=list)

    async def command(self, args: str, user: User, users: UsersPort) -> list[Reply]:
        self.seen.append(("command", args))
        await users.set_session(user.id, InCareer(tool="rec", step="paste"))
        return [Reply("paste it", ask_text=True)]

    async def action(self, arg: str, user: User) -> list[Reply]:
        self.seen.append(("action", arg))
        return [Reply("pressed")]

    async def text(self, value: str, user: User, state: InCareer, users: UsersPort) -> list[Reply]:
        self.seen.append((f"text@{state.step}", value))
        await users.set_session(user.id, Idle())
        return [Reply("got it")]


async def no_action(arg: str, user: User) -> list[Reply]:
    return []


async def no_text(value: str, user: User, state: InCareer) -> list[Reply]:
    return []


async def typo_command(args: str, user: User, cardz: CardsPort) -> list[Reply]:
    return []


@group
@dataclass(frozen=True)
class Typo:
    """A tool's group naming what nothing provides."""

    clok: Limits


@group
@dataclass(frozen=True)
class Sizes:
    """A tool's group: what its handler's parameter annotated with it is given."""

    limits: Limits


async def sized_command(args: str, user: User, sizes: Sizes) -> list[Reply]:
    return [Reply(f"{args}: {sizes.limits.max_document_chars}")]


async def typo_group_command(args: str, user: User, sizes: Typo) -> list[Reply]:
    return []


@pytest.fixture
def tool() -> Iterator[RecordingTool]:
    rec = RecordingTool()
    with patch.dict(
        TOOLS, {"rec": Tool(rec.command, rec.action, rec.text, file_label="career.file_for.jd")}, clear=True
    ):
        yield rec  # the only tool: the real ones are tested in their own files


def reader(text: str | None = None, reason: str = "empty"):  # type: ignore[no-untyped-def]
    def read(data: bytes, filename: str) -> str:
        if text is None:
            raise DocumentError(reason)
        return text

    return read


def test_the_commands_and_buttons_parse_to_their_tool() -> None:
    assert parse_line(1, "/jd off") == c.CareerCommand(1, "jd", "off")
    assert parse_line(1, "/笔记") == c.CareerCommand(1, "notes", "")
    assert parse_line(1, "/board") == c.CareerCommand(1, "apps", "")
    assert parse_line(1, "/debrief Acme") == c.CareerCommand(1, "debrief", "Acme")
    assert parse_action(1, "cr:notes:save:12") == c.CareerAction(1, "notes", "save:12")
    assert parse_action(1, "cr:jd") == c.CareerAction(1, "jd", "")


async def test_command_button_and_text_reach_the_tool(service: Service, tool: RecordingTool) -> None:
    uid = await new_user(service)
    (r,) = await service.handle(c.CareerCommand(uid, "rec", "Acme"))
    assert r.ask_text
    (r,) = await service.handle_text(uid, "the job description")
    assert r.text == "got it"
    (r,) = await service.handle_action(uid, "cr:rec:x:1")
    assert r.text == "pressed"
    assert tool.seen == [("command", "Acme"), ("text@paste", "the job description"), ("action", "x:1")]


async def test_an_unknown_tool_is_an_unknown_command(service: Service) -> None:
    uid = await new_user(service)
    (r,) = await service.handle(c.CareerCommand(uid, "nosuch", ""))
    assert r.kind == "error" and "/nosuch" in r.text


async def test_a_file_goes_to_the_tool_waiting_for_text(service: Service, deps: Deps, tool: RecordingTool) -> None:
    uid = await new_user(service)
    service.deps = replace(deps, read_document=reader("JD: FSDP"))
    await service.handle(c.CareerCommand(uid, "rec", ""))
    (r,) = await service.handle(c.UploadDocument(uid, b"...", "jd.txt"))
    assert r.text == "got it" and tool.seen[-1] == ("text@paste", "JD: FSDP")


async def test_a_file_with_no_tool_waiting_asks_what_it_is(
    service: Service, deps: Deps, store: FakeStore, tool: RecordingTool
) -> None:
    uid = await new_user(service)
    service.deps = replace(deps, read_document=reader("负责分布式训练"))
    (r,) = await service.handle(c.UploadDocument(uid, b"...", "jd.md"))
    assert "7 characters" in r.text and r.actions() == ["cr:file:rec", "cr:file:cancel"]
    assert tool.seen == []
    (r,) = await service.handle_action(uid, "cr:file:rec")
    assert r.text == "got it" and tool.seen == [("text@file", "负责分布式训练")]
    assert isinstance(await store.get_session(uid), Idle)
    (r,) = await service.handle_action(uid, "cr:file:rec")  # pressed twice: the file was used once
    assert "nothing was done" in r.text and len(tool.seen) == 1


async def test_cancelling_a_file_drops_it(service: Service, deps: Deps, store: FakeStore, tool: RecordingTool) -> None:
    uid = await new_user(service)
    service.deps = replace(deps, read_document=reader("notes"))
    await service.handle(c.UploadDocument(uid, b"...", "n.txt"))
    (r,) = await service.handle_action(uid, "cr:file:cancel")
    assert "set the file aside" in r.text and tool.seen == []
    assert isinstance(await store.get_session(uid), Idle)


async def test_typing_while_asked_about_a_file_sets_it_aside(service: Service, deps: Deps, tool: RecordingTool) -> None:
    uid = await new_user(service)
    service.deps = replace(deps, read_document=reader("notes"))
    await service.handle(c.UploadDocument(uid, b"...", "n.txt"))
    (r,) = await service.handle_text(uid, "hello")
    assert "set the file aside" in r.text and tool.seen == []


@pytest.mark.parametrize(
    ("size", "read", "expected"),
    [
        (2_000_001, reader("x"), "2.0 MB; I take files up to 2 MB"),
        (10, reader(None, "type"), ".txt, .md and .pdf"),
        (10, reader(None, "empty"), "no text in that file"),
        (10, reader(None, "unreadable"), "could not read"),
        (10, reader("x" * 20_001), "20001 characters; I take up to 20000"),
        (10, None, "could not read"),
    ],
)
async def test_a_file_that_cannot_be_used_gets_a_clear_reply(
    service: Service,
    deps: Deps,
    store: FakeStore,
    tool: RecordingTool,
    size: int,
    read,
    expected: str,  # type: ignore[no-untyped-def]
) -> None:
    uid = await new_user(service)
    service.deps = replace(deps, read_document=read)
    await service.handle(c.CareerCommand(uid, "rec", ""))
    (r,) = await service.handle(c.UploadDocument(uid, b"x" * size, "jd.txt"))
    assert r.kind == "error" and expected in r.text
    assert await store.get_session(uid) == InCareer(tool="rec", step="paste")  # still waiting: paste it instead
    assert [kind for kind, _ in tool.seen] == ["command"]


async def test_a_file_in_chinese_gets_the_reply_in_chinese(service: Service, deps: Deps, tool: RecordingTool) -> None:
    uid = await new_user(service, "zh")
    service.deps = replace(deps, read_document=reader(None, "type"))
    (r,) = await service.handle(c.UploadDocument(uid, b"x", "a.png"))
    assert "我能读取" in r.text


async def test_with_no_tool_taking_files_a_file_is_refused(service: Service, deps: Deps) -> None:
    uid = await new_user(service)
    service.deps = replace(deps, read_document=reader("x"))
    saved = dict(TOOLS)
    TOOLS.clear()
    try:
        (r,) = await service.handle(c.UploadDocument(uid, b"x", "a.txt"))
    finally:
        TOOLS.update(saved)
    assert r.kind == "error" and "/jd" in r.text
    assert saved == career_router.TOOLS


def test_a_tool_naming_what_nothing_provides_fails_when_the_service_is_built(deps: Deps) -> None:
    with (
        patch.dict(TOOLS, {"typo": Tool(typo_command, no_action, no_text)}),
        pytest.raises(
            UnknownDependency, match=r"test_career_router\.typo_command names 'cardz', which nothing provides"
        ),
    ):
        compose(deps)


def test_a_tool_group_naming_what_nothing_provides_fails_when_the_service_is_built(deps: Deps) -> None:
    with (
        patch.dict(TOOLS, {"typo": Tool(typo_group_command, no_action, no_text)}),
        pytest.raises(
            UnknownDependency, match=r"typo_group_command names 'sizes', a Typo whose 'clok' nothing provides"
        ),
    ):
        compose(deps)


async def test_a_tool_group_is_built_at_each_call(deps: Deps) -> None:
    """A limit of the record swapped after the service was built is seen by the tool's group."""
    with patch.dict(TOOLS, {"sized": Tool(sized_command, no_action, no_text)}, clear=True):
        service = compose(deps)
        uid = await new_user(service)
        (r,) = await service.handle(c.CareerCommand(uid, "sized", "chars"))
        assert r.text == "chars: 20000"
        deps.limits = replace(deps.limits, max_document_chars=12)
        (r,) = await service.handle(c.CareerCommand(uid, "sized", "chars"))
        assert r.text == "chars: 12"
