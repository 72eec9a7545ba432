"""The composition root: builds store, bank, grader and service from settings.

Tests call `build_app` with fakes swapped in; production calls it with the defaults.

A start must be quick (issue 37: the terminal's prompt within 2 s), so what is slow to import or to compute
is deferred: the LLM SDK and its users are imported only when an LLM is configured, matplotlib on the
first chart, the sentence encoder on first use or by `warm_up` once the bot is up; the bank's derived data
comes from the cache folder (bot/content/cache.py, through bot/shipped_bank.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bot.config import Settings, SettingsError
from bot.dates import parse_natural
from bot.delivery import NotifierRouter
from bot.documents import read_document
from bot.features.deps import DataFacts, Deps, Limits
from bot.features.mock.ports import MockChartRenderer
from bot.features.routes import ROUTES
from bot.features.stats.ports import ChartRenderer
from bot.grading.chain import GradingChain
from bot.grading.factory import llm_grader
from bot.grading.feedback import follow_up_for_points
from bot.grading.offline import OfflineGrader
from bot.grading.pooled import PooledGrader, PooledWork, thread_tasks
from bot.grading.term_weights import bank_weights
from bot.kernel.bank import Bank
from bot.kernel.identity import USAGE_RETENTION
from bot.kernel.ports import Clock, Grader, Transcriber
from bot.kernel.service import Service
from bot.kernel.timeutil import SystemClock
from bot.kernel.user_lock import UserLock
from bot.platforms.base import UPLOAD_LIMITS
from bot.scheduling.dispatcher import Dispatcher
from bot.scheduling.scheduler import Scheduler
from bot.shipped_bank import ContentError as ContentError  # re-exported: the command line catches it here
from bot.shipped_bank import load_default_bank, use_shipped_weights
from bot.speech.factory import build_transcriber
from bot.speech.settings import SpeechSettingsError
from bot.storage.engine import Engines, make_engines
from bot.storage.migrate import upgrade
from bot.storage.pushes import PushStore
from bot.storage.store import SqlStore
from bot.storage.user_lock import PgUserLocks
from bot.workers import ProcessPool, ThreadPool

if TYPE_CHECKING:
    from bot.features.apps.chart_data import BoardData
    from bot.features.mock.chart_data import MockChartData
    from bot.features.stats.chart_data import ProgressData
    from bot.kernel.models import Lang

log = logging.getLogger(__name__)
REGRADE_EVERY_S = 60.0
# update and interaction ids guard against redelivery: Telegram keeps an undelivered update for 24 hours
# (https://core.telegram.org/bots/api#getting-updates) and Discord's interaction tokens last 15 minutes
EVENT_RETENTION = timedelta(days=7)
TRANSCRIBE_DEADLINE = 120.0  # seconds a transcription may take (a local one's worker is stopped past it)
OPENAI_URL = "https://api.openai.com/v1"  # the openai SDK's endpoint when no base URL is set


@dataclass
class App:
    settings: Settings
    engines: Engines
    store: SqlStore
    bank: Bank
    service: Service
    deps: Deps
    """What the root built (handlers are given parts of it by name: `Service.provided`)."""
    user_locks: PgUserLocks | None = None
    workers: ProcessPool | ThreadPool | None = None
    transcribe_workers: ProcessPool | None = None
    """The local transcriber's worker processes (`serve` with TRANSCRIBE_BACKEND=local)."""
    documents: ProcessPool | None = None
    """Reads sent files when `workers` are threads (a process can be stopped at its deadline); started on use."""

    async def close(self) -> None:
        if self.workers is not None:
            await self.workers.close()
        if self.transcribe_workers is not None:
            await self.transcribe_workers.close()
        if self.documents is not None:
            await self.documents.close()
        if self.user_locks is not None:
            await self.user_locks.close()
        await self.engines.dispose()


