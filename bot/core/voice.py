"""Voice answers: checked against the limits before any work, transcribed, shown, then graded."""

from __future__ import annotations

import logging

from bot.core import commands as c
from bot.core.deps import Deps
from bot.core.drill import submit_answer
from bot.core.i18n import t
from bot.core.models import User
from bot.core.ports import TranscriptionError
from bot.core.replies import Reply

log = logging.getLogger(__name__)


async def submit_voice(cmd: c.SubmitVoice, deps: Deps, user: User) -> list[Reply]:
    lang, lim = user.language, deps.limits
    if deps.transcriber is None:
        return [Reply(t(lang, "voice_unavailable"), kind="error")]
    session = await deps.store.get_session(user.id)
    if session.get("mode") not in ("answering", "follow_up"):
        return [Reply(t(lang, "no_open_question"))]
    if not cmd.audio:
        return [Reply(t(lang, "voice_empty"), kind="error")]
    if len(cmd.audio) > lim.max_audio_bytes:
        mb = len(cmd.audio) / 1_000_000
        return [Reply(t(lang, "voice_too_big", size=f"{mb:.1f}", limit=lim.max_audio_bytes // 1_000_000), kind="error")]
    if cmd.duration is not None and cmd.duration > lim.max_audio_seconds:
        return [
            Reply(t(lang, "voice_too_long", seconds=round(cmd.duration), limit=lim.max_audio_seconds), kind="error")
        ]
    try:
        transcript = (await deps.transcriber.transcribe(cmd.audio, cmd.filename, lang)).strip()
    except TranscriptionError as exc:
        log.info("transcription failed: %s", exc)
        return [Reply(t(lang, "voice_unreadable"), kind="error")]
    if not transcript:
        return [Reply(t(lang, "voice_silent"), kind="error")]
    shown = Reply(t(lang, "transcript", text=transcript), kind="transcript")
    graded = await submit_answer(
        c.SubmitAnswer(user.id, transcript, transcript=transcript, audio_ref=cmd.filename, audio_seconds=cmd.duration),
        deps,
        user,
    )
    return [shown, *graded]
