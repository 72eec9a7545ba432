"""Study servers: a chat server (a Discord guild) gets one question of the day in a channel, its
members answer it privately, and the points they earn there make the server's leaderboard.

Points: each member's best grade score on each question of the day they answered through the
server's post, counted once (ten answers to one question score as the best of them). Only the
question of the day scores (today's or yesterday's): not an older day's, not a question from the
member's own deck answered with /answer in the server, and never a personal question. Such
answers carry `board_source` as their attempt source; weeks start on Monday and months on the
1st, in the server's timezone.
"""

from __future__ import annotations

import dataclasses
import zlib
from datetime import UTC, date, datetime, time, timedelta

from bot.features.drill import drill
from bot.features.onboarding.zones import resolve_timezone, suggest_timezone
from bot.kernel import commands as c
from bot.kernel import render, srs
from bot.kernel.actions import AnswerDaily
from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.identity import server_source as server_source  # re-exported: where it was, for its callers
from bot.kernel.limits import Limits
from bot.kernel.lookups import Dates
from bot.kernel.models import Guild, Lang, Question, User
from bot.kernel.ports import BOARD_SUFFIX, Clock
from bot.kernel.push_rules import register_server_post
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Answering, Idle
from bot.kernel.store_ports import GuildsPort, UsersPort
from bot.kernel.timeutil import local_date, zone

BOARD_SIZE = 10
DEFAULT_TIME = "09:00"


def board_source(platform: str, server_id: str) -> str:
    """The attempt source of answers to the server's question of the day: the only ones its board counts."""
    return f"{server_source(platform, server_id)}{BOARD_SUFFIX}"


def daily_question(bank: Bank, server_id: str, day: date) -> Question | None:
    """The server's question for a local day: a fixed shuffle of the bank per server, one a day,
    so every question comes once before any comes again."""
    questions = sorted(bank.all(), key=lambda q: (zlib.crc32(f"{server_id}:{q.id}".encode()), q.id))
    return questions[day.toordinal() % len(questions)] if questions else None


def daily_post(guild: Guild, now: datetime, bank: Bank) -> Reply | None:
    """The message the scheduler posts in the server's channel: today's question and an Answer button."""
    day = local_date(now, guild.timezone)
    q = daily_question(bank, guild.id, day)
    if q is None:
        return None
    lang = guild.language
    text = "\n".join(
        [
            t(lang, "server.daily", date=day.isoformat()),
            render.question_text(q, lang, ""),  # no tag
            "",
            t(lang, "server.daily_hint"),
        ]
    )
    return Reply(text, [[Button(t(lang, "btn.answer"), AnswerDaily(question=q.id).encode())]], kind="daily")


async def setup_server(cmd: c.SetupServer, user: User, guilds: GuildsPort, clock: Clock, dates: Dates) -> list[Reply]:
    lang = user.language
    if not cmd.manager:
        return [Reply(t(lang, "server.setup_denied"), kind="error")]
    existing = await guilds.get_guild(cmd.server_id)
    daily_time = (
        dates.clock(cmd.daily_time, clock.now())
        if cmd.daily_time.strip()
        else (existing.daily_time if existing else DEFAULT_TIME)
    )
    if not daily_time:
        return [Reply(t(lang, "bad_time", value=cmd.daily_time[:32]), kind="error")]
    tz_name = cmd.timezone.strip() or (existing.timezone if existing else user.timezone)
    tz = resolve_timezone(tz_name)
    if tz is None:
        suggestion = suggest_timezone(tz_name)
        if suggestion is not None:
            return [Reply(t(lang, "bad_timezone.suggest", value=tz_name[:64], suggestion=suggestion), kind="error")]
        return [Reply(t(lang, "bad_timezone", value=tz_name[:64]), kind="error")]
    language: Lang = existing.language if existing else user.language
    if cmd.language.strip():
        if cmd.language.strip().lower() not in ("zh", "en"):
            return [Reply(t(lang, "bad_lang"), kind="error")]
        language = "zh" if cmd.language.strip().lower() == "zh" else "en"
    guild = Guild(
        id=cmd.server_id,
        channel_id=cmd.channel_id,
        daily_time=daily_time,
        timezone=tz,
        language=language,
        enabled=cmd.enabled,
        created_at=existing.created_at if existing else clock.now(),
    )
    await guilds.save_guild(guild)
    if not cmd.enabled:
        return [Reply(t(lang, "server.setup_off"))]
    shown = t(lang, f"lang.own.{language}")
    return [
        Reply(t(lang, "server.setup_done", channel=cmd.channel_label, time=daily_time, timezone=tz, language=shown))
    ]