class WarmUp:
    """Load the sentence encoder and jieba's dictionary (a second each) and embed /review's bank prompts in a
    background thread, once the bot answers: the first graded answer or /review then need not wait for them
    (a grade that comes first waits on the encoder's own lock, and never loads it twice).

    `stop()` lets the step under way finish and skips the rest; the bot calls it before it exits. The thread is
    not a daemon: one stopped by the interpreter's exit inside the encoder's C++ code aborts the process."""

    def __init__(self, app: App) -> None:
        self._app = app
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._work, name="warm-up", daemon=False)

    def start(self) -> WarmUp:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Skip the steps not yet begun (then `join` waits for the one under way)."""
        self._stopping.set()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the whole warm-up; True when it is over."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _work(self) -> None:
        from bot.grading.semantic import default_embedder
        from bot.grading.terms import terms_of

        def encoder() -> None:
            embedder = default_embedder()
            if embedder is not None:
                embedder.warm()

        def call(name: str) -> Callable[[], object]:
            return getattr(self._app.bank.matcher, name, None) or (lambda: None)

        # jieba's dictionary loads with the first Chinese text; the matcher is built (its terms and weights: 5 s
        # when the cache is cold), then its prompts embedded: separate steps, so that a stop waits for less
        # the bank's term weights: the LLM grade's quote check reads them (bot/grading/llm_verdicts.py)
        steps = (encoder, lambda: terms_of("预热"), bank_weights, call("matcher"), call("warm"))
        try:
            for step in steps:
                if self._stopping.is_set():
                    return
                step()
        except Exception:  # a warm-up is an optimisation: first use tries again, and says what failed
            log.exception("the warm-up failed")


def warm_up(app: App) -> WarmUp:
    """Start a `WarmUp` of `app` (stop it before the bot exits)."""
    return WarmUp(app).start()


class LazyCharts:
    """The matplotlib chart renderers (/stats, the mock debrief, /apps), imported on the first chart: matplotlib
    takes 0.7 s to import and most sessions draw none. Charts are drawn in worker threads: the import is locked."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[str, Any] = {}

    def _renderer(self, name: str) -> Any:
        with self._lock:
            if name not in self._made:
                import bot.charts

                self._made[name] = getattr(bot.charts, name)()
            return self._made[name]

    def render(self, data: ProgressData, lang: Lang) -> bytes:
        return self._renderer("MatplotlibChartRenderer").render(data, lang)  # type: ignore[no-any-return]

    def render_mock(self, data: MockChartData) -> bytes:
        return self._renderer("MatplotlibMockChart").render_mock(data)  # type: ignore[no-any-return]

    def render_board(self, data: BoardData) -> bytes:
        return self._renderer("MatplotlibAppsChart").render_board(data)  # type: ignore[no-any-return]


def data_facts(settings: Settings) -> DataFacts:
    """Where the users' data goes with these settings, as /privacy tells them: the LLM's host and model (when one
    is configured), the transcriber's, and the database's kind."""
    llm = settings.llm
    host = urlsplit(llm.base_url or OPENAI_URL).hostname or ""
    graded = f"{host}, model {llm.model}" if llm.model and (llm.base_url or llm.api_key) else ""
    backend = settings.transcribe_backend
    heard = ""
    if backend == "local":
        heard = "local"
    elif backend == "openai":
        heard = urlsplit(settings.transcribe_base_url or llm.base_url or OPENAI_URL).hostname or ""
    kind = "PostgreSQL" if settings.database_url.startswith("postgresql") else "SQLite"
    return DataFacts(llm=graded, transcriber=heard, database=kind, event_days=EVENT_RETENTION.days)


def llm_helpers(llm: Any) -> dict[str, Any]:
    """The LLM's writers and readers for `Deps` (none without an LLM), imported only when one is configured."""
    if llm is None:
        return {
            "rubric_writer": None,
            "star_writer": None,
            "jd_reader": None,
            "debrief_splitter": None,
            "tightener": None,
        }
    from bot.features.debrief.split import MAX_QUESTIONS, REPLY_TURN
    from bot.grading.debrief_splitter import LLMDebriefSplitter
    from bot.grading.jd_reader import LLMJdReader
    from bot.grading.rubric_writer import LLMRubricWriter
    from bot.grading.star_writer import LLMStarWriter
    from bot.grading.tightener import LLMTightener

    return {
        "rubric_writer": LLMRubricWriter(llm),
        "star_writer": LLMStarWriter(llm),
        "jd_reader": LLMJdReader(llm),
        "debrief_splitter": LLMDebriefSplitter(llm, max_questions=MAX_QUESTIONS, reply_turn=REPLY_TURN),
        "tightener": LLMTightener(llm),
    }


def compose(deps: Deps, user_locks: UserLock | None = None) -> Service:
    """The service over what was built: every feature's handler bound, by the names of its parameters, to the map of
    what the root made (`deps.provided()`: each store port, the bank, the clock, the grader ...); a handler naming
    anything else fails here, at start-up. Tests compose the same way with fakes (tests/app.py)."""
    return Service(deps, user_locks, ROUTES)  # bound to deps.provided(), and again to another record set later


