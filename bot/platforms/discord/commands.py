"""The slash commands, generated from the kernel's registry (bot/kernel/registry.py): each entry with a `Slash`
becomes one command, its `args` its options; the options become kernel commands (the entry's `build`) answered
via the bridge.

A command's name is its registry entry's: the English name, and in Chinese its first Chinese name (the one /help
lists and a user types on the other platforms); a command with no typed form (answer, leaderboard, setup) takes
its Chinese name from the catalogue (`cmd.<name>`). Descriptions, option names and choices come from the core's
catalogue; translator.py gives Discord the Chinese (see there).
"""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range

from bot.kernel.i18n import t
from bot.kernel.parsing import parse_line
from bot.kernel.registry import REGISTRY, Arg, ChannelRef, Entry, Slash, SlashCall
from bot.kernel.replies import Reply
from bot.platforms.discord.bridge import PLATFORM, may_post, public_text, source_of
from bot.platforms.discord.translator import loc, named
from bot.platforms.discord.views import bridge_of

if TYPE_CHECKING:
    from bot.kernel.models import User

MENTION = "<@{id}>"


class TextChannelOption(app_commands.Transformer):
    """A text channel option, taken as Discord resolved it (no need for the channel in the cache)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(
        self, interaction: discord.Interaction, value: app_commands.AppCommandChannel
    ) -> app_commands.AppCommandChannel:
        return value


def _merge(replies: list[Reply]) -> list[Reply]:
    """Several settings changed at once read better as one message."""
    if len(replies) < 2 or any(r.buttons or r.image or r.file for r in replies):
        return replies
    kind = "error" if any(r.kind == "error" for r in replies) else replies[0].kind
    return [Reply("\n".join(r.text for r in replies), kind=kind)]


def _annotation(arg: Arg) -> Any:
    """The parameter type discord.py reads an option from."""
    if arg.kind == "text":
        kind: Any = Range[str, arg.low, arg.high]
    elif arg.kind == "number":
        kind = Range[int, arg.low, arg.high]
    elif arg.kind == "switch":
        kind = bool
    elif arg.kind == "choice":
        kind = Choice[str]
    elif arg.kind == "channel":
        kind = app_commands.Transform[app_commands.AppCommandChannel, TextChannelOption]
    else:  # a recording or a file
        kind = discord.Attachment
    if arg.required or arg.default is not None:
        return kind
    return Optional[kind]  # noqa: UP045  (a runtime annotation: discord.py reads it)


def _signature(args: tuple[Arg, ...]) -> inspect.Signature:
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter("interaction", keyword, annotation=discord.Interaction)]
    for arg in args:
        default = inspect.Parameter.empty if arg.required else arg.default
        params.append(inspect.Parameter(arg.name, keyword, default=default, annotation=_annotation(arg)))
    return inspect.Signature(params)


def _values(args: tuple[Arg, ...], options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, discord.Attachment]]:
    """The options given, as the registry's `SlashCall.values` (a choice as its value, a file as True, a channel
    as a ChannelRef), and the files given."""
    values: dict[str, Any] = {}
    files: dict[str, discord.Attachment] = {}
    for arg in args:
        value = options.get(arg.name)
        if value is None:
            continue
        if arg.kind == "choice":
            value = value.value
        elif arg.kind in ("audio", "file"):
            files[arg.name], value = value, True
        elif arg.kind == "channel":
            value = ChannelRef(str(value.id), value.mention)
        values[arg.name] = value
    return values, files


async def _invoke(entry: Entry, slash: Slash, interaction: discord.Interaction, options: dict[str, Any]) -> None:
    bridge = bridge_of(interaction)
    values, files = _values(entry.args, options)
    source = source_of(interaction)
    public = slash.public is not None and slash.public(values) and interaction.guild_id is not None
    shared = public and may_post(interaction)  # a member who may not post there sees it alone
    audio, file = files.get(slash.audio), files.get(slash.file)

    async def work(user: User) -> list[Reply]:
        lang = user.language
        if audio is not None:
            return await bridge.voice(user, audio, source)
        if slash.needs_one_of and not any(name in values for name in slash.needs_one_of):
            return [Reply(t(lang, slash.missing_key), kind="error")]
        call = SlashCall(
            user.id,
            values,
            PLATFORM,
            server_id=str(interaction.guild_id) if interaction.guild_id else None,
            source=source,
            manager=interaction.permissions.manage_guild,
            mention=MENTION,
        )
        made = slash.build(call) if slash.build is not None else parse_line(user.id, f"/{entry.name}")
        replies: list[Reply] = []
        for cmd in made if isinstance(made, list) else [made]:
            replies += await bridge.service.handle(cmd)
        if isinstance(made, list):
            replies = _merge(replies)
        if file is not None and not any(r.kind == "error" for r in replies):
            return await bridge.document(user, file)  # what the command has just asked for
        if slash.after_key:
            replies = [*replies, Reply(t(lang, slash.after_key))]
        if shared and slash.public_kind is not None:  # who it is; nothing that links or pings
            who = MENTION.format(id=interaction.user.id)
            replies = [replace(r, text=f"{who} {public_text(r.text)}") if r.kind == slash.public_kind else r
                       for r in replies]  # fmt: skip
        elif public and not shared and (slash.public_kind is None or any(r.kind == slash.public_kind for r in replies)):
            replies = [*replies, Reply(t(lang, "discord.private_here"))]
        return replies

    respond = bridge.in_server if slash.server_only else bridge.respond
    await respond(interaction, work, private=not shared)


def slash_command(entry: Entry) -> app_commands.Command[Any, ..., None]:
    """The registry entry as a slash command."""
    slash = entry.slash
    assert slash is not None

    async def run(interaction: discord.Interaction, **options: Any) -> None:
        await _invoke(entry, slash, interaction, options)

    run.__signature__ = _signature(entry.args)  # type: ignore[attr-defined]
    callback: Any = run
    if entry.args:
        callback = app_commands.rename(**{a.name: loc(a.name_key) for a in entry.args})(callback)
        callback = app_commands.describe(**{a.name: loc(a.description_key) for a in entry.args})(callback)
    choices = {a.name: [Choice(name=loc(key), value=v) for key, v in a.choices] for a in entry.args if a.choices}
    if choices:
        callback = app_commands.choices(**choices)(callback)
    if slash.server_only:
        callback = app_commands.guild_only()(callback)
    if slash.managers_only:
        callback = app_commands.default_permissions(manage_guild=True)(callback)
    return app_commands.Command(name=command_name(entry), description=loc(f"cmd.{entry.name}.desc"), callback=callback)


def command_name(entry: Entry) -> app_commands.locale_str:
    """The entry's name as a slash command: its English name and, in Chinese, its first Chinese name; with no
    Chinese name (no typed form), the catalogue's `cmd.<name>`."""
    if entry.zh:
        return named(entry.name, entry.zh[0])
    return loc(f"cmd.{entry.name}")


def register(tree: app_commands.CommandTree[discord.Client]) -> None:
    """Add every slash command of the registry to `tree`."""
    for entry in REGISTRY.slash_entries():
        tree.add_command(slash_command(entry))
