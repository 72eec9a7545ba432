"""The dispatcher: each tick asks the database what is due and delivers it exactly once.

Order for every push: claim (a unique key, one short transaction), build the replies, mark
"sending" (committed by the adapter's `about_to_send` call right before the request leaves, with
the replies), send, then act on the outcome the adapter reports (bot/kernel/ports.py Delivery):
delivered is marked sent; unreachable pauses the user and is marked paused; failed goes back to
"claimed" and is retried. A crash before "sending" leaves a claim that a later tick takes over
once it is older than `stale_after` and builds again (nothing was sent); a crash after it leaves
a push that may have arrived, which is never sent again (at most once: bot/kernel/wire.py). Users are
streamed page by page and sends run through a bounded pool of workers, so a large due list
keeps the platform's rate limiter busy without loading everything at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.kernel import push_rules
from bot.kernel.deps import Core
from bot.kernel.ports import AboutToSend, Delivery
from bot.kernel.replies import Button, Reply
from bot.kernel.store_ports import PushPort, StaleClaim

log = logging.getLogger(__name__)
Send = Callable[[int, list[Reply], AboutToSend | None], Awaitable[Delivery]]
PostChannel = Callable[[str, list[Reply], AboutToSend | None], Awaitable[Delivery]]
Pause = Callable[[int], Awaitable[None]]
Reachable = Callable[[int], Awaitable[bool]]
MAX_ATTEMPTS = 3
POST_INTERVIEW_AGAIN = timedelta(days=1)


def dump_replies(replies: list[Reply]) -> list[dict[str, Any]]:
    return [
        {"text": r.text, "kind": r.kind, "buttons": [[[b.label, b.action] for b in row] for row in r.buttons]}
        for r in replies
    ]


def load_replies(data: list[dict[str, Any]]) -> list[Reply]:
    return [
        Reply(d["text"], [[Button(label, action) for label, action in row] for row in d["buttons"]], kind=d["kind"])
        for d in data
    ]


@dataclass
class TickReport:
    sent: int = 0
    skipped: int = 0
    failed: int = 0
    paused: int = 0  # the user could not be reached (blocked the bot, closed DMs): paused, not sent
    retried: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


@dataclass
class Job:
    push_id: int | None  # None for reminders, which carry their own row
    user_id: int
    kind: str
    build: Callable[[], Awaitable[list[Reply] | None]] | None = None
    replies: list[Reply] | None = None
    reminder_id: int | None = None
    channel_id: str | None = None  # a study server's channel instead of a user


class Dispatcher:
    def __init__(
        self,
        deps: Core,
        pushes: PushPort,
        send: Send,
        pause: Pause,
        *,
        concurrency: int = 16,
        page_size: int = 500,
        stale_after: timedelta = timedelta(minutes=5),
        skip_if_practised: bool = True,
        post_channel: PostChannel | None = None,
        reachable: Reachable | None = None,
    ) -> None:
        self.post_channel = post_channel
        self.reachable = reachable
        """Where not every user can be reached now (the terminal chat serves only its own user): whether a user's
        push may be claimed. A push for anyone else stays due, for the process that can deliver it; None: all."""
        self.deps = deps
        self.builders = push_rules.bind_pushes(deps.provided())
        """The features' push builders with what they name (an unknown name fails here, at start-up)."""
        self.pushes = pushes
        self.send = send
        self.pause = pause
        self.concurrency = concurrency
        self.page_size = page_size
        self.stale_after = stale_after
        self.skip_if_practised = skip_if_practised
        self._lock = asyncio.Lock()
        self._stopping = False

    def stop(self) -> None:
        """Shutting down: the round in progress finishes the sends already under way and claims
        nothing more; jobs claimed but not started stay claimed, for the next process to retry."""
        self._stopping = True

    async def wait_idle(self) -> None:
        async with self._lock:
            pass

    @property
    def busy(self) -> bool:
        return self._lock.locked()

    async def tick(self) -> TickReport:
        """One round: retry stale claims, reminders, then daily drills, weekly summaries and nudges."""
        async with self._lock:  # ticks never overlap within a process
            report = TickReport()
            if self._stopping:
                return report
            queue: asyncio.Queue[Job | None] = asyncio.Queue(maxsize=self.concurrency * 4)
            workers = [asyncio.create_task(self._worker(queue, report)) for _ in range(self.concurrency)]
            try:
                now = self.deps.clock.now()
                await self._stale(queue, now, report)
                await self._reminders(queue, now)
                await self._guilds(queue, now)
                await self._users(queue, now)
            finally:
                for _ in workers:
                    await queue.put(None)
                await asyncio.gather(*workers)
            return report

    # producers --------------------------------------------------------------------------
    async def _stale(self, queue: asyncio.Queue[Job | None], now: datetime, report: TickReport) -> None:
        """Claims left by a crash: send the replies built before it, or build them now."""
        cutoff = now - self.stale_after
        if unconfirmed := await self.pushes.abandon_unconfirmed(cutoff):
            log.warning("%d pushes were being sent when the bot stopped: they may not have arrived, and are "
                        "not sent again (state 'unconfirmed')", unconfirmed)  # fmt: skip
        left: set[int] = set()  # claims of users this process cannot reach: left for one that can
        while claims := [x for x in await self.pushes.stale_claims(cutoff) if x.id not in left]:
            for claim in claims:
                if self.reachable is not None and not await self.reachable(claim.user_id or 0):
                    left.add(claim.id)
                elif await self.pushes.reclaim(claim.id, cutoff, now):
                    report.retried += 1
                    await self._retry(queue, claim, now)

    async def _retry(self, queue: asyncio.Queue[Job | None], claim: StaleClaim, now: datetime) -> None:
        saved, channel = claim.payload.get("replies"), claim.payload.get("channel_id")
        if claim.attempts > MAX_ATTEMPTS:
            await self.pushes.mark(claim.id, "failed", now)
        elif saved and (channel or claim.user_id is not None):
            replies = load_replies(saved)
            await queue.put(Job(claim.id, claim.user_id or 0, claim.kind, replies=replies, channel_id=channel))
        elif claim.user_id is not None and claim.kind in ("daily", "nudge", "weekly"):
            user = await self.deps.store.get_user(claim.user_id)
            if user is None or user.paused:
                await self.pushes.mark(claim.id, "skipped", now)
                return
            last = (await self.pushes.last_answers([user.id])).get(user.id)
            await queue.put(Job(claim.id, user.id, claim.kind, build=self._builder(claim.kind, user, last, now)))
        else:
            await self.pushes.mark(claim.id, "skipped", now)

    async def _reminders(self, queue: asyncio.Queue[Job | None], now: datetime) -> None:
        cutoff = now - self.stale_after
        for reminder in await self.pushes.due_reminders(now, cutoff):
            if self.reachable is not None and not await self.reachable(reminder.user_id):
                continue
            if not await self.pushes.claim_reminder(reminder.id, now, cutoff):
                continue
            user = await self.deps.store.get_user(reminder.user_id)
            if user is None or user.paused:
                await self.pushes.mark_reminder(reminder.id, "failed")
                continue

            async def build(user=user, reminder=reminder) -> list[Reply] | None:  # type: ignore[no-untyped-def]
                return await self.builders.reminder(user, reminder)

            await queue.put(Job(None, user.id, reminder.kind, build=build, reminder_id=reminder.id))

    async def _guilds(self, queue: asyncio.Queue[Job | None], now: datetime) -> None:
        """Each study server's daily question, in its channel, once per local day."""
        if self.post_channel is None:
            return
        for guild in await self.deps.store.list_guilds():
            day = push_rules.daily_date(guild, now)
            if day is None:
                continue
            key = f"guild:{guild.id}:{day.isoformat()}"
            push_id = await self.pushes.claim(key, "guild_daily", now, guild_id=guild.id)
            if push_id is None:
                continue

            async def build(guild=guild) -> list[Reply] | None:  # type: ignore[no-untyped-def]
                post = self.builders.server_post(guild, now)
                return [post] if post is not None else None

            await queue.put(Job(push_id, 0, "guild_daily", build=build, channel_id=guild.channel_id))

    async def _users(self, queue: asyncio.Queue[Job | None], now: datetime) -> None:
        after = 0
        while not self._stopping:
            users = await self.pushes.users_page(after, self.page_size)
            if not users:
                return
            after = users[-1].id
            candidates: list[tuple[str, str, Any]] = []  # (key, kind, user)
            for user in users:
                if push_rules.in_quiet_hours(user, now):
                    continue
                if self.reachable is not None and not await self.reachable(user.id):
                    continue
                day = push_rules.daily_date(user, now)
                if day is not None:
                    candidates.append((push_rules.daily_key(user.id, day), "daily", user))
                    candidates.append((push_rules.nudge_key(user, now), "nudge", user))
                weekly = push_rules.weekly_key(user, now)
                if weekly is not None:
                    candidates.append((weekly, "weekly", user))
            if not candidates:
                continue
            done = await self.pushes.existing_keys([k for k, _, _ in candidates])
            todo = [c for c in candidates if c[0] not in done]
            last = await self.pushes.last_answers([u.id for _, _, u in todo])
            won = await self.pushes.claim_many([(key, kind, user.id) for key, kind, user in todo], now)
            for key, kind, user in todo:
                if key not in won:
                    continue  # another scheduler has it
                job = Job(won[key], user.id, kind, build=self._builder(kind, user, last.get(user.id), now))
                await queue.put(job)

    def _builder(self, kind: str, user: Any, last: datetime | None, now: datetime):  # type: ignore[no-untyped-def]
        async def build() -> list[Reply] | None:
            if kind == "daily" and self.skip_if_practised and push_rules.practised_before_push(user, last, now):
                return None
            return await self.builders.push(kind, user, last)

        return build

    # consumer ---------------------------------------------------------------------------
    async def _worker(self, queue: asyncio.Queue[Job | None], report: TickReport) -> None:
        while (job := await queue.get()) is not None:
            if self._stopping:
                continue  # claimed, not started: the next process retries it after the stale timeout
            try:
                await self._deliver(job, report)
            except Exception:  # building the push, or recording its outcome
                log.exception("push %s for user %d failed", job.kind, job.user_id)
                report.failed += 1

    async def _finish(self, job: Job, state: str) -> None:
        if job.reminder_id is not None:
            await self.pushes.mark_reminder(job.reminder_id, state)
            if state == "sent" and job.kind == "post_interview":
                await self._schedule_second_reminder(job.reminder_id)
        elif job.push_id is not None:
            await self.pushes.mark(job.push_id, state, self.deps.clock.now())

    async def _schedule_second_reminder(self, reminder_id: int) -> None:
        """One more reminder the next day; it is sent only if nothing was logged meanwhile."""
        first = await self.pushes.get_reminder(reminder_id)
        if first is not None:
            again = first.model_copy(
                update={"id": 0, "kind": "post_interview_again", "due_at": first.due_at + POST_INTERVIEW_AGAIN,
                        "state": "pending", "attempts": 0, "claimed_at": None}
            )  # fmt: skip
            await self.deps.store.add_reminder(again)

    def _wire_mark(self, job: Job, replies: list[Reply]) -> tuple[AboutToSend, Callable[[], bool]]:
        """The `about_to_send` hook the platform adapter runs right before the push's first request
        leaves: it commits the push as "sending", with the replies it carries."""
        marked = False

        async def mark() -> None:
            nonlocal marked
            if marked:
                return
            if job.reminder_id is not None:
                await self.pushes.mark_reminder(job.reminder_id, "sending", self.deps.clock.now())
            elif job.push_id is not None:
                payload = {"replies": dump_replies(replies), "channel_id": job.channel_id}
                await self.pushes.mark_sending(job.push_id, payload, self.deps.clock.now())
            marked = True

        return mark, lambda: marked

    async def _release(self, job: Job) -> None:
        """The platform refused with an error we saw: not delivered, so retry it later."""
        if job.reminder_id is not None:
            await self.pushes.mark_reminder(job.reminder_id, "claimed")
        elif job.push_id is not None:
            await self.pushes.release(job.push_id)

    async def _deliver(self, job: Job, report: TickReport) -> None:
        replies = job.replies
        if replies is None and job.build is not None:
            replies = await job.build()
        if not replies:
            await self._finish(job, "skipped")
            report.skipped += 1
            return
        mark, marked = self._wire_mark(job, replies)
        try:
            if job.channel_id is not None and self.post_channel is not None:
                outcome = await self.post_channel(job.channel_id, replies, mark)
            else:
                outcome = await self.send(job.user_id, replies, mark)
        except Exception:
            log.exception("push %s for user %d: the platform adapter raised", job.kind, job.user_id)
            outcome = Delivery.FAILED
        await self._settle(job, outcome, marked(), report)

    async def _settle(self, job: Job, outcome: Delivery, marked: bool, report: TickReport) -> None:
        """The policy for each outcome the adapter reported."""
        if outcome is Delivery.DELIVERED:
            await self._finish(job, "sent")
            report.sent += 1
            report.kinds[job.kind] = report.kinds.get(job.kind, 0) + 1
        elif outcome is Delivery.UNREACHABLE and job.channel_id is None:
            await self.pause(job.user_id)  # blocked the bot or closed DMs: no more pushes until they are back
            await self._finish(job, "paused")
            report.paused += 1
        elif outcome is Delivery.UNREACHABLE:  # the channel is gone or closed to the bot
            await self._finish(job, "failed")
            report.failed += 1
        elif outcome is Delivery.NO_ROUTE:
            await self._finish(job, "skipped")
            report.skipped += 1
        else:  # FAILED: not delivered; retried (a claim never marked "sending" is retried once it is stale)
            if marked:
                await self._release(job)
            report.failed += 1
