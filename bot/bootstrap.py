"""The composition root: builds store, bank, grader and service from settings.

Tests call `build_app` with fakes swapped in; production calls it with the defaults.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.config import Settings
from bot.content.loader import DEFAULT_CONTENT_DIR, load_bank
from bot.core.bank import Bank
from bot.core.deps import Deps, Limits
from bot.core.ports import Clock, Grader
from bot.core.service import Service
from bot.core.timeutil import SystemClock
from bot.grading.factory import llm_grader
from bot.grading.offline import OfflineGrader
from bot.grading.rubric_writer import LLMRubricWriter
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import upgrade
from bot.storage.store import SqlStore

log = logging.getLogger(__name__)


class ContentError(Exception):
    pass


@dataclass
class App:
    settings: Settings
    engines: Engines
    store: SqlStore
    bank: Bank
    service: Service

    async def close(self) -> None:
        await self.engines.dispose()


def load_default_bank(settings: Settings) -> Bank:
    result = load_bank(settings.content_dir or DEFAULT_CONTENT_DIR)
    if result.problems:
        raise ContentError("question bank has problems:\n" + "\n".join(result.problems[:20]))
    return Bank(result.questions)


async def build_app(
    settings: Settings,
    *,
    grader: Grader | None = None,
    estimator: Grader | None = None,
    clock: Clock | None = None,
    bank: Bank | None = None,
    fuzz: bool = True,
    migrate: bool = True,
) -> App:
    engines = make_engines(settings.database_url)
    if migrate:
        await upgrade(engines)
    store = SqlStore(engines)
    bank = bank or load_default_bank(settings)
    limits = Limits(
        max_answer_chars=settings.max_answer_chars,
        fuzz=fuzz,
        default_language=settings.default_language,
        default_timezone=settings.default_timezone,
        default_new_per_day=settings.new_per_day,
        llm_daily_limit=settings.llm.daily_limit,
    )
    llm = llm_grader(settings.llm) if grader is None else None
    offline = OfflineGrader()
    deps = Deps(
        store=store,
        bank=bank,
        grader=grader or llm or offline,
        clock=clock or SystemClock(),
        limits=limits,
        estimator=estimator or (offline if llm else None),
        rubric_writer=LLMRubricWriter(llm) if llm else None,
    )
    if llm:
        log.info("grading with %s (offline estimate as fallback)", llm.id)
    log.info("bank: %d questions; database: %s", len(bank), engines.writer.url.render_as_string(hide_password=True))
    return App(settings, engines, store, bank, Service(deps))
