"""Onboarding and settings: language, level, topics, timezone, daily time, new questions per day."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.features.onboarding.zones import resolve_timezone, suggest_timezone
from bot.kernel import actions
from bot.kernel import commands as c
from bot.kernel.i18n import listing, t, tn
from bot.kernel.lookups import Dates
from bot.kernel.models import LEVEL_WORDS, LEVELS, MAX_NEW_PER_DAY, TOPICS, Lang, User
from bot.kernel.ports import Clock
from bot.kernel.registry import help_text
from bot.kernel.replies import Button, Reply
from bot.kernel.routing import Dispatch
from bot.kernel.session import Idle, Onboarding, OnboardStep
from bot.kernel.store_ports import UsersPort
from bot.kernel.timeutil import parse_hhmm

WEEKDAYS = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "zh": ["周一", "周二", "周三", "周四", "周五", "周六", "周日"],
}

COMMON_ZONES = ("Asia/Shanghai", "Asia/Singapore", "Europe/London", "America/New_York", "America/Los_Angeles")
TOPIC_WORDS = {
    "stability": ["stability"],
    "稳定性": ["stability"],
    "pipeline": ["pipeline"],
    "流程": ["pipeline"],
    "训练流程": ["pipeline"],
    "both": list(TOPICS),
    "all": list(TOPICS),
    "都要": list(TOPICS),
    "全部": list(TOPICS),
}
STEPS: tuple[OnboardStep, ...] = ("language", "level", "topics", "timezone", "daily_time")
PUSH_SETTINGS = ("daily_time", "weekly_day")  # saving one of these promises a push at a time
SWITCH_WORDS = {
    **dict.fromkeys(("on", "yes", "true", "开", "开启"), True),
    **dict.fromkeys(("off", "no", "false", "关", "关闭"), False),
}


def _ask(step: str, lang: Lang) -> Reply:
    if step == "language":
        return Reply(
            t(lang, "welcome"),
            [
                [
                    Button(t(lang, "lang.own.en"), actions.Setting(name="language", value="en").encode()),
                    Button(t(lang, "lang.own.zh"), actions.Setting(name="language", value="zh").encode()),
                ]
            ],
        )
    if step == "level":
        return Reply(
            t(lang, "ask_level"),
            [[Button(t(lang, f"level.{lv}"), actions.Setting(name="level", value=lv).encode()) for lv in LEVELS]],
        )
    if step == "topics":
        row = [
            Button(t(lang, f"topic.{k}"), actions.Setting(name="topics", value=k).encode()) for k in (*TOPICS, "both")
        ]
        return Reply(t(lang, "ask_topics"), [row])
    if step == "timezone":
        rows = [[Button(z, actions.Setting(name="timezone", value=z).encode())] for z in COMMON_ZONES]
        return Reply(t(lang, "ask_timezone"), rows, ask_text=True)
    times = ("08:00", "12:30", "21:00")
    return Reply(
        t(lang, "ask_daily_time"),
        [[Button(x, actions.Setting(name="daily_time", value=x).encode()) for x in times]],
        ask_text=True,
    )


def summary(user: User) -> dict[str, Any]:
    lang = user.language
    return {
        "language": t(lang, f"lang.{lang}"),
        "timezone": user.timezone,
        "daily_time": user.daily_time,
        "level": t(lang, f"level.{user.level}"),
        "topics": listing(lang, (t(lang, f"topic.{x}") for x in user.topics)),
        "new_per_day": user.new_per_day,
        "new": tn(lang, "count.new_question", user.new_per_day),
        "paused": t(lang, "paused.yes" if user.paused else "paused.no"),
        "quiet": f"{user.quiet_start}-{user.quiet_end}" if user.quiet_start and user.quiet_end else "-",
        "weekly": WEEKDAYS[lang][user.weekly_day] if user.weekly_day is not None else "-",
    }


async def start(cmd: c.StartUser, user: User, users: UsersPort) -> list[Reply]:
    await users.set_session(user.id, Onboarding(step="language"))
    return [_ask("language", user.language)]


async def show_help(cmd: c.ShowHelp, user: User) -> list[Reply]:
    return [Reply(help_text(user.language))]  # each command's lines, from the registry


async def show_settings(cmd: c.ShowSettings, user: User) -> list[Reply]:
    return [Reply(t(user.language, "settings", **summary(user)))]


def _saved(lang: Lang, name: str, shown: str) -> str:
    """ "Saved" with the setting's display name and its value as the user reads it (never a field name)."""
    return t(lang, "setting_saved", name=t(lang, f"setting.{name}"), value=shown)


