"""The service layer: one handler per command, per-user ordering, and errors turned into replies."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta

from bot.kernel import commands as c
from bot.kernel.deps import Core
from bot.kernel.i18n import t
from bot.kernel.identity import identity
from bot.kernel.inject import Bound, bind, bind_all, with_names
from bot.kernel.models import Lang, User
from bot.kernel.parsing import parse_action, parse_line
from bot.kernel.ports import Notify, WriteFailed
from bot.kernel.rate_limit import Admission, RateLimiter
from bot.kernel.replies import Button, Reply
from bot.kernel.routing import JOB_CALL, Routes, bind_hooks, registered
from bot.kernel.session import (
    Forgotten,
    Idle,
    InFlow,
    Menu,
    MenuButton,
    Session,
)
from bot.kernel.store_ports import EventClaim
from bot.kernel.text_input import clean_text as clean_text  # re-exported: tests and older callers import it here
from bot.kernel.text_input import cleaned
from bot.kernel.user_lock import LocalUserLocks, UserLock

log = logging.getLogger(__name__)


class Service:
    def __init__(
        self,
        deps: Core,
        user_lock: UserLock | None = None,
        routes: Routes | None = None,
        provided: Mapping[str, object] | None = None,
    ) -> None:
        self.routes = routes or registered()
        """The features' handlers and states (bot/features/routes.py, registered by the composition root)."""
        self._given = provided
        self.deps = deps
        self.user_lock: UserLock = user_lock or LocalUserLocks()
        """A user's commands one at a time: in this process, or across replicas (bot/storage/user_lock.py)."""
        self._rate = RateLimiter(deps.limits.rate_per_minute, deps.limits.rate_burst)

    @property
    def deps(self) -> Core:
        """The composition root's record (its store, clock and limits are the service's own)."""
        return self._deps

    @deps.setter
    def deps(self, deps: Core) -> None:
        """A record set (at start, or by a test swapping one field of a built service): every handler bound to it."""
        self._deps = deps
        given = self._given if self._given is not None else deps.provided()
        self.provided: Mapping[str, object] = with_names(given, dispatch=self._run)
        """What a handler may name (bot/kernel/inject.py): the composition root's map (by default `deps.provided()`),
        and `dispatch`, this service running another command within the one handled (bot/kernel/routing.py)."""
        self._bound: dict[type, Bound] = bind_all(self.routes.handlers, self.provided)
        """Every handler with what it names: a name nothing provides raises here, at start-up."""
        self._jobs: dict[type, Bound] = bind_all(self.routes.jobs, self.provided, JOB_CALL)
        """Every job's handler (the regrade round) with what it names, as the commands' handlers."""
        self._hooks = bind_hooks(self.routes.hooks, self.provided)
        """The features' hooks around a command (bot/kernel/routing.py Hooks) with what they name."""

    def admit(self, user: User, platform: str, external_id: str, *, every_time: bool = False) -> list[Reply] | None:
        """The rate limit of the account `platform`:`external_id` (whose user is `user`), asked by the chat
        platforms before they hand a message on: None to go ahead, else the replies to send instead: a "slow
        down" the first time, then nothing (or the "slow down" again with `every_time`, where each request needs
        an answer, as a Discord interaction does). Kept per account, so a /forget does not refill it."""
        account = identity(platform, external_id)
        verdict = self._rate.take(account, self.deps.clock.now())
        if verdict is Admission.ADMIT:
            return None
        if verdict is Admission.REFUSE_QUIETLY and not every_time:
            return []
        seconds = self._rate.retry_after(account)
        return [Reply(t(user.language, "slow_down", seconds=seconds), kind="error")]

    def busy(self, user: User) -> list[Reply]:
        """What a chat platform says when it skipped messages of a chat whose queue is full."""
        return [Reply(t(user.language, "busy_chat"), kind="error")]

    async def user_for(
        self, platform: str, external_id: str, language: Lang | None = None, *, dm_opt_in: bool = True
    ) -> User:
        """The user behind a platform identity, created on first contact. `dm_opt_in` is the new
        user's daily-push default (False where pushes need an explicit opt-in, as on Discord)."""
        lim = self.deps.limits
        defaults = User(
            id=0,
            language=language or lim.default_language,
            timezone=lim.default_timezone,
            new_per_day=lim.default_new_per_day,
            created_at=self.deps.clock.now(),
            dm_opt_in=dm_opt_in,
        )
        return await self.deps.store.get_or_create_user(platform, external_id, defaults)

    async def language_of(self, user_id: int) -> Lang:
        """The user's language now (it changes with /lang and onboarding), for text an adapter adds itself."""
        user = await self.deps.store.get_user(user_id)
        return user.language if user is not None else self.deps.limits.default_language

    async def first_time(self, event_key: str) -> bool:
        """True the first time a platform event id is seen (redelivered events are dropped)."""
        return await self.deps.store.claim_event(event_key, self.deps.clock.now())

    def now(self) -> datetime:
        return self.deps.clock.now()

    async def begin_update(self, event_key: str, sole_consumer_since: datetime | None = None) -> EventClaim:
        """Claim a platform update that is redelivered until acknowledged (a Telegram webhook's): NEW to handle
        it (then `finish_update`), DONE to drop it, BUSY while another replica handles it (ask again later).
        A claim older than `Limits.update_stale_seconds` (3 minutes: longer than any command, a voice note's
        transcription and an LLM grading with its retries, so a live worker is never overtaken) and never finished
        (its replica died) is taken over.

        `sole_consumer_since`: the caller is the only consumer of these updates since then (Telegram long
        polling, where getUpdates serves one consumer at a time), so a claim left unfinished before then was
        made by a process that is gone and is taken over at once. Polling delivers an update again only after
        a restart and never again after that: waiting for the claim to go stale would lose it."""
        now = self.deps.clock.now()
        stale_before = now - timedelta(seconds=self.deps.limits.update_stale_seconds)
        if sole_consumer_since is not None:
            stale_before = max(stale_before, sole_consumer_since)
        return await self.deps.store.begin_event(event_key, now, stale_before)

    async def finish_update(self, event_key: str) -> None:
        await self.deps.store.finish_event(event_key)

    async def set_paused(self, user_id: int, paused: bool) -> None:
        """Pause pushes (a user who blocked the bot or closed DMs) or resume them."""
        user = await self.deps.store.get_user(user_id)
        if user is not None and user.paused != paused:
            await self.deps.store.save_user(user.model_copy(update={"paused": paused}))

    async def handle_text(self, user_id: int, text: str) -> list[Reply]:
        return await self.handle(parse_line(user_id, text))

    async def handle_action(self, user_id: int, action: str) -> list[Reply]:
        return await self.handle(parse_action(user_id, action))

    async def run_job(self, job: c.Job, notify: Notify | None = None) -> int:
        """Run a round of background work the scheduler sent (a `c.Job`): no user, so no user's lock (the job's
        handler claims what it works on in the database); `notify` reaches the users it tells (None: no one).
        Returns how many things it did; a failure is raised (the scheduler logs it, the next round tries again)."""
        bound = self._jobs.get(type(job))
        if bound is None:  # registered after the service was built (a test's job): bound now
            bound = self._jobs[type(job)] = bind(self.routes.jobs[type(job)], self.provided, JOB_CALL)
        done: int = await bound(job=job, notify=notify)
        return done

    async def handle(self, cmd: c.Command) -> list[Reply]:
        """Run one command: the user and their state are read (in one read) once the user's lock is held, so a
        command always starts from what the one before it left."""
        cmd = cleaned(cmd)
        async with self.user_lock.hold(cmd.user_id):
            found = await self.deps.store.get_user_and_session(cmd.user_id)
            if found is None:  # deleted (/forget) while this command was on its way; the next message starts afresh
                log.warning("user %s not found (deleted?): %s not handled", cmd.user_id, type(cmd).__name__)
                return [Reply(t(self.deps.limits.default_language, "user_gone"), kind="error")]
            user, session = found
            try:
                return await self._dispatch(cmd, user, session)
            except WriteFailed:  # rolled back: say plainly that it was not saved
                log.exception("a write failed for %s; nothing of it was saved", type(cmd).__name__)
                return [Reply(t(user.language, "error.not_saved"), kind="error")]
            except Exception:
                log.exception("handler failed for %s", type(cmd).__name__)
                return [Reply(t(user.language, "error"), kind="error")]

    async def _dispatch(self, cmd: c.Command, user: User, before: Session) -> list[Reply]:
        if isinstance(before, Forgotten) and not isinstance(cmd, c.StartUser):  # after /forget: greet, onboard
            greeting: list[Reply] = await self._hooks.greet(user=user, session=before)
            return greeting
        replies = await self._run(cmd, user, before)
        if any(r.waits_for for r in replies) or (isinstance(before, Idle) and before.menu is not None):
            await self._keep_menu(cmd, user, replies)
        return replies

    async def _run(self, cmd: c.Command, user: User, before: Session) -> list[Reply]:
        if isinstance(cmd, c.FreeText):
            return await self._free_text(cmd, user, before)
        if isinstance(cmd, c.FlowAction):
            pressed: list[Reply] = await self._hooks.flow_action(cmd=cmd, user=user, session=before)
            return pressed
        if isinstance(cmd, c.SubmitAnswer | c.SubmitVoice) and isinstance(before, Idle):  # Discord's /answer
            waiting = await self._waiting(user, before)
            if waiting is not None:
                return waiting
        if isinstance(cmd, c.Invalid):
            replies = self._invalid(cmd, user.language)
        else:
            replies = await self._handler(type(cmd))(cmd=cmd, user=user, session=before)
        if isinstance(before, InFlow):  # a /review or /interview was waiting: kept or dropped, the user is told
            restart = isinstance(cmd, c.StartFlow) and cmd.flow == before.flow
            told: list[Reply] = await self._hooks.after_command(
                before=before, replies=replies, user=user, restart=restart
            )
            return told
        return replies

    def _handler(self, kind: type) -> Bound:
        bound = self._bound.get(kind)
        if bound is None:  # registered after the service was built (a test's entry): bound now
            bound = self._bound[kind] = bind(self.routes.handlers[kind], self.provided)
        return bound

    async def _keep_menu(self, cmd: c.Command, user: User, replies: list[Reply]) -> None:
        """Remember the buttons of a reply that waits for a press (while nothing else is asked), so typed text is
        told what they wait for; forget them once another command moved on (text typed at them keeps them)."""
        shown = next((r for r in replies if r.waits_for), None)
        if shown is None and isinstance(cmd, c.FreeText | c.SubmitAnswer | c.SubmitVoice):
            return
        session = await self.deps.store.get_session(user.id)
        if not isinstance(session, Idle):
            return
        menu = None
        if shown is not None and shown.waits_for is not None:
            rows = [[MenuButton(label=b.label, action=b.action) for b in row] for row in shown.buttons]
            menu = Menu(waits_for=shown.waits_for, buttons=rows)
        if session.menu != menu:
            await self.deps.store.set_session(user.id, session.model_copy(update={"menu": menu}))

    async def _waiting(self, user: User, session: Idle) -> list[Reply] | None:
        """What the buttons last shown wait for, said to text typed at them, with the buttons again: a menu (the
        /mock Start menu, a /jd reading's days), or the rating an offline check waits for; None when nothing waits."""
        lang = user.language
        if session.menu is not None:
            rows = [[Button(b.label, b.action) for b in row] for row in session.menu.buttons]
            return [Reply(t(lang, session.menu.waits_for), rows, waits_for=session.menu.waits_for)]
        if session.last_attempt is not None:
            rating: Reply | None = await self._hooks.waiting_rating(user=user, attempt_id=session.last_attempt)
            if rating is not None:
                return [rating]
        return None

    def _invalid(self, cmd: c.Invalid, lang: Lang) -> list[Reply]:
        if cmd.reason == "usage":
            return [Reply(t(lang, "usage", usage=t(lang, cmd.usage_key)), kind="error")]
        return [Reply(t(lang, "unknown_command", command=cmd.command[:40]), kind="error")]

    async def _free_text(self, cmd: c.FreeText, user: User, session: Session) -> list[Reply]:
        taken: list[Reply] | None = await self._hooks.free_text(cmd=cmd, user=user, session=session)
        if taken is not None:
            return taken
        if not cmd.text.strip():
            return [Reply(t(user.language, "empty_answer"), kind="error")]
        if isinstance(session, Idle):
            waiting = await self._waiting(user, session)
            if waiting is not None:
                return waiting
        return [Reply(t(user.language, "no_open_question"))]
