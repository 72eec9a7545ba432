"""The application board's rules, as pure functions: stage words in both languages, the next stage, a move
(recorded in the application's history), and the board's columns (what the text and the PNG show; what the PNG
draws is bot/features/apps/chart_data.py).

Stages run applied -> screen -> technical 1..n -> hr -> offer, and an application may close as rejected or
withdrawn at any point; `round` numbers the technical rounds (0 for every other stage)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from bot.features.career.models import CLOSED_STAGES, Application, Stage, StageChange
from bot.text.fold import fold
from bot.text.numerals import ONE_TO_NINE, cn_int

OPEN_COLUMNS: tuple[Stage, ...] = ("applied", "screen", "technical", "hr")
MAX_ROUND = 9

_WORDS: dict[str, Stage] = {
    "applied": "applied", "apply": "applied", "投递": "applied", "已投递": "applied", "投了": "applied",
    "screen": "screen", "screening": "screen", "简历筛选": "screen", "筛选": "screen", "简历": "screen",
    "technical": "technical", "tech": "technical", "interview": "technical", "技术面": "technical",
    "面试": "technical", "round": "technical",
    "hr": "hr", "hr面": "hr", "hr面试": "hr",
    "offer": "offer", "录用": "offer", "拿到offer": "offer", "意向书": "offer",
    "rejected": "rejected", "reject": "rejected", "拒": "rejected", "被拒": "rejected", "拒了": "rejected",
    "挂": "rejected", "挂了": "rejected",
    "withdrawn": "withdrawn", "withdraw": "withdrawn", "放弃": "withdrawn", "撤回": "withdrawn",
}  # fmt: skip
_NTH = re.compile(rf"^([{ONE_TO_NINE}])面$")
_WITH_NUMBER = re.compile(r"^(\D+?)(\d+)$")


def parse_stage(text: str, app: Application | None = None) -> tuple[Stage, int] | None:
    """(stage, round) from typed words such as "technical 2", "tech", "一面", "HR面", "拒", "offer";
    "technical" alone is the round after the application's current one. None when it is no stage."""
    word = fold(text).replace(" ", "").strip()
    nth = _NTH.match(word)
    if nth:
        return "technical", cn_int(nth.group(1)) or 1
    number = None
    numbered = _WITH_NUMBER.match(word)
    if numbered:
        word, number = numbered.group(1).rstrip("#-_"), int(numbered.group(2))
    stage = _WORDS.get(word)
    if stage is None:
        return None
    if stage != "technical":
        return None if number is not None else (stage, 0)
    if number is None:
        number = app.round + 1 if app is not None and app.stage == "technical" else 1
    return ("technical", number) if 1 <= number <= MAX_ROUND else None


def next_stage(app: Application) -> tuple[Stage, int] | None:
    """The usual next step: applied -> screen -> technical 1 -> technical 2 ...; HR -> offer; none once closed."""
    if app.stage in CLOSED_STAGES:
        return None
    if app.stage == "applied":
        return "screen", 0
    if app.stage == "screen":
        return "technical", 1
    if app.stage == "technical":
        return ("technical", app.round + 1) if app.round < MAX_ROUND else ("hr", 0)
    return "offer", 0


def move(app: Application, stage: Stage, round_: int, now: datetime) -> Application | None:
    """The application at its new stage, the change kept in its history; None when it is there already."""
    round_ = round_ if stage == "technical" else 0
    if (app.stage, app.round) == (stage, round_):
        return None
    history = [*app.history, StageChange(stage=stage, round=round_, at=now)]
    return app.model_copy(update={"stage": stage, "round": round_, "history": history, "updated_at": now})


def last_change(app: Application) -> datetime:
    """When the application last moved (its creation when it never did)."""
    return max((c.at for c in app.history), default=app.created_at)


def days_since(app: Application, now: datetime) -> int:
    return max(0, (now - last_change(app)).days)


def display_number(app: Application, apps: Sequence[Application]) -> int:
    """The number the user types (/apps N): its own, else its place among the user's applications."""
    return app.number or next((i + 1 for i, a in enumerate(apps) if a.id == app.id), 0)


def next_number(apps: Sequence[Application]) -> int:
    return max((display_number(a, apps) for a in apps), default=0) + 1


def by_number(apps: Sequence[Application], number: int) -> Application | None:
    return next((a for a in apps if display_number(a, apps) == number), None)


def columns(apps: Sequence[Application]) -> dict[str, list[Application]]:
    """The applications by column: each open stage, then "closed" (offer, rejected, withdrawn); each column
    in board order (its number)."""
    cols: dict[str, list[Application]] = {s: [] for s in (*OPEN_COLUMNS, "closed")}
    for app in sorted(apps, key=lambda a: display_number(a, apps)):
        cols["closed" if app.stage in CLOSED_STAGES else app.stage].append(app)
    return cols