ReadClock = Callable[[str], str | None]


def apply_setting(user: User, name: str, raw: str, read_clock: ReadClock = parse_hhmm) -> tuple[User | None, str]:
    """Validate and apply one setting; returns the new user, or None with an error message. `read_clock`
    reads a time of day (`Dates.clock`, bot/kernel/lookups.py: "08:30", "8pm", "早上八点") as 'HH:MM'."""
    lang = user.language
    value = raw.strip()
    if name == "language":
        if value.lower() not in ("zh", "en", "中文", "english"):
            return None, t(lang, "bad_lang")
        new_lang: Lang = "zh" if value.lower() in ("zh", "中文") else "en"
        return user.model_copy(update={"language": new_lang}), t(new_lang, "lang_set")
    if name == "timezone":
        tz = resolve_timezone(value)
        if tz is None:
            suggestion = suggest_timezone(value)
            if suggestion is not None:
                return None, t(lang, "bad_timezone.suggest", value=value[:64], suggestion=suggestion)
            return None, t(lang, "bad_timezone", value=value[:64])
        return user.model_copy(update={"timezone": tz}), _saved(lang, name, tz)
    if name == "daily_time":
        hhmm = read_clock(value)
        if hhmm is None:
            return None, t(lang, "bad_time", value=value[:32])
        return user.model_copy(update={"daily_time": hhmm}), _saved(lang, name, hhmm)
    if name == "level":
        level = LEVEL_WORDS.get(" ".join(value.lower().split()))
        if level is None:
            return None, t(lang, "bad_level")
        return user.model_copy(update={"level": level}), _saved(lang, name, t(lang, f"level.{level}"))
    if name == "topics":
        topics = TOPIC_WORDS.get(value.lower())
        if topics is None:
            return None, t(lang, "bad_topics")
        shown = listing(lang, (t(lang, f"topic.{x}") for x in topics))
        return user.model_copy(update={"topics": topics}), _saved(lang, name, shown)
    if name == "quiet_hours":
        return _quiet_hours(user, value, read_clock)
    if name == "weekly_day":
        return _weekly_day(user, value)
    if name == "new_per_day":
        if not value.isdigit() or not 0 <= int(value) <= MAX_NEW_PER_DAY:
            return None, t(lang, "bad_number", value=value[:16], low=0, high=MAX_NEW_PER_DAY)
        n = int(value)
        return user.model_copy(update={"new_per_day": n}), _saved(lang, name, str(n))
    if name == "dm_opt_in":
        if value.lower() not in SWITCH_WORDS:
            return None, t(lang, "bad_switch")
        on = SWITCH_WORDS[value.lower()]
        done = t(lang, "dm_on", daily_time=user.daily_time, timezone=user.timezone) if on else t(lang, "dm_off")
        return user.model_copy(update={"dm_opt_in": on}), done
    return None, t(lang, "usage", usage=t(lang, "usage.settings"))


