"""Speaking insights for a spoken answer: pace and filler words, as spoken-interview coaches give.

Pure functions of the transcript and the audio's length. The unit follows the transcript, not the
user's setting: Chinese is counted in characters per minute (English terms inside it count one
each), English in words per minute. Filler words that are also ordinary words ("like", "you know",
"那个", "就是") only count when a pause follows them ("like, ...", "那个，..."), or when repeated
("那个那个"), so "I'd like to" and "那个模型" are not fillers.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from bot.kernel.i18n import listing, t, tn
from bot.kernel.models import Lang

Unit = Literal["wpm", "cpm"]

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN_WORD = re.compile(r"[A-Za-z0-9]+(?:['’.-][A-Za-z0-9]+)*")
PAUSE = r"\s*(?:[,，、;；…—]|\.\.\.|-{2})"

# name shown to the user -> pattern; the "always" ones are hesitations, never content words.
FILLERS: dict[str, re.Pattern[str]] = {
    "um": re.compile(r"(?<![A-Za-z])(?:u+h*m+|e+r+m+|h+m+)(?![A-Za-z])", re.I),
    "uh": re.compile(r"(?<![A-Za-z])(?:u+h+|e+r+)(?![A-Za-z])", re.I),
    "like": re.compile(rf"(?<![A-Za-z])like(?={PAUSE})", re.I),
    "you know": re.compile(rf"(?<![A-Za-z])you know(?={PAUSE})", re.I),
    "嗯": re.compile(r"[嗯呃]+"),
    "那个": re.compile(rf"那个(?={PAUSE}|那个)"),
    "就是": re.compile(rf"就是(?={PAUSE}|就是)"),
}

# When to call the pace slow or fast, and the comfortable interview pace the tip suggests.
PACE = {"wpm": (100, 180), "cpm": (150, 300)}
TARGET = {"wpm": (120, 160), "cpm": (180, 260)}
MIN_SECONDS_FOR_PACE = 5.0
FILLERS_PER_MINUTE_HIGH = 4.0
FILLERS_MIN_COUNT = 3


@dataclass(frozen=True)
class SpeakingInsights:
    seconds: float
    units: int
    unit: Unit
    rate: int | None
    """Units per minute; None when the recording is too short for a fair figure."""
    fillers: Counter[str] = field(default_factory=Counter)

    @property
    def filler_count(self) -> int:
        return sum(self.fillers.values())

    @property
    def fillers_per_minute(self) -> float:
        return self.filler_count * 60.0 / self.seconds if self.seconds > 0 else 0.0

    @property
    def many_fillers(self) -> bool:
        return self.filler_count >= FILLERS_MIN_COUNT and self.fillers_per_minute >= FILLERS_PER_MINUTE_HIGH

    @property
    def pace(self) -> Literal["slow", "ok", "fast"]:
        if self.rate is None:
            return "ok"
        low, high = PACE[self.unit]
        return "slow" if self.rate < low else "fast" if self.rate > high else "ok"


def count_fillers(text: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for name, pattern in FILLERS.items():
        n = len(pattern.findall(text))
        if n:
            counts[name] = n
    return counts


def analyse(transcript: str, seconds: float) -> SpeakingInsights | None:
    """Pace and fillers of a transcript spoken in `seconds`; None when there is nothing to say."""
    cjk = len(CJK.findall(transcript))
    words = len(LATIN_WORD.findall(CJK.sub(" ", transcript)))
    units = cjk + words
    if units == 0 or seconds <= 0:
        return None
    unit: Unit = "cpm" if cjk >= words else "wpm"
    rate = round(units * 60.0 / seconds) if seconds >= MIN_SECONDS_FOR_PACE else None
    return SpeakingInsights(seconds=seconds, units=units, unit=unit, rate=rate, fillers=count_fillers(transcript))


def _filler_list(fillers: Counter[str], lang: Lang) -> str:
    quote = "“{}”×{}" if lang == "zh" else '"{}" x{}'
    return listing(lang, (quote.format(name, n) for name, n in fillers.most_common()))


def render_insights(ins: SpeakingInsights, lang: Lang) -> str:
    """Two short lines (pace, fillers) and at most one tip, fillers first: they are easiest to fix."""
    lines = [t(lang, "speaking.header", seconds=round(ins.seconds))]
    if ins.rate is not None:
        units = tn(lang, "count.word" if ins.unit == "wpm" else "count.character", ins.rate)
        lines.append(t(lang, f"speaking.rate_{ins.unit}", words=units, characters=units))
    if ins.fillers:
        lines.append(t(lang, "speaking.fillers", count=ins.filler_count, list=_filler_list(ins.fillers, lang)))
    else:
        lines.append(t(lang, "speaking.fillers_none"))
    if ins.many_fillers:
        fillers = tn(lang, "count.filler_word", round(ins.fillers_per_minute))
        lines.append(t(lang, "speaking.tip_fillers", fillers=fillers))
    elif ins.pace != "ok":
        low, high = TARGET[ins.unit]
        lines.append(t(lang, f"speaking.tip_{ins.pace}_{ins.unit}", low=low, high=high))
    return "\n".join(lines)
