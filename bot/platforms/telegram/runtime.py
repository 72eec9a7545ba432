"""The Telegram platform: builds python-telegram-bot's Application and runs it inside the bot's loop.

The Application is initialised, started and stopped here by hand (PTB's "application_run_tip"),
never by run_polling(), so Telegram shares one event loop with Discord, the scheduler and the
regrade worker. Updates arrive by long polling, or by webhook when `webhook_url` is set (our own server,
webhook.py, which answers each update once it was handled, so several replicas behind a load balancer
lose nothing when one dies). They are
processed concurrently (`concurrent_updates`), each chat's in order (processor.py); outgoing
requests pass PTB's AIORateLimiter, which also retries 429s after Telegram's retry_after, over an
HTTP connection pool sized to the number of updates that may be sending at once.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from telegram import BotCommand, Update
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, Application, ContextTypes, TypeHandler

from bot.kernel.models import Lang
from bot.kernel.registry import REGISTRY
from bot.kernel.service import Service
from bot.platforms.telegram.handlers import TelegramHandlers
from bot.platforms.telegram.notifier import TelegramNotifier
from bot.platforms.telegram.processor import PerChatUpdateProcessor
from bot.platforms.telegram.request import AiohttpRequest
from bot.platforms.telegram.sender import TelegramSender
from bot.platforms.telegram.settings import TelegramSettings
from bot.platforms.telegram.webhook import WebhookServer, shared_secret

log = logging.getLogger(__name__)
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
MENU_LANGUAGES: tuple[tuple[Lang, str | None], ...] = (("en", None), ("zh", "zh"))
"""Each menu's language and the `language_code` it is set for (None: the default, for every other language)."""
POOL_HEADROOM = 16  # connections beyond one per active update: pushes, chat actions, callback answers


def build_application(settings: TelegramSettings) -> Application:  # type: ignore[type-arg]
    if settings.token is None:
        raise ValueError("TELEGRAM_TOKEN is not set")
    pool = settings.connection_pool_size or settings.concurrent_updates + POOL_HEADROOM
    limiter = AIORateLimiter(
        overall_max_rate=settings.rate_limit,
        overall_time_period=1 if settings.rate_limit else 0,
        max_retries=settings.max_retries,
    )
    return (
        Application.builder()
        .token(settings.token.get_secret_value())
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .concurrent_updates(PerChatUpdateProcessor(settings.concurrent_updates, settings.chat_queue))
        .rate_limiter(limiter)
        .request(AiohttpRequest(pool))
        .build()
    )


async def register_commands(app: Application) -> None:  # type: ignore[type-arg]
    """The command menu, generated from the registry, in English (the default) and in Chinese. A failure is
    logged, not fatal: the commands work without the menu."""
    for lang, code in MENU_LANGUAGES:
        commands = [BotCommand(name, text) for name, text in REGISTRY.menu(lang)]
        try:
            await app.bot.set_my_commands(commands, language_code=code)
        except TelegramError as err:
            log.warning("telegram: could not register the %s command menu: %s", lang, err)


class TelegramRuntime:
    name = "telegram"

    def __init__(self, service: Service, settings: TelegramSettings) -> None:
        self.settings = settings
        self.application = build_application(settings)
        self.sender = TelegramSender(self.application.bot, service, settings.drafts)
        self.handlers = TelegramHandlers(service, self.sender, settings)
        self.notifier = TelegramNotifier(self.sender)
        self.channels = None  # private chats only: no study-server channels
        processor = self.application.update_processor
        assert isinstance(processor, PerChatUpdateProcessor)
        processor.on_shed = self.handlers.on_shed
        self.application.add_handler(TypeHandler(Update, self.handlers.on_update))
        self.application.add_error_handler(self._on_error)
        self.webhook: WebhookServer | None = None

    async def start(self) -> None:
        try:
            await self._start()
        except BaseException:
            await self.stop()  # the runner only stops what started: leave nothing half-open
            raise

    async def _start(self) -> None:
        app, s = self.application, self.settings
        await app.initialize()
        await register_commands(app)
        await app.start()
        assert app.updater is not None
        if s.webhook_url:
            path = s.webhook_path if s.webhook_path is not None else urlsplit(s.webhook_url).path.strip("/")
            token = s.token.get_secret_value() if s.token else ""
            secret = s.webhook_secret.get_secret_value() if s.webhook_secret else shared_secret(token)
            processor = app.update_processor
            handle = self.handlers.handle
            self.webhook = WebhookServer(app.bot, processor, handle, path, secret, s.webhook_listen, s.webhook_port)
            await self.webhook.start()
            await app.bot.set_webhook(
                s.webhook_url,
                secret_token=secret,
                allowed_updates=ALLOWED_UPDATES,
                max_connections=s.webhook_max_connections,
            )
            log.info("telegram: webhook on %s:%s/%s", s.webhook_listen, s.webhook_port, path)
        else:
            self.handlers.polling_since = self.handlers.service.now()
            await app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
            log.info("telegram: polling %s", urlsplit(s.base_url).netloc)

    async def stop(self) -> None:
        app = self.application
        if self.webhook is not None:  # the webhook stays set: the other replicas go on serving it
            await self.webhook.stop()
            self.webhook = None
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()  # waits for the updates being processed
        await app.shutdown()  # a no-op when it was never initialised...
        await app.bot.request.shutdown()  # ...so close the sending pool ourselves (idempotent)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram update %s failed", getattr(update, "update_id", "?"), exc_info=context.error)