WEEKDAY_NAMES = {
    "mon": 0, "monday": 0, "周一": 0, "tue": 1, "tuesday": 1, "周二": 1, "wed": 2, "wednesday": 2, "周三": 2,
    "thu": 3, "thursday": 3, "周四": 3, "fri": 4, "friday": 4, "周五": 4, "sat": 5, "saturday": 5, "周六": 5,
    "sun": 6, "sunday": 6, "周日": 6, "周天": 6,
}  # fmt: skip
OFF_WORDS = ("off", "none", "关闭", "关", "无")


def _quiet_hours(user: User, value: str, read_clock: ReadClock) -> tuple[User | None, str]:
    """`23:00-08:00` (or `11pm-8am`, `晚上11点到早上8点`) sets a local window with no pushes; `off` clears it."""
    lang = user.language
    if value.lower() in OFF_WORDS:
        return user.model_copy(update={"quiet_start": None, "quiet_end": None}), t(lang, "quiet_off")
    for dash in ("–", "~", "～", "到", "至"):
        value = value.replace(dash, "-")
    start, _, end = value.partition("-")
    hs, he = read_clock(start), read_clock(end)
    if hs is None or he is None or hs == he:
        return None, t(lang, "bad_quiet", value=value[:32])
    updated = user.model_copy(update={"quiet_start": hs, "quiet_end": he})
    return updated, _saved(lang, "quiet_hours", f"{hs}-{he}")


def _weekly_day(user: User, value: str) -> tuple[User | None, str]:
    lang = user.language
    if value.lower() in OFF_WORDS:
        return user.model_copy(update={"weekly_day": None}), _saved(lang, "weekly_day", t(lang, "setting.off"))
    day = WEEKDAY_NAMES.get(value.lower())
    if day is None:
        return None, t(lang, "bad_weekday", value=value[:16])
    return user.model_copy(update={"weekly_day": day}), _saved(lang, "weekly_day", WEEKDAYS[lang][day])


async def set_paused(cmd: c.SetPaused, user: User, users: UsersPort) -> list[Reply]:
    await users.save_user(user.model_copy(update={"paused": cmd.paused}))
    if cmd.paused:
        return [Reply(t(user.language, "paused"))]
    text = t(user.language, "resumed", daily_time=user.daily_time, timezone=user.timezone)
    return [Reply(text, promise=True)]


async def change_setting(cmd: c.ChangeSetting, user: User, users: UsersPort, clock: Clock, dates: Dates) -> list[Reply]:
    session = await users.get_session(user.id)
    onboarding = isinstance(session, Onboarding)
    now = clock.now()
    updated, message = apply_setting(user, cmd.name, cmd.value, lambda text: dates.clock(text, now))
    if updated is None:
        suggestion = suggest_timezone(cmd.value) if cmd.name == "timezone" else None
        buttons = (
            [[Button(suggestion, actions.Setting(name="timezone", value=suggestion).encode())]] if suggestion else []
        )
        return [
            Reply(message, buttons, kind="error", ask_text=isinstance(session, Onboarding) and cmd.name == session.step)
        ]
    if onboarding and cmd.name in STEPS and STEPS.index(cmd.name) < len(STEPS) - 1:
        await users.save_user(updated)
        step = STEPS[STEPS.index(cmd.name) + 1]
        await users.set_session(user.id, Onboarding(step=step))
        return [_ask(step, updated.language)]
    if onboarding:
        updated = updated.model_copy(update={"onboarded": True})
        await users.save_user(updated)
        await users.set_session(user.id, Idle())
        text = t(updated.language, "onboarded", **summary(updated))
        return [Reply(text, [[Button("/drill", actions.Next().encode())]], promise=True)]
    await users.save_user(updated)
    return [Reply(message, promise=cmd.name in PUSH_SETTINGS and updated.onboarded)]


async def onboarding_text(text: str, dispatch: Dispatch, user: User, session: Onboarding) -> list[Reply]:
    """Typed text during onboarding answers the current step: the setting it asks, changed (`change_setting`)."""
    return await dispatch(c.ChangeSetting(user.id, session.step, text), user, session)