async def build_app(
    settings: Settings,
    *,
    grader: Grader | None = None,
    estimator: Grader | None = None,
    clock: Clock | None = None,
    bank: Bank | None = None,
    fuzz: bool = True,
    migrate: bool = True,
    transcriber: Transcriber | None = None,
    charts: ChartRenderer | None = None,
    mock_charts: MockChartRenderer | None = None,
    worker_mode: str | None = None,
) -> App:
    """`worker_mode`: "process" or "thread" for the CPU worker pool (default: settings.worker_mode, and "auto"
    means a thread here; `serve` asks for processes when it serves a platform). Processes need the shipped bank:
    with an injected `bank` the pool runs threads."""
    mode = worker_mode or settings.worker_mode
    transcribe_pool = None
    if transcriber is None and settings.transcribe_backend == "local" and mode == "process":
        # a transcription is stopped past its deadline: a process, `max_concurrent` of them (each with the model)
        transcribe_pool = ProcessPool(settings.transcribe_max_concurrent, TRANSCRIBE_DEADLINE)
    # a bad voice setting fails before any work
    try:
        transcriber = transcriber or build_transcriber(settings.speech(), transcribe_pool, TRANSCRIBE_DEADLINE)
    except SpeechSettingsError as err:
        raise SettingsError(str(err)) from None
    engines = make_engines(settings.database_url)
    if migrate:
        await upgrade(engines)
    store = SqlStore(engines)
    shipped = bank is None
    bank = bank or load_default_bank(settings)
    limits = Limits(
        max_answer_chars=settings.max_answer_chars,
        fuzz=fuzz,
        default_language=settings.default_language,
        default_timezone=settings.default_timezone,
        default_new_per_day=settings.new_per_day,
        llm_daily_limit=settings.llm.daily_limit,
        llm_daily_tokens=settings.llm.daily_token_budget,
        max_audio_seconds=settings.max_audio_seconds,
        max_audio_bytes=settings.max_audio_mb * 1_000_000,
        transcribe_daily_seconds=settings.transcribe_daily_seconds,
        transcribe_daily_total=settings.transcribe_daily_seconds_total,
        rate_per_minute=settings.rate_per_minute,
        rate_burst=settings.rate_burst,
        update_stale_seconds=settings.update_stale_seconds,
        grading_stuck_seconds=settings.grading_stuck_seconds,
        max_reviews_per_day=settings.max_reviews_per_day,
        max_reviews=settings.max_reviews,
        max_interviews_per_day=settings.max_interviews_per_day,
        max_interviews=settings.max_interviews,
        upload_limits=UPLOAD_LIMITS,
        transcribe_deadline=TRANSCRIBE_DEADLINE,
    )
    facts = data_facts(settings)
    use_shipped_weights()  # the graders' term weights (the offline estimate, the LLM grade's quote check)
    llm = llm_grader(settings.llm) if grader is None else None
    offline = OfflineGrader()
    workers: ProcessPool | ThreadPool
    if mode == "process" and shipped:
        workers = ProcessPool(settings.workers or None, settings.worker_timeout_seconds)
        offline_grader: Grader = PooledGrader(PooledWork(workers, bank))  # the estimate, in a worker process
    else:
        workers = ThreadPool(thread_tasks(offline, bank), settings.workers or None, settings.worker_timeout_seconds)
        offline_grader = offline  # graded in a thread (OfflineGrader.grade)
    # sent files are read in a worker process whatever the mode: one that runs past its deadline is stopped
    documents = workers if isinstance(workers, ProcessPool) else ProcessPool(1, settings.worker_timeout_seconds)
    lazy_charts = LazyCharts()
    deps = Deps(
        store=store,
        bank=bank,
        grader=GradingChain(grader or llm or offline_grader, estimator or (offline_grader if llm else None)),
        clock=clock or SystemClock(),
        limits=limits,
        data_facts=facts,
        cpu=PooledWork(workers, bank, documents),
        **llm_helpers(llm),
        natural_dates=parse_natural,
        read_document=read_document,
        transcriber=transcriber,
        charts=charts or lazy_charts,
        follow_up_chooser=follow_up_for_points,
        mock_charts=mock_charts or lazy_charts,
        apps_charts=lazy_charts,
    )
    if llm:
        log.info("grading with %s (offline estimate as fallback)", llm.id)
    if transcriber:
        log.info("voice answers transcribed by %s", transcriber.id)
    log.info("bank: %d questions; database: %s", len(bank), engines.writer.url.render_as_string(hide_password=True))
    user_locks = None if engines.is_sqlite else PgUserLocks(settings.database_url)  # order across replicas
    own_documents = documents if documents is not workers else None
    service = compose(deps, user_locks)
    return App(settings, engines, store, bank, service, deps, user_locks, workers, transcribe_pool, own_documents)


def build_scheduler(
    app: App, router: NotifierRouter, settings: Settings, *, pushes: bool, only_reachable: bool = False
) -> Scheduler:
    """The one background loop: pushes (daily drills, reminders, nudges, summaries, study-server posts) through
    the platforms' notifiers when `pushes`, and the LLM regrade round when an LLM grades. `only_reachable`: push
    only to users a registered platform knows (the terminal chat: its own user; the others' pushes stay due)."""
    deps = app.deps
    dispatcher = None
    if pushes:

        async def pause(user_id: int) -> None:
            await app.service.set_paused(user_id, True)

        dispatcher = Dispatcher(
            deps,
            PushStore(app.engines),
            router,
            pause,
            skip_if_practised=settings.skip_push_if_practised,
            stale_after=timedelta(seconds=settings.scheduler_stale_seconds),
            post_channel=router.post_channel if router.channels is not None else None,
            reachable=router.reaches if only_reachable else None,
        )

    async def housekeeping() -> int:
        now = deps.clock.now()
        events = await app.store.forget_events_before(now - EVENT_RETENTION)
        return events + await app.store.forget_usage_before(now - USAGE_RETENTION)  # forgotten users' usage rows

    jobs = app.service if deps.grader.has_llm else None  # the regrade round: without an LLM nothing is queued for one
    return Scheduler(dispatcher, settings.scheduler_tick_seconds, jobs, REGRADE_EVERY_S, housekeeping, notify=router)
