"""The commands of onboarding and settings (/start, /help, /settings, /lang, /pause, /resume), declared once with
the kernel's registry (bot/kernel/registry.py); importing this module registers them."""

from __future__ import annotations

from bot.features.onboarding import onboarding
from bot.kernel import commands as c
from bot.kernel.models import LEVELS
from bot.kernel.registry import Arg, Entry, Slash, SlashCall, no_words, register

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
"""The setting names `/settings NAME VALUE` takes, in both languages."""

LEVEL_CHOICES = tuple((f"level.{lv}", lv) for lv in LEVELS)
TOPIC_CHOICES = tuple((f"topic.{x}", x) for x in ("stability", "pipeline", "both"))
LANG_CHOICES = (("lang.zh", "zh"), ("lang.en", "en"))


def parse_settings(user_id: int, rest: str, name: str) -> c.Command | None:
    """`/settings` shows them; `/settings NAME VALUE` changes one; `/settings NAME` shows how to give it."""
    if not rest:
        return c.ShowSettings(user_id)
    key, _, value = rest.partition(" ")
    setting = SETTING_ALIASES.get(key.lower())
    if setting is None:
        return None
    if not value.strip():  # `/settings time`: how to give that one
        return c.Invalid(user_id, "usage", name, f"usage.setting.{setting}")
    return c.ChangeSetting(user_id, setting, value.strip())


def slash_settings(call: SlashCall) -> c.Command | list[c.Command]:
    """The options given, each a change (shown as one message); none: the settings."""
    v = call.values
    given = {
        "timezone": v.get("timezone"),
        "daily_time": v.get("daily_time"),
        "level": v.get("level"),
        "topics": v.get("topics"),
        "new_per_day": None if v.get("new_per_day") is None else str(v["new_per_day"]),
        "dm_opt_in": None if v.get("daily_dm") is None else ("on" if v["daily_dm"] else "off"),
    }
    changes: list[c.Command] = [
        c.ChangeSetting(call.user_id, name, value) for name, value in given.items() if value is not None
    ]
    return changes or c.ShowSettings(call.user_id)


register(
    Entry(
        "start",
        no_words(c.StartUser),
        zh=("开始",),
        menu_key="menu.start",
        rank=10,
        handlers={c.StartUser: onboarding.start},
    ),
    Entry(
        "help",
        no_words(c.ShowHelp),
        zh=("帮助",),
        help_key="help",
        menu_key="menu.help",
        rank=140,
        slash=Slash(after_key="help.discord"),
        handlers={c.ShowHelp: onboarding.show_help},
    ),
    Entry(
        "settings",
        parse_settings,
        zh=("设置",),
        usage_key="usage.settings",
        menu_key="menu.settings",
        rank=120,
        args=(
            Arg("timezone", high=64),
            Arg("daily_time", high=16),
            Arg("level", "choice", choices=LEVEL_CHOICES),
            Arg("topics", "choice", choices=TOPIC_CHOICES),
            Arg("new_per_day", "number", low=0, high=50),
            Arg("daily_dm", "switch"),
        ),
        slash=Slash(slash_settings),
        handlers={c.ShowSettings: onboarding.show_settings, c.ChangeSetting: onboarding.change_setting},
    ),
    Entry(
        "lang",
        lambda user_id, rest, name: c.ChangeSetting(user_id, "language", rest) if rest else None,
        zh=("语言",),
        usage_key="usage.lang",
        menu_key="menu.lang",
        rank=130,
        args=(Arg("language", "choice", required=True, choices=LANG_CHOICES),),
        slash=Slash(lambda call: c.ChangeSetting(call.user_id, "language", call.values["language"])),
    ),
    Entry(
        "pause",
        no_words(lambda user_id: c.SetPaused(user_id, True)),
        zh=("暂停", "暂停推送"),
        rank=180,
        slash=Slash(),
        handlers={c.SetPaused: onboarding.set_paused},
    ),
    Entry(
        "resume",
        no_words(lambda user_id: c.SetPaused(user_id, False)),
        zh=("恢复", "恢复推送"),
        rank=190,
        slash=Slash(),
    ),
)