async def answer_server_question(
    cmd: c.AnswerServerQuestion, user: User, answers: drill.Answers, guilds: GuildsPort, bank: Bank
) -> list[Reply]:
    """Grade the answer against the member's own card for the question (created if new), without
    losing a question they had open elsewhere."""
    users, cards, now = answers.users, answers.cards, answers.clock.now()
    q = bank.get(cmd.question_id)
    if q is None:
        return [Reply(t(user.language, "server.question_gone"), kind="error")]
    card = await cards.card_for_question(user.id, q.id)
    if card is None:
        card = await cards.create_card(user.id, q.id, srs.new_state(now), now, False, now)
    before = await users.get_session(user.id)
    await users.set_session(user.id, Answering(card_id=card.id))
    scores = await _is_current_daily(guilds, bank, cmd.server_id, q, now)
    source = (board_source if scores else server_source)(cmd.platform, cmd.server_id)
    replies = await drill.submit_answer(c.SubmitAnswer(user.id, cmd.text, source=source), answers, user)
    rejected = isinstance(await users.get_session(user.id), Answering)
    was_busy = not isinstance(before, Idle)
    same_question = before == Answering(card_id=card.id)
    if rejected or (was_busy and not same_question):
        await users.set_session(user.id, before)  # undo a rejected answer, or reopen what was open
    if not scores and replies and replies[0].kind == "grade":
        note = t(user.language, "server.not_scored")
        replies = [dataclasses.replace(replies[0], text=f"{replies[0].text}\n{note}"), *replies[1:]]
    return replies


async def _is_current_daily(guilds: GuildsPort, bank: Bank, server_id: str, q: Question, now: datetime) -> bool:
    """True when `q` is the server's question of today or yesterday (its local days): yesterday's post is the
    latest one up until today's time, and an answer begun late in the evening should still count. Older
    questions, and every question of a server that was never set up, do not score."""
    guild = await guilds.get_guild(server_id)
    if guild is None or q.personal:
        return False
    today = local_date(now, guild.timezone)
    for day in (today, today - timedelta(days=1)):
        daily = daily_question(bank, guild.id, day)
        if daily is not None and daily.id == q.id:
            return True
    return False


def _week_start(now: datetime, tz: str) -> datetime:
    z = zone(tz) or UTC
    day = now.astimezone(z).date()
    return datetime.combine(day - timedelta(days=day.weekday()), time(0, 0), tzinfo=z).astimezone(UTC)


def _month_start(now: datetime, tz: str) -> datetime:
    z = zone(tz) or UTC
    day = now.astimezone(z).date().replace(day=1)
    return datetime.combine(day, time(0, 0), tzinfo=z).astimezone(UTC)


async def _member(users: UsersPort, user_id: int, cmd: c.ShowLeaderboard, lang: Lang) -> str:
    ids = dict(await users.identities(user_id))
    external = ids.get(cmd.platform)
    return cmd.mention.replace("{id}", external) if external else t(lang, "board.someone")


async def show_leaderboard(
    cmd: c.ShowLeaderboard, user: User, guilds: GuildsPort, users: UsersPort, clock: Clock, limits: Limits
) -> list[Reply]:
    lang, now = user.language, clock.now()
    guild = await guilds.get_guild(cmd.server_id)
    tz = guild.timezone if guild else limits.default_timezone
    source = board_source(cmd.platform, cmd.server_id)
    lines: list[str] = []
    for key, since in (("board.week", _week_start(now, tz)), ("board.month", _month_start(now, tz))):
        if lines:
            lines.append("")
        lines.append(t(lang, key, since=local_date(since, tz).isoformat()))
        rows = await guilds.leaderboard(source, since, BOARD_SIZE)
        if not rows:
            lines.append(t(lang, "board.empty"))
        for rank, (uid, points, answers) in enumerate(rows, 1):
            name = await _member(users, uid, cmd, lang)
            earned = tn(lang, "count.point", points)
            lines.append(t(lang, "board.line", rank=rank, name=name, earned=earned, answers=answers))
    return [Reply("\n".join(lines), kind="leaderboard")]


register_server_post(daily_post)
