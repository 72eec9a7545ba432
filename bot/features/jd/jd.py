"""/jd: tailor the practice to a job description. The user pastes one (or sends a file); it is read
(bot/features/jd/read.py), kept, and on the user's choice focuses the practice for some days: /drill, the
daily push and /mock then favour its subtopics (they read `store.active_jd`). Several are kept, one is
active at a time; /jd off ends the focus.

Commands (words in both languages): /jd (list and ask to paste), /jd <text>, /jd list, /jd N (what was read
from N), /jd use N [days],
/jd delete N, /jd off. N is the number in /jd list (oldest first); buttons carry the stored id, checked
against the user on every press."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.features.career.models import JobDescription
from bot.features.career.tool import Tool
from bot.features.jd import read as jd_read
from bot.features.jd.read import Jobs
from bot.kernel import actions
from bot.kernel.i18n import listing, t, tn
from bot.kernel.models import Lang, User
from bot.kernel.render import subtopic_name
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Idle, InCareer
from bot.kernel.timeutil import fmt_local

DEFAULT_DAYS = 14  # /jd use N without a number of days
MAX_DAYS = 90
OFF = {"off", "stop", "clear", "关闭", "取消", "停止"}
LIST = {"list", "ls", "列表", "列出"}
USE = {"use", "on", "activate", "使用", "启用"}
DELETE = {"delete", "del", "remove", "rm", "删除"}
MAX_COMMAND_WORDS = 3  # "use 2 14": longer text after /jd is a job description, whatever its first word


async def command(args: str, jobs: Jobs, user: User) -> list[Reply]:
    words = args.split()
    head = words[0].casefold() if words else ""
    if not words:
        return await _overview(jobs, user)
    if len(words) <= MAX_COMMAND_WORDS and head in OFF | LIST | USE | DELETE:
        return await _subcommand(head, words[1:], jobs, user)
    if len(words) == 1 and head.isascii() and head.isdigit():
        return [await _show(int(head), jobs, user)]
    return await read(args, jobs, user)


async def _show(n: int, jobs: Jobs, user: User) -> Reply:
    """`/jd N`: everything read from job description N, as when it was read, with its focus buttons."""
    jd = await _numbered(n, jobs, user)
    if jd is None:
        return Reply(t(user.language, "jd.not_found", n=n), kind="error")
    reading = jd_read.Reading(jd.skills, jd.subtopics, jd.uncovered, extractor=jd.extractor, mentioned=jd.mentioned)
    return await jd_read.reading_reply(jd, n, reading, jobs, user)


async def _subcommand(head: str, rest: list[str], jobs: Jobs, user: User) -> list[Reply]:
    lang = user.language
    if head in OFF and not rest:
        return [await _off(jobs, user)]
    if head in LIST and not rest:
        return [Reply(await _listing(jobs, user) or t(lang, "jd.none_kept"))]
    if head in USE and 1 <= len(rest) <= 2 and all(w.isdigit() for w in rest):
        days = int(rest[1]) if len(rest) == 2 else DEFAULT_DAYS
        return [await _use(int(rest[0]), days, jobs, user)]
    if head in DELETE and len(rest) == 1 and rest[0].isdigit():
        return [await _delete(int(rest[0]), jobs, user)]
    return [Reply(t(lang, "usage", usage=t(lang, "jd.usage")), kind="error")]


async def action(arg: str, jobs: Jobs, user: User) -> list[Reply]:
    """`cancel` (while waiting for a paste) or `on:<id>:<days>` (focus on a JD just read)."""
    lang = user.language
    parts = arg.split(":")
    if parts == ["cancel"]:
        state = await jobs.users.get_session(user.id)
        if isinstance(state, InCareer) and state.tool == "jd":
            await jobs.users.set_session(user.id, Idle())
            return [Reply(t(lang, "jd.cancelled"))]
        return [Reply(t(lang, "career.expired"))]
    if len(parts) == 3 and parts[0] == "on" and parts[1].isdigit() and parts[2].isdigit():
        jd = await jobs.jds.get_jd(int(parts[1]))
        if jd is None or jd.user_id != user.id:
            return [Reply(t(lang, "jd.gone"), kind="error")]
        return [await _activate(jd, int(parts[2]), jobs, user)]
    return [Reply(t(lang, "career.expired"))]


async def text(value: str, jobs: Jobs, user: User, state: InCareer) -> list[Reply]:
    """The pasted (step "paste") or sent (step "file") job description."""
    await jobs.users.set_session(user.id, Idle())
    if state.step not in ("paste", "file"):
        return [Reply(t(user.language, "career.expired"))]
    return await read(value, jobs, user)


async def read(value: str, jobs: Jobs, user: User) -> list[Reply]:
    """Read, keep and show one job description, within the limits (its length, how many a user keeps)."""
    lang, limit = user.language, jobs.limits.max_document_chars
    body = value.strip()
    if not body:
        return [Reply(t(lang, "jd.empty"), kind="error")]
    if len(body) > limit:
        return [Reply(t(lang, "career.file_too_long", length=len(body), limit=limit), kind="error")]
    kept = await jobs.jds.list_jds(user.id)
    if len(kept) >= jd_read.MAX_JDS:
        return [Reply(t(lang, "jd.too_many", most=jd_read.MAX_JDS), kind="error")]
    reading = await jd_read.read(body, jobs, user)
    if not reading.subtopics and not reading.questions:
        notes = [t(lang, reading.note)] if reading.note else []
        if reading.uncovered:
            found = t(lang, "jd.no_skills_uncovered", skills=jd_read.skills_listing(lang, reading.uncovered))
            return [Reply("\n".join([*notes, found]))]
        return [Reply("\n".join([*notes, t(lang, "jd.no_skills")]), kind="error")]
    jd = await jd_read.keep(body, reading, jobs, user)
    return [await jd_read.reading_reply(jd, len(kept) + 1, reading, jobs, user)]


async def _overview(jobs: Jobs, user: User) -> list[Reply]:
    """The kept job descriptions, then the request to paste one (the session waits for it)."""
    lang = user.language
    await jobs.users.set_session(user.id, InCareer(tool="jd", step="paste"))
    kept = await _listing(jobs, user)
    body = (kept + "\n\n" if kept else "") + t(lang, "jd.paste")
    return [
        Reply(body, [[Button(t(lang, "btn.cancel"), actions.Career(tool="jd", arg="cancel").encode())]], ask_text=True)
    ]


async def _listing(jobs: Jobs, user: User) -> str:
    """The user's job descriptions, numbered, the active one with its end date; empty when there are none."""
    lang, now = user.language, jobs.clock.now()
    jds = await jobs.jds.list_jds(user.id)
    if not jds:
        return ""
    active = await jobs.jds.active_jd(user.id, now)
    lines = [t(lang, "jd.kept_header")]
    for n, jd in enumerate(jds, 1):
        line = t(lang, "jd.kept_line", n=n, title=jd.title, subtopics=_names(jd, lang))
        if jd.mentioned:
            more = tn(lang, "count.subtopic", len(jd.mentioned))
            line += t(lang, "jd.kept_mentioned", subtopics=more, n=n)
        if active is not None and active.id == jd.id and jd.active_until is not None:
            line += t(lang, "jd.active_mark", until=_day(jd.active_until, user))
        lines.append(line)
    return "\n".join([*lines, "", t(lang, "jd.list_hint")])


