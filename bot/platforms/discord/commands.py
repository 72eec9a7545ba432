"""The slash commands: each one turns its options into a core command and answers via the bridge.

Names, descriptions, option names and choices come from the core's catalogue (see translator.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice, Range

from bot.kernel import commands as c
from bot.kernel.i18n import t
from bot.kernel.models import LEVELS
from bot.kernel.replies import Reply
from bot.platforms.discord.bridge import PLATFORM, may_post, public_text, source_of
from bot.platforms.discord.translator import loc
from bot.platforms.discord.views import bridge_of

if TYPE_CHECKING:
    from bot.kernel.models import User

LEVEL_CHOICES = [Choice(name=loc(f"level.{lv}"), value=lv) for lv in LEVELS]
TOPIC_CHOICES = [Choice(name=loc(f"topic.{x}"), value=x) for x in ("stability", "pipeline", "both")]
MOCK_CHOICES = [Choice(name=loc(f"mock.choice.{x}"), value=x) for x in ("go", "stop", "history", "share")] + [
    Choice(name=loc(f"mock.focus.{x}"), value=x) for x in ("stability", "pipeline", "mixed", "weakest")
]
LANG_CHOICES = [Choice(name=loc("lang.zh"), value="zh"), Choice(name=loc("lang.en"), value="en")]
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


def register(tree: app_commands.CommandTree[discord.Client]) -> None:
    """Add every slash command to `tree`."""

    def simple(name: str, make: Callable[[int], c.Command]) -> None:
        async def run(interaction: discord.Interaction) -> None:
            bridge = bridge_of(interaction)

            async def work(user: User) -> list[Reply]:
                return await bridge.service.handle(make(user.id))

            await bridge.respond(interaction, work)

        tree.add_command(
            app_commands.Command(name=loc(f"cmd.{name}"), description=loc(f"cmd.{name}.desc"), callback=run)
        )

    simple("drill", c.NextQuestion)
    simple("stats", c.ShowStats)
    simple("forget", c.Forget)
    simple("export", c.ExportData)
    simple("privacy", c.ShowPrivacy)
    simple("pause", lambda uid: c.SetPaused(uid, True))
    simple("resume", lambda uid: c.SetPaused(uid, False))

    @tree.command(name=loc("cmd.answer"), description=loc("cmd.answer.desc"))
    @app_commands.rename(text=loc("opt.text"), audio=loc("opt.audio"))
    @app_commands.describe(text=loc("opt.text.desc"), audio=loc("opt.audio.desc"))
    async def answer(
        interaction: discord.Interaction,
        text: Range[str, 1, 6000] | None = None,
        audio: discord.Attachment | None = None,
    ) -> None:
        bridge, source = bridge_of(interaction), source_of(interaction)

        async def work(user: User) -> list[Reply]:
            if audio is not None:
                return await bridge.voice(user, audio, source)
            if text is None:
                return [Reply(t(user.language, "answer.usage"), kind="error")]
            return await bridge.service.handle(c.SubmitAnswer(user.id, text, source=source))

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.mock"), description=loc("cmd.mock.desc"))
    @app_commands.rename(focus=loc("opt.focus"), company=loc("opt.company"), level=loc("opt.level"),
                         questions=loc("opt.questions"))  # fmt: skip
    @app_commands.describe(focus=loc("opt.focus.desc"), company=loc("opt.mock_company.desc"),
                           level=loc("opt.level.desc"), questions=loc("opt.questions.desc"))  # fmt: skip
    @app_commands.choices(focus=MOCK_CHOICES, level=LEVEL_CHOICES)
    async def mock(
        interaction: discord.Interaction,
        focus: Choice[str] | None = None,
        company: Range[str, 1, 100] | None = None,
        level: Choice[str] | None = None,
        questions: Range[int, 3, 6] | None = None,
    ) -> None:
        bridge = bridge_of(interaction)
        words = [focus.value if focus else "", company or "", level.value if level else "", str(questions or "")]
        if focus is not None and focus.value in ("go", "stop", "history", "share"):
            words = [focus.value]  # an action: the other options do not apply
        share = words == ["share"] and interaction.guild_id is not None  # posted in the channel, by choice
        shared = share and may_post(interaction)  # a member who may not post there sees it alone

        async def work(user: User) -> list[Reply]:
            replies = await bridge.service.handle(c.MockCommand(user.id, " ".join(w for w in words if w)))
            if shared:  # who it is: the score and focus only, never an answer, and nothing that links or pings
                who = MENTION.format(id=interaction.user.id)
                replies = [replace(r, text=f"{who} {public_text(r.text)}") if r.kind == "share" else r
                           for r in replies]  # fmt: skip
            elif share and any(r.kind == "share" for r in replies):
                replies = [*replies, Reply(t(user.language, "discord.private_here"))]
            return replies

        await bridge.respond(interaction, work, private=not shared)

    @tree.command(name=loc("cmd.apps"), description=loc("cmd.apps.desc"))
    @app_commands.rename(action=loc("opt.action"))
    @app_commands.describe(action=loc("opt.action.desc"))
    async def apps(interaction: discord.Interaction, action: Range[str, 1, 2000] | None = None) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            return await bridge.service.handle(c.CareerCommand(user.id, "apps", action or ""))

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.notes"), description=loc("cmd.notes.desc"))
    @app_commands.rename(question=loc("opt.notes_question"))
    @app_commands.describe(question=loc("opt.notes_question.desc"))
    async def notes(interaction: discord.Interaction, question: Range[str, 1, 200] | None = None) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            return await bridge.service.handle(c.CareerCommand(user.id, "notes", question or ""))

        await bridge.respond(interaction, work)  # private: ephemeral in a server

    @tree.command(name=loc("cmd.review"), description=loc("cmd.review.desc"))
    @app_commands.rename(company=loc("opt.company"), question=loc("opt.question"), answer=loc("opt.your_answer"))
    @app_commands.describe(
        company=loc("opt.company.desc"), question=loc("opt.question.desc"), answer=loc("opt.your_answer.desc")
    )
    async def review(
        interaction: discord.Interaction,
        company: Range[str, 1, 200],
        question: Range[str, 1, 2000],
        answer: Range[str, 1, 4000] | None = None,
    ) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            return await bridge.service.handle(c.LogReview(user.id, company, question, answer or ""))

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.jd"), description=loc("cmd.jd.desc"))
    @app_commands.rename(text=loc("opt.jd_text"), file=loc("opt.jd_file"))
    @app_commands.describe(text=loc("opt.jd_text.desc"), file=loc("opt.jd_file.desc"))
    async def jd(
        interaction: discord.Interaction,
        text: Range[str, 1, 6000] | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            if file is None:
                return await bridge.service.handle(c.CareerCommand(user.id, "jd", text or ""))
            await bridge.service.handle(c.CareerCommand(user.id, "jd", ""))  # /jd waits for the text: the file is it
            return await bridge.document(user, file)

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.debrief"), description=loc("cmd.debrief.desc"))
    @app_commands.rename(company=loc("opt.company"), text=loc("opt.notes_text"), file=loc("opt.notes_file"))
    @app_commands.describe(company=loc("opt.debrief_company.desc"), text=loc("opt.notes_text.desc"),
                           file=loc("opt.notes_file.desc"))  # fmt: skip
    async def debrief(
        interaction: discord.Interaction,
        company: Range[str, 1, 200] | None = None,
        text: Range[str, 1, 6000] | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        bridge, name = bridge_of(interaction), (company or "").replace("|", "/")

        async def work(user: User) -> list[Reply]:
            args = f"{name} | {text}" if text and file is None else name  # /debrief company | notes
            replies = await bridge.service.handle(c.CareerCommand(user.id, "debrief", args))
            if file is None or any(r.kind == "error" for r in replies):
                return replies
            return await bridge.document(user, file)  # the notes the command has just asked for

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.interview"), description=loc("cmd.interview.desc"))
    @app_commands.rename(company=loc("opt.company"), when=loc("opt.when"), role=loc("opt.role"))
    @app_commands.describe(company=loc("opt.company.desc"), when=loc("opt.when.desc"), role=loc("opt.role.desc"))
    async def interview(
        interaction: discord.Interaction,
        company: Range[str, 1, 200],
        when: Range[str, 1, 100],
        role: Range[str, 1, 200] | None = None,
    ) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            return await bridge.service.handle(c.LogInterview(user.id, company, role or "", when))

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.company"), description=loc("cmd.company.desc"))
    @app_commands.rename(old=loc("opt.old"), new=loc("opt.new"))
    @app_commands.describe(old=loc("opt.old.desc"), new=loc("opt.new.desc"))
    async def company(
        interaction: discord.Interaction,
        old: Range[str, 1, 200] | None = None,
        new: Range[str, 1, 200] | None = None,
    ) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            if old is None and new is None:
                return await bridge.service.handle(c.ShowCompanies(user.id))
            return await bridge.service.handle(c.MergeCompanies(user.id, old or "", new or ""))

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.settings"), description=loc("cmd.settings.desc"))
    @app_commands.rename(
        timezone=loc("opt.timezone"),
        daily_time=loc("opt.daily_time"),
        level=loc("opt.level"),
        topics=loc("opt.topics"),
        new_per_day=loc("opt.new_per_day"),
        daily_dm=loc("opt.daily_dm"),
    )
    @app_commands.describe(
        timezone=loc("opt.timezone.desc"),
        daily_time=loc("opt.daily_time.desc"),
        level=loc("opt.level.desc"),
        topics=loc("opt.topics.desc"),
        new_per_day=loc("opt.new_per_day.desc"),
        daily_dm=loc("opt.daily_dm.desc"),
    )
    @app_commands.choices(level=LEVEL_CHOICES, topics=TOPIC_CHOICES)
    async def settings(
        interaction: discord.Interaction,
        timezone: Range[str, 1, 64] | None = None,
        daily_time: Range[str, 1, 16] | None = None,
        level: Choice[str] | None = None,
        topics: Choice[str] | None = None,
        new_per_day: Range[int, 0, 50] | None = None,
        daily_dm: bool | None = None,
    ) -> None:
        bridge = bridge_of(interaction)
        given = {
            "timezone": timezone,
            "daily_time": daily_time,
            "level": level.value if level else None,
            "topics": topics.value if topics else None,
            "new_per_day": None if new_per_day is None else str(new_per_day),
            "dm_opt_in": None if daily_dm is None else ("on" if daily_dm else "off"),
        }

        async def work(user: User) -> list[Reply]:
            changes = [(name, value) for name, value in given.items() if value is not None]
            if not changes:
                return await bridge.service.handle(c.ShowSettings(user.id))
            replies: list[Reply] = []
            for name, value in changes:
                replies += await bridge.service.handle(c.ChangeSetting(user.id, name, value))
            return _merge(replies)

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.lang"), description=loc("cmd.lang.desc"))
    @app_commands.rename(language=loc("opt.language"))
    @app_commands.describe(language=loc("opt.language.desc"))
    @app_commands.choices(language=LANG_CHOICES)
    async def lang(interaction: discord.Interaction, language: Choice[str]) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            return await bridge.service.handle(c.ChangeSetting(user.id, "language", language.value))

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.help"), description=loc("cmd.help.desc"))
    async def help_(interaction: discord.Interaction) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            replies = await bridge.service.handle(c.ShowHelp(user.id))
            return [*replies, Reply(t(user.language, "help.discord"))]

        await bridge.respond(interaction, work)

    @tree.command(name=loc("cmd.leaderboard"), description=loc("cmd.leaderboard.desc"))
    @app_commands.guild_only()
    async def leaderboard(interaction: discord.Interaction) -> None:
        bridge = bridge_of(interaction)

        public = may_post(interaction)  # a member who may not post in the channel sees it alone

        async def work(user: User) -> list[Reply]:
            board = c.ShowLeaderboard(user.id, PLATFORM, str(interaction.guild_id), mention=MENTION)
            replies = await bridge.service.handle(board)
            if public or interaction.guild_id is None:
                return replies
            return [*replies, Reply(t(user.language, "discord.private_here"))]

        await bridge.in_server(interaction, work, private=not public)

    @tree.command(name=loc("cmd.setup"), description=loc("cmd.setup.desc"))
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        channel=loc("opt.channel"),
        time=loc("opt.time"),
        timezone=loc("opt.timezone"),
        language=loc("opt.server_language"),
        enabled=loc("opt.enabled"),
    )
    @app_commands.describe(
        channel=loc("opt.channel.desc"),
        time=loc("opt.time.desc"),
        timezone=loc("opt.timezone.desc"),
        language=loc("opt.server_language.desc"),
        enabled=loc("opt.enabled.desc"),
    )
    @app_commands.choices(language=LANG_CHOICES)
    async def setup(
        interaction: discord.Interaction,
        channel: app_commands.Transform[app_commands.AppCommandChannel, TextChannelOption],
        time: Range[str, 1, 16] | None = None,
        timezone: Range[str, 1, 64] | None = None,
        language: Choice[str] | None = None,
        enabled: bool = True,
    ) -> None:
        bridge = bridge_of(interaction)

        async def work(user: User) -> list[Reply]:
            cmd = c.SetupServer(
                user.id,
                server_id=str(interaction.guild_id),
                channel_id=str(channel.id),
                channel_label=channel.mention,
                daily_time=time or "",
                timezone=timezone or "",
                language=language.value if language else "",
                enabled=enabled,
                manager=interaction.permissions.manage_guild,
            )
            return await bridge.service.handle(cmd)

        await bridge.in_server(interaction, work)

    _ = (answer, mock, apps, notes, review, jd, debrief, interview, company, settings, lang, help_, leaderboard, setup)
