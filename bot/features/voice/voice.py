"""Voice answers: checked against the limits before any work, transcribed, shown, then graded.

Order matters: the cheap checks (size, the platform's duration) come first, then the transcriber
measures the audio (which also tells "not audio" apart) and the seconds are checked against the account's
and the global transcription budgets before the expensive transcription. The
transcript is shown before the grade so the user sees what was heard, and speaking insights (pace,
filler words) are added to the grade.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import replace
from datetime import datetime

from bot.features.drill.speaking import analyse, render_insights
from bot.kernel import commands as c
from bot.kernel.i18n import t, tn
from bot.kernel.identity import ROLLING_DAY
from bot.kernel.limits import Limits
from bot.kernel.models import Lang, User
from bot.kernel.ports import (
    AudioTimingMismatch,
    AudioTooLong,
    Clock,
    Transcriber,
    TranscriberUnavailable,
    TranscriptionError,
)
from bot.kernel.replies import Reply
from bot.kernel.routing import Dispatch
from bot.kernel.session import InCareer, InMock, Session, open_card_id
from bot.kernel.store_ports import LLMBudgetPort
from bot.kernel.text_input import clean_text
from bot.kernel.timeutil import start_of_local_day

log = logging.getLogger(__name__)
VOICE_STEPS = frozenset({("notes", "write")})  # career tool steps (tool, step) that take a spoken text


def _too_long(seconds: float, lang: Lang, lim: Limits) -> Reply:
    return Reply(t(lang, "voice_too_long", limit_seconds=tn(lang, "count.second", lim.max_audio_seconds)), kind="error")


def _length(lang: Lang, seconds: float, *, up: bool) -> str:
    """A duration in words, in whole seconds (rounded up, or down for what is left); whole minutes from two on."""
    n = math.ceil(seconds) if up else math.floor(seconds)
    if n >= 120 and n % 60 == 0:
        return tn(lang, "count.minute", n // 60)
    return tn(lang, "count.second", n)


async def _over_budget(usage: LLMBudgetPort, lim: Limits, now: datetime, user: User, seconds: float) -> Reply | None:
    """The refusal when transcribing `seconds` more would pass the account's 24 hours or today's global budget
    (both kept per platform account through /forget, as the LLM budget is: bot/kernel/identity.py)."""
    lang = user.language
    if lim.transcribe_daily_seconds:
        used = await usage.transcribed_seconds_since(user.id, now - ROLLING_DAY)
        if used + seconds > lim.transcribe_daily_seconds:
            left = max(lim.transcribe_daily_seconds - used, 0.0)
            text = t(lang, "voice_limit", length=_length(lang, seconds, up=True),
                     limit=_length(lang, lim.transcribe_daily_seconds, up=False), left=_length(lang, left, up=False))  # fmt: skip
            return Reply(text, kind="error")
    if lim.transcribe_daily_total:
        used = await usage.all_transcribed_seconds_since(start_of_local_day(now, "UTC"))
        if used + seconds > lim.transcribe_daily_total:
            return Reply(t(lang, "voice_budget"), kind="error")
    return None


async def submit_voice(
    cmd: c.SubmitVoice,
    user: User,
    session: Session,
    transcriber: Transcriber | None,
    usage: LLMBudgetPort,
    clock: Clock,
    limits: Limits,
    dispatch: Dispatch,
) -> list[Reply]:
    """Transcribed, then handed on as the answer it is (`dispatch`): to the open deck question or the mock's (an
    explicit answer, c.SubmitAnswer, with the audio's reference and length), or as the text a notebook step waits
    for (c.FreeText)."""
    lang, lim = user.language, limits
    if transcriber is None:
        return [Reply(t(lang, "voice_unavailable"), kind="error")]
    in_mock = isinstance(session, InMock)  # a mock interview's answer: graded quietly by mock_turn
    writing = isinstance(session, InCareer) and (session.tool, session.step) in VOICE_STEPS
    if open_card_id(session) is None and not in_mock and not writing:
        return [Reply(t(lang, "no_open_question"))]
    if not cmd.audio:
        return [Reply(t(lang, "voice_empty"), kind="error")]
    if len(cmd.audio) > lim.max_audio_bytes:
        mb = len(cmd.audio) / 1_000_000
        return [Reply(t(lang, "voice_too_big", size=f"{mb:.1f}", limit=lim.max_audio_bytes // 1_000_000), kind="error")]
    if cmd.duration is not None and cmd.duration > lim.max_audio_seconds:
        return [_too_long(cmd.duration, lang, lim)]
    try:
        seconds = await transcriber.measure(cmd.audio, cmd.filename)
    except AudioTimingMismatch as exc:
        log.info("audio %r misstates its length: %s", cmd.filename, exc)
        return [Reply(t(lang, "voice_timing"), kind="error")]
    except TranscriptionError as exc:
        log.info("unreadable audio %r: %s", cmd.filename, exc)
        return [Reply(t(lang, "voice_unreadable"), kind="error")]
    if seconds > lim.max_audio_seconds:
        return [_too_long(seconds, lang, lim)]
    if seconds <= 0:
        return [Reply(t(lang, "voice_empty"), kind="error")]
    over = await _over_budget(usage, lim, clock.now(), user, seconds)
    if over is not None:
        return [over]
    await usage.record_transcription(user.id, seconds, clock.now())  # billed whether or not it succeeds
    try:
        async with asyncio.timeout(lim.transcribe_deadline):
            result = await transcriber.transcribe(cmd.audio, cmd.filename, lang)
    except AudioTooLong:  # measured within the limit, decoded past it
        return [_too_long(lim.max_audio_seconds + 1, lang, lim)]
    except (TranscriberUnavailable, TimeoutError) as exc:
        log.warning("transcriber %s failed: %s", transcriber.id, type(exc).__name__)
        return [Reply(t(lang, "voice_service_down"), kind="error")]
    except TranscriptionError as exc:
        log.info("transcription of %r failed: %s", cmd.filename, exc)
        return [Reply(t(lang, "voice_unreadable"), kind="error")]
    transcript = clean_text(result.text).strip()  # a transcript is user text too: same edge rules as typed text
    if not transcript:
        return [Reply(t(lang, "voice_silent"), kind="error")]
    duration = result.duration or seconds
    if duration > seconds:  # the backend heard more than was measured: that counts too
        await usage.record_transcription(user.id, duration - seconds, clock.now())
    shown = Reply(t(lang, "transcript", text=transcript), kind="transcript")
    if writing:  # a notebook version spoken: the tool takes the transcript as typed text
        return [shown, *await dispatch(c.FreeText(user.id, transcript), user, session)]
    spoken = c.SubmitAnswer(
        user.id, transcript, transcript=transcript, audio_ref=cmd.filename, audio_seconds=duration, source=cmd.source
    )
    graded = await dispatch(spoken, user, session)  # the mock's open question while one runs, else the drill's
    insights = analyse(transcript, duration)
    if insights is None:
        return [shown, *graded]
    return [shown, *with_insights(graded, render_insights(insights, lang))]


def with_insights(replies: list[Reply], insights: str) -> list[Reply]:
    """Append the insights to the grade reply (none when the answer was not graded)."""
    return [replace(r, text=r.text + "\n\n" + insights) if r.kind == "grade" else r for r in replies]