def _names(jd: JobDescription, lang: Lang) -> str:
    """The focus subtopics, all of them (at most 6)."""
    return listing(lang, [subtopic_name(s, lang) for s in jd.subtopics]) or "-"


def _day(moment: datetime, user: User) -> str:
    """The user's local date of `moment`."""
    return fmt_local(moment, user.timezone)[:10]


async def _numbered(n: int, jobs: Jobs, user: User) -> JobDescription | None:
    jds = await jobs.jds.list_jds(user.id)
    return jds[n - 1] if 1 <= n <= len(jds) else None


async def _use(n: int, days: int, jobs: Jobs, user: User) -> Reply:
    jd = await _numbered(n, jobs, user)
    if jd is None:
        return Reply(t(user.language, "jd.not_found", n=n), kind="error")
    return await _activate(jd, days, jobs, user)


async def _activate(jd: JobDescription, days: int, jobs: Jobs, user: User) -> Reply:
    lang = user.language
    if not 1 <= days <= MAX_DAYS:
        return Reply(t(lang, "jd.bad_days", most=MAX_DAYS), kind="error")
    until = jobs.clock.now() + timedelta(days=days)
    if not await jobs.jds.activate_jd(user.id, jd.id, until):
        return Reply(t(lang, "jd.gone"), kind="error")
    names = listing(lang, [subtopic_name(s, lang) for s in jd.subtopics]) or "-"
    return Reply(t(lang, "jd.focus_set", title=jd.title, until=_day(until, user), subtopics=names))


async def _off(jobs: Jobs, user: User) -> Reply:
    lang = user.language
    active = await jobs.jds.active_jd(user.id, jobs.clock.now())
    await jobs.jds.activate_jd(user.id, None, None)
    if active is None:
        return Reply(t(lang, "jd.off_none"))
    return Reply(t(lang, "jd.off", title=active.title))


async def _delete(n: int, jobs: Jobs, user: User) -> Reply:
    lang = user.language
    jd = await _numbered(n, jobs, user)
    if jd is None:
        return Reply(t(lang, "jd.not_found", n=n), kind="error")
    active = await jobs.jds.active_jd(user.id, jobs.clock.now())
    if not await jobs.jds.delete_jd(user.id, jd.id):
        return Reply(t(lang, "jd.not_found", n=n), kind="error")
    key = "jd.deleted_active" if active is not None and active.id == jd.id else "jd.deleted"
    return Reply(t(lang, key, n=n, title=jd.title))


TOOL = Tool(command, action, text, file_label="career.file_for.jd")
