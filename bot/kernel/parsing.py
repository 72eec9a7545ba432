"""Turn a typed line or a button action into a Command. Shared by every platform."""

from __future__ import annotations

import re

from bot.kernel import commands as c

MERGE_ARROW = re.compile(r"->|=>|→|=|＝")  # /company OLD = NEW (also ＝, -> and →)

SETTING_ALIASES = {
    "tz": "timezone",
    "timezone": "timezone",
    "时区": "timezone",
    "time": "daily_time",
    "daily_time": "daily_time",
    "时间": "daily_time",
    "level": "level",
    "级别": "level",
    "topics": "topics",
    "topic": "topics",
    "主题": "topics",
    "new": "new_per_day",
    "new_per_day": "new_per_day",
    "新题": "new_per_day",
    "dm": "dm_opt_in",
    "私信": "dm_opt_in",
    "quiet": "quiet_hours",
    "免打扰": "quiet_hours",
    "weekly": "weekly_day",
    "周报": "weekly_day",
    "lang": "language",
    "language": "language",
    "语言": "language",
}

CAREER_TOOLS = {
    "jd": "jd", "notes": "notes", "note": "notes", "notebook": "notes",
    "apps": "apps", "app": "apps", "board": "apps", "debrief": "debrief",
}  # fmt: skip


CHINESE_NAMES: dict[str, str] = {
    "开始": "start", "帮助": "help", "练习": "drill", "下一题": "next", "跳过": "skip",
    "答案": "reveal", "参考答案": "reveal", "统计": "stats", "删除数据": "forget", "导出": "export",
    "暂停": "pause", "暂停推送": "pause", "恢复": "resume", "恢复推送": "resume",
    "模拟面试": "mock", "模拟": "mock", "记题": "review", "面试题": "review", "面试": "interview",
    "复盘": "debrief", "面经": "debrief", "职位": "jd", "职位描述": "jd", "岗位": "jd",
    "笔记": "notes", "答案本": "notes", "投递": "apps", "投递看板": "apps", "公司": "company",
    "设置": "settings", "语言": "lang", "隐私": "privacy",
}  # fmt: skip
"""Every typed command's Chinese names (the first of each is the one /help lists): `/帮助` is `/help`. Discord's
Chinese slash-command names are among them, except 复盘, which typed is /debrief (Discord's /review is named 复盘)."""


def command_name(head: str) -> str:
    """The English name of a typed command: `/Help@bot` -> help, `/帮助` -> help; an unknown name as it is."""
    name = head[1:].split("@", 1)[0].lower()
    return CHINESE_NAMES.get(name, name)


def split_fields(text: str) -> list[str]:
    """Split `a | b | c` (also the full-width ｜) into stripped fields."""
    return [p.strip() for p in text.replace("｜", "|").split("|")]


def parse_line(user_id: int, line: str) -> c.Command:
    text = line.strip()
    if not text.startswith("/"):
        return c.FreeText(user_id, line)
    head, *tail = text.split(None, 1)  # the command ends at a space or a line break ("/jd\n<pasted text>")
    name = command_name(head)
    rest = tail[0].strip() if tail else ""
    simple: dict[str, type[c.Command]] = {
        "start": c.StartUser,
        "help": c.ShowHelp,
        "drill": c.NextQuestion,
        "next": c.NextQuestion,
        "skip": c.SkipQuestion,
        "stats": c.ShowStats,
        "forget": c.Forget,
        "export": c.ExportData,
        "privacy": c.ShowPrivacy,
    }
    if name in simple:
        return simple[name](user_id)
    if name in ("pause", "resume"):
        return c.SetPaused(user_id, name == "pause")
    if name == "mock":
        return c.MockCommand(user_id, rest)
    if name in CAREER_TOOLS:
        return c.CareerCommand(user_id, CAREER_TOOLS[name], rest)
    if name == "reveal":
        return c.RevealReference(user_id)
    if name == "lang":
        if not rest:
            return c.Invalid(user_id, "usage", name, "usage.lang")
        return c.ChangeSetting(user_id, "language", rest)
    if name == "settings":
        if not rest:
            return c.ShowSettings(user_id)
        key, _, value = rest.partition(" ")
        setting = SETTING_ALIASES.get(key.lower())
        if setting is None:
            return c.Invalid(user_id, "usage", name, "usage.settings")
        if not value.strip():  # `/settings time`: how to give that one
            return c.Invalid(user_id, "usage", name, f"usage.setting.{setting}")
        return c.ChangeSetting(user_id, setting, value.strip())
    if name in ("company", "companies"):
        if not rest:
            return c.ShowCompanies(user_id)
        parts = MERGE_ARROW.split(rest, maxsplit=1)
        if len(parts) != 2:
            return c.Invalid(user_id, "usage", name, "company.usage")
        return c.MergeCompanies(user_id, parts[0].strip(), parts[1].strip())
    if name in ("review", "interview") and not rest:
        return c.StartFlow(user_id, name)
    if name == "review":
        fields = split_fields(rest) if rest else []
        if len(fields) < 2:
            return c.Invalid(user_id, "usage", name, "review.usage")
        return c.LogReview(user_id, fields[0], fields[1], " | ".join(fields[2:]))
    if name == "interview":
        fields = split_fields(rest) if rest else []
        if len(fields) == 2:
            return c.LogInterview(user_id, fields[0], "", fields[1])
        if len(fields) != 3:
            return c.Invalid(user_id, "usage", name, "interview.usage")
        return c.LogInterview(user_id, fields[0], fields[1], fields[2])
    return c.Invalid(user_id, "unknown", head.split("@", 1)[0])


MAX_ID = 2**63 - 1  # a database id: larger numbers are no id (and overflow a BIGINT)


def _id(text: str) -> int:
    """A non-negative id from a button, or ValueError."""
    value = int(text)
    if not 0 <= value <= MAX_ID:
        raise ValueError(text)
    return value


def parse_action(user_id: int, action: str) -> c.Command:
    """Button actions: `verb` or `verb:arg[:arg]` (see the Button constructors in the service)."""
    verb, _, arg = action.partition(":")
    try:
        if verb == "next":
            return c.NextQuestion(user_id)
        if verb == "skip":
            return c.SkipQuestion(user_id)
        if verb == "ref":
            return c.RevealReference(user_id, _id(arg) if arg else None)
        if verb == "fu":
            return c.StartFollowUp(user_id, _id(arg))
        if verb == "tick":
            attempt, _, index = arg.partition(":")
            return c.TickPoint(user_id, _id(attempt), _id(index))
        if verb == "dis":
            return c.Disagree(user_id, _id(arg))
        if verb == "look":
            return c.SecondLook(user_id, _id(arg))
        if verb == "rate":
            attempt, _, rating = arg.partition(":")
            return c.OverrideRating(user_id, _id(attempt), int(rating))
        if verb == "set":
            name, _, value = arg.partition(":")
            return c.ChangeSetting(user_id, name, value)
        if verb == "forget":
            return c.ConfirmForget(user_id, arg == "yes")
        if verb == "rv":
            return c.PickReview(user_id, None if arg == "none" else _id(arg))
        if verb == "mk" and arg:
            return c.MockCommand(user_id, arg)
        if verb == "cr" and arg:
            tool, _, rest = arg.partition(":")
            return c.CareerAction(user_id, tool, rest)
        if verb == "flow" and arg in ("skip", "ok", "cancel"):
            return c.FlowAction(user_id, arg)
    except ValueError:
        pass
    return c.Invalid(user_id, "unknown", action)
