"""A timezone as people type it: an IANA name, or a city or country the table knows (北京, Bangalore); and for
what is neither, the name it most likely meant (Asia/Beijing -> Asia/Shanghai, asia/shangai -> Asia/Shanghai)."""

from __future__ import annotations

import difflib
from functools import cache
from zoneinfo import available_timezones

from bot.kernel.timeutil import zone

ZONE_NAMES: dict[str, tuple[str, ...]] = {
    "Asia/Shanghai": ("beijing", "peking", "shanghai", "shenzhen", "hangzhou", "guangzhou", "chengdu", "nanjing",
                      "wuhan", "xian", "xi'an", "suzhou", "china", "北京", "上海", "深圳", "杭州", "广州", "成都",
                      "南京", "武汉", "西安", "苏州", "中国", "北京时间"),
    "Asia/Hong_Kong": ("hong kong", "hongkong", "香港"),
    "Asia/Taipei": ("taipei", "taiwan", "台北", "台湾"),
    "Asia/Singapore": ("singapore", "新加坡"),
    "Asia/Tokyo": ("tokyo", "japan", "东京", "日本"),
    "Asia/Seoul": ("seoul", "korea", "south korea", "首尔", "韩国"),
    "Asia/Kolkata": ("bangalore", "bengaluru", "mumbai", "delhi", "new delhi", "hyderabad", "india", "班加罗尔",
                     "孟买", "印度"),
    "Europe/London": ("london", "uk", "伦敦", "英国"),
    "Europe/Paris": ("paris", "巴黎", "法国"),
    "Europe/Berlin": ("berlin", "munich", "柏林", "德国"),
    "Europe/Zurich": ("zurich", "苏黎世"),
    "Europe/Amsterdam": ("amsterdam", "阿姆斯特丹"),
    "America/New_York": ("new york", "nyc", "boston", "纽约", "波士顿"),
    "America/Los_Angeles": ("san francisco", "sf", "bay area", "silicon valley", "seattle", "los angeles", "旧金山",
                            "湾区", "硅谷", "西雅图", "洛杉矶"),
    "America/Toronto": ("toronto", "多伦多"),
    "America/Vancouver": ("vancouver", "温哥华"),
    "Australia/Sydney": ("sydney", "melbourne", "悉尼", "墨尔本"),
    "UTC": ("utc", "gmt"),
}  # fmt: skip
"""City and country names (lower case, English and Chinese) that mean one timezone: accepted as it."""
CITY_ZONES = {name: zone_name for zone_name, names in ZONE_NAMES.items() for name in names}
MAX_NAME = 64


def _key(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").split())


def resolve_timezone(value: str) -> str | None:
    """The IANA name `value` is, or the one its city or country means; None when it is neither."""
    name = value.strip()
    mapped = CITY_ZONES.get(_key(name))
    if mapped:
        return mapped
    return name if zone(name) is not None else None


@cache
def _by_lower_name() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones() if "/" in name or name == "UTC"}


def suggest_timezone(value: str) -> str | None:
    """The timezone a name that is not one most likely meant: a region/city form whose city the table knows
    (Asia/Beijing, America/San_Francisco), the IANA name in other letter case, or one a small typo away
    (Asia/Shangai, Shenzen); None when nothing is close."""
    text = value.strip()[:MAX_NAME]
    if not text:
        return None
    known = _by_lower_name()
    if text.lower() in known:
        return known[text.lower()]
    if "/" in text and (city := CITY_ZONES.get(_key(text.rsplit("/", 1)[1]))):
        return city
    close = difflib.get_close_matches(text.lower(), list(known), n=1, cutoff=0.85)
    if close:
        return known[close[0]]
    city_key = difflib.get_close_matches(_key(text), list(CITY_ZONES), n=1, cutoff=0.8)
    return CITY_ZONES[city_key[0]] if city_key else None
