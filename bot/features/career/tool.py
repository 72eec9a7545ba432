"""What a career tool (/jd, /notes, /apps, /debrief) gives the router (bot/features/career/router.py): three
handlers and, when a sent file may be its input, the label of its "what is this file?" button.

A tool's handlers name what they use (bot/kernel/inject.py), as the command handlers do: per call they are given
`user` and the command's words (`args`), a button's argument (`arg`), the text waited for (`value`, with the tool's
`state`) or a typed button (`payload`); the rest by name from the map, or, where a parameter is annotated with a
dependency group (a frozen dataclass marked `@group`: /jd's `jobs: Jobs`), the group built from the map at each call.
They are bound when the router is (`ToolTable`, `inject.routes_to`): a name nothing provides, or a group's field that
names nothing, fails at start-up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.kernel.actions import ToolAction
from bot.kernel.inject import AnyHandler, Bound, bind
from bot.kernel.models import User
from bot.kernel.replies import Reply
from bot.kernel.session import InCareer

COMMAND = ("args", "user")
ACTION = ("arg", "user")
TEXT = ("value", "user", "state")
PRESS = ("payload", "user")


@dataclass(frozen=True)
class Tool:
    command: AnyHandler
    """The command's words (`args`: after /jd ...)."""
    action: AnyHandler
    """A button's argument (`arg`: after cr:<tool>:)."""
    text: AnyHandler
    """Text (`value`: typed, or read from a file: step "file") while the tool's `InCareer` session (`state`) waits."""
    file_label: str | None = None
    """The i18n key of its "what is this file?" button when a sent file may be this tool's input (a file
    arriving while no tool waits for text); None: files are not for this tool."""
    press: AnyHandler | None = None
    """A button whose payload the tool typed (`payload`: a `ToolAction`, decoded by the kernel); `action` gets the
    rest."""

    def bind(self, provided: Mapping[str, object]) -> BoundTool:
        press = None if self.press is None else bind(self.press, provided, PRESS)
        return BoundTool(
            self,
            bind(self.command, provided, COMMAND),
            bind(self.action, provided, ACTION),
            bind(self.text, provided, TEXT),
            press,
        )


@dataclass(frozen=True)
class BoundTool:
    """A tool with its handlers bound, each called with its per-call values."""

    tool: Tool
    on_command: Bound
    on_action: Bound
    on_text: Bound
    on_press: Bound | None

    @property
    def file_label(self) -> str | None:
        return self.tool.file_label

    async def command(self, args: str, user: User) -> list[Reply]:
        replies: list[Reply] = await self.on_command(args=args, user=user)
        return replies

    async def action(self, arg: str, user: User) -> list[Reply]:
        replies: list[Reply] = await self.on_action(arg=arg, user=user)
        return replies

    async def text(self, value: str, user: User, state: InCareer) -> list[Reply]:
        replies: list[Reply] = await self.on_text(value=value, user=user, state=state)
        return replies

    async def press(self, payload: ToolAction, user: User) -> list[Reply] | None:
        """None when the tool types no button's payload (its `action` takes them all)."""
        if self.on_press is None:
            return None
        replies: list[Reply] = await self.on_press(payload=payload, user=user)
        return replies


class Toolbox:
    """The tools by name, bound (what the router's handlers are given): each as it is in the table now. A tool put
    in the table after it was bound (a test's) is bound when first asked for."""

    def __init__(self, tools: Mapping[str, Tool], provided: Mapping[str, object]) -> None:
        self._tools, self._provided = tools, provided
        self._bound = {name: tool.bind(provided) for name, tool in tools.items()}

    def get(self, name: str) -> BoundTool | None:
        tool = self._tools.get(name)
        if tool is None:
            return None
        bound = self._bound.get(name)
        if bound is None or bound.tool is not tool:
            bound = self._bound[name] = tool.bind(self._provided)
        return bound

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def file_takers(self) -> list[tuple[str, str]]:
        """The tools a sent file may be for: (name, the i18n key of its button), in the table's order."""
        return [(name, tool.file_label) for name, tool in self._tools.items() if tool.file_label]


@dataclass(frozen=True)
class ToolTable:
    """The tools by name (bot/features/career/router.py TOOLS), bound when a handler routing to them is
    (bot/kernel/inject.py routes_to): a name nothing provides fails then, at start-up."""

    tools: Mapping[str, Tool]

    def bind(self, provided: Mapping[str, object]) -> Toolbox:
        return Toolbox(self.tools, provided)
