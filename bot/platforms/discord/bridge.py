"""The translator between Discord events and the core: who the user is, how an interaction is
acknowledged and answered, and how a direct message becomes a command.

Every interaction is deferred at once (Discord's 3-second deadline) and answered with follow-ups;
personal results are ephemeral in servers. Each interaction and message is handled once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.kernel import commands as c
from bot.kernel.i18n import t
from bot.kernel.identity import server_source
from bot.kernel.models import Lang, User
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.platforms.discord.render import messages
from bot.platforms.discord.translator import language_of

log = logging.getLogger(__name__)
PLATFORM = "discord"
AUDIO_SUFFIXES = (".ogg", ".oga", ".opus", ".mp3", ".m4a", ".wav", ".webm", ".flac", ".aac")
Work = Callable[[User], Awaitable[list[Reply]]]


def is_audio(attachment: discord.Attachment) -> bool:
    kind = (attachment.content_type or "").lower()
    return (
        attachment.is_voice_message()
        or kind.startswith("audio/")
        or attachment.filename.lower().endswith(AUDIO_SUFFIXES)
    )


def source_of(interaction: discord.Interaction) -> str | None:
    """Answers given in a server count toward its leaderboard."""
    return server_source(PLATFORM, str(interaction.guild_id)) if interaction.guild_id else None


THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def may_post(interaction: discord.Interaction) -> bool:
    """Whether the member may send messages in the interaction's channel, as Discord resolved their permissions
    there (roles and overwrites) for this interaction: a post the bot makes for them is public only then."""
    if interaction.guild_id is None:
        return False
    permissions = interaction.permissions
    if getattr(interaction.channel, "type", None) in THREADS:
        return permissions.send_messages_in_threads
    return permissions.send_messages


def public_text(text: str) -> str:
    """Text posted for everyone under the bot's name: its Markdown (a masked link's brackets included) and its
    mentions escaped, so it reads as typed and pings no one."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


class Bridge:
    def __init__(self, service: Service) -> None:
        self.service = service

    async def user(self, who: discord.abc.User, locale: discord.Locale | None = None) -> User:
        """Discord users get daily drills by DM only after opting in (/settings daily_dm)."""
        return await self.service.user_for(PLATFORM, str(who.id), language_of(locale), dm_opt_in=False)

    def _fallback_lang(self, interaction: discord.Interaction) -> Lang:
        return language_of(interaction.locale) or self.service.deps.limits.default_language

    async def respond(self, interaction: discord.Interaction, work: Work, *, private: bool = True) -> None:
        """Defer before any database work (the 3-second deadline), then run `work` for the
        interaction's user once, and answer with follow-ups."""
        ephemeral = private and interaction.guild_id is not None
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except discord.NotFound:  # expired (over 3 s old): nothing to reply to
            log.warning("discord interaction %s expired before it was acknowledged", interaction.id)
            return
        except discord.HTTPException as exc:  # already acknowledged (40060): another replica has it
            log.info("discord interaction %s not deferred: %s", interaction.id, exc)
            return
        if not await self.service.first_time(f"discord:{interaction.id}"):
            return
        lang = self._fallback_lang(interaction)
        try:
            user = await self.user(interaction.user, interaction.locale)
            lang = user.language
            refused = self.service.admit(user, PLATFORM, str(interaction.user.id), every_time=True)
            replies = refused if refused is not None else await work(user)
        except Exception:
            log.exception("discord interaction %s failed", interaction.id)
            replies = [Reply(t(lang, "error"), kind="error")]
        await self.follow_up(interaction, replies, ephemeral)

    async def follow_up(self, interaction: discord.Interaction, replies: Sequence[Reply], ephemeral: bool) -> None:
        """The first message edits the deferred response (the "thinking…" the user saw at once, whatever the work
        took: an LLM grading included) into the result; the rest follow it."""
        parts = [message for reply in replies for message in messages(reply)]
        if parts:
            first = dict(parts[0])
            files = first.pop("files", None)
            try:
                await interaction.edit_original_response(**first, attachments=files or [])
                parts = parts[1:]
            except discord.HTTPException as exc:  # the deferred response is gone (deleted): send it as a follow-up
                log.info("discord interaction %s: original response not edited: %s", interaction.id, exc)
        for message in parts:
            await interaction.followup.send(**message, ephemeral=ephemeral)

    async def in_server(self, interaction: discord.Interaction, work: Work, *, private: bool = True) -> None:
        """Like respond, for commands that only make sense in a server."""

        async def checked(user: User) -> list[Reply]:
            if interaction.guild_id is None:
                return [Reply(t(user.language, "server.only"), kind="error")]
            return await work(user)

        await self.respond(interaction, checked, private=private)

    async def voice(self, user: User, attachment: discord.Attachment, source: str | None) -> list[Reply]:
        """An audio file as an answer. A file over the core's size limit is not even downloaded."""
        limit = self.service.deps.limits.max_audio_bytes
        if attachment.size > limit:
            size = f"{attachment.size / 1_000_000:.1f}"
            return [Reply(t(user.language, "voice_too_big", size=size, limit=limit // 1_000_000), kind="error")]
        audio = await attachment.read()
        return await self.service.handle(
            c.SubmitVoice(user.id, audio, attachment.filename, attachment.duration, source=source)
        )

    async def document(self, user: User, attachment: discord.Attachment) -> list[Reply]:
        """A file as a job description or interview notes; one over the core's limit is not downloaded."""
        limit = self.service.deps.limits.max_document_bytes
        if attachment.size > limit:
            size, most = f"{attachment.size / 1e6:.1f}", f"{limit / 1e6:.0f}"
            return [Reply(t(user.language, "career.file_too_big", size=size, limit=most), kind="error")]
        data = await attachment.read()
        return await self.service.handle(c.UploadDocument(user.id, data, attachment.filename))

    async def direct_message(self, message: discord.Message) -> None:
        """A DM: a voice message or audio file is an answer, another file a document (/jd, /debrief); text is
        handled as typed elsewhere."""
        if not await self.service.first_time(f"discord:message:{message.id}"):
            return
        user = await self.user(message.author)
        refused = self.service.admit(user, PLATFORM, str(message.author.id))
        if refused is not None:
            for reply in refused:
                for part in messages(reply):
                    await message.channel.send(**part)
            return
        audio = next((a for a in message.attachments if is_audio(a)), None)
        try:
            async with message.channel.typing():
                if audio is not None:
                    replies = await self.voice(user, audio, None)
                elif message.attachments:
                    replies = await self.document(user, message.attachments[0])
                else:
                    replies = await self.service.handle_text(user.id, message.content)
        except discord.HTTPException:
            log.exception("discord DM %s failed", message.id)
            replies = [Reply(t(user.language, "error"), kind="error")]
        for reply in replies:
            for part in messages(reply):
                await message.channel.send(**part)
