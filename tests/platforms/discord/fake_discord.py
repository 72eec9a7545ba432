"""A local stand-in for Discord's REST API and CDN that records every request.

discord.py runs unmodified against it: the tests point `discord.http.Route.BASE` at this server,
so logging in, syncing commands, interaction callbacks, follow-ups (webhooks), DMs, channel posts
and attachment downloads all go over real HTTP on 127.0.0.1 and are recorded here.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

APP_ID = 1000
BOT_ID = 1001
BOT_USER = {"id": str(BOT_ID), "username": "drillbot", "discriminator": "0", "avatar": None, "bot": True}
CLOSED_DMS = {"code": 50007, "message": "Cannot send messages to this user"}
MISSING_ACCESS = {"code": 50001, "message": "Missing Access"}


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    json: Any = None
    files: dict[str, bytes] = field(default_factory=dict)
    at: float = field(default_factory=time.perf_counter)  # when it arrived (for benchmarks)

    @property
    def content(self) -> str:
        return str((self.json or {}).get("content") or "")

    @property
    def flags(self) -> int:
        body = self.json or {}
        return int((body.get("data") or body).get("flags") or 0)

    def custom_ids(self) -> list[str]:
        body = self.json or {}
        rows = body.get("components") or []
        return [c["custom_id"] for row in rows for c in row.get("components", []) if "custom_id" in c]


def user_payload(user_id: int, name: str = "member") -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "discriminator": "0", "avatar": None, "global_name": name}


def message_payload(
    message_id: int | str,
    channel_id: int | str,
    author: dict[str, Any],
    content: str,
    *,
    flags: int = 0,
    components: list[Any] | None = None,
    attachments: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A Discord message object, as the API returns it and as interactions carry it."""
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": content,
        "timestamp": "2026-03-02T09:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments or [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": flags,
        "components": components or [],
    }


def _json(data: Any, status: int = 200) -> web.Response:
    """discord.py reads a body as JSON only when the content type is exactly application/json."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.closed_dms: set[str] = set()  # user ids whose DMs are closed
        self.reject_token = False  # answer 401 to logging in
        self.expired: set[str] = set()  # interaction ids whose 3 seconds are over
        self.forbidden_channels: set[str] = set()  # channels the bot may not post in
        self.unavailable = 0  # the next N message posts answer 503 (discord.py raises it at once, no retry)
        self.cdn: dict[str, bytes] = {}  # file name -> bytes, served at /cdn/<name>
        self.url = ""
        self._ids = itertools.count(5_000_000)
        self._dm_owner: dict[str, str] = {}  # DM channel id -> user id
        self.deferred_flags: dict[str, int] = {}  # interaction token -> the flags it was deferred with
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Condition()
        self.gateway: web.WebSocketResponse | None = None
        self.identify: dict[str, Any] | None = None
        self._seq = itertools.count(1)

    # lifecycle ---------------------------------------------------------------------------
    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{path:.*}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def gateway_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/gateway"

    async def wait_for(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        """Until `condition` holds (checked after each request and gateway frame); bounded, never a sleep."""

        async def waiting() -> None:
            async with self._changed:
                await self._changed.wait_for(condition)

        await asyncio.wait_for(waiting(), timeout)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event (e.g. INTERACTION_CREATE) to the connected bot."""
        assert self.gateway is not None, "no bot is connected to the gateway"
        await self.gateway.send_json({"op": 0, "t": event, "s": next(self._seq), "d": data})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """Just enough of the gateway: HELLO, IDENTIFY -> READY, heartbeats acknowledged."""
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.gateway = ws
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45_000}})
        async for frame in ws:
            msg = json.loads(frame.data)
            if msg["op"] == 2:
                self.identify = msg["d"]
                ready = {
                    "v": 10,
                    "user": BOT_USER,
                    "guilds": [],
                    "session_id": "session-1",
                    "resume_gateway_url": self.gateway_url,
                    "application": {"id": str(APP_ID), "flags": 0},
                }
                await self.dispatch("READY", ready)
            elif msg["op"] == 1:
                await ws.send_json({"op": 11})
            await self._notify()
        self.gateway = None
        await self._notify()
        return ws

    def cdn_url(self, name: str) -> str:
        return f"{self.url}/cdn/{name}"

    # queries -----------------------------------------------------------------------------
    def to(self, fragment: str, method: str = "POST") -> list[Recorded]:
        return [r for r in self.requests if r.method == method and fragment in r.path]

    def messages(self) -> list[Recorded]:
        """Every message the bot sent: follow-ups, DMs and channel posts."""
        return [
            r for r in self.requests if r.method == "POST" and ("/webhooks/" in r.path or r.path.endswith("/messages"))
        ]

    # handling ----------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        recorded = await self._record(request)
        self.requests.append(recorded)
        await self._notify()
        path = recorded.path.removeprefix("/api/v10")
        method = request.method
        if path.startswith("/cdn/"):
            data = self.cdn.get(path[len("/cdn/") :])
            return web.Response(body=data) if data is not None else web.Response(status=404)
        if method == "GET" and path == "/users/@me":
            if self.reject_token:
                return _json({"code": 0, "message": "401: Unauthorized"}, status=401)
            return _json(BOT_USER)
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(self._app_info())
        if method == "PUT" and path.endswith("/commands"):
            return _json(
                [
                    {**cmd, "id": str(next(self._ids)), "application_id": str(APP_ID), "version": "1"}
                    for cmd in recorded.json
                ]
            )
        if method == "POST" and path.endswith("/callback"):
            if path.split("/")[2] in self.expired:
                return _json({"code": 10062, "message": "Unknown interaction"}, status=404)
            self.deferred_flags[path.split("/")[3]] = int(((recorded.json or {}).get("data") or {}).get("flags") or 0)
            return _json({"interaction": {"id": path.split("/")[2], "type": 2}})
        if method == "PATCH" and path.startswith("/webhooks/") and path.endswith("/messages/@original"):
            token = path.split("/")[3]  # the edited original keeps the flags it was deferred with (ephemeral)
            if recorded.json is not None and token in self.deferred_flags:
                recorded.json.setdefault("flags", self.deferred_flags[token])
            return _json(self._message(recorded, channel_id="1"))
        if method == "POST" and path.startswith("/webhooks/"):
            return _json(self._message(recorded, channel_id="1"))
        if method == "POST" and path == "/users/@me/channels":
            return _json(self._dm_channel(str(recorded.json["recipient_id"])))
        if method == "POST" and path.endswith("/typing"):
            return web.Response(status=204)
        if method == "POST" and path.endswith("/messages"):
            channel_id = path.split("/")[2]
            if self.unavailable > 0:
                self.unavailable -= 1
                return _json({"code": 0, "message": "Service Unavailable"}, status=503)
            if self._dm_owner.get(channel_id) in self.closed_dms:
                return _json(CLOSED_DMS, status=403)
            if channel_id in self.forbidden_channels:
                return _json(MISSING_ACCESS, status=403)
            return _json(self._message(recorded, channel_id=channel_id))
        return _json({"code": 0, "message": f"fake Discord has no route {method} {path}"}, status=404)

    async def _record(self, request: web.Request) -> Recorded:
        body: Any = None
        files: dict[str, bytes] = {}
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            form = await request.post()
            for name, value in form.items():
                if name == "payload_json":
                    body = json.loads(str(value))
                elif isinstance(value, web.FileField):
                    files[value.filename] = value.file.read()
        return Recorded(request.method, request.path, dict(request.query), body, files)

    def _app_info(self) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "name": "drillbot",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": user_payload(1),
            "verify_key": "0" * 64,
            "flags": 0,
        }

    def _dm_channel(self, user_id: str) -> dict[str, Any]:
        channel_id = str(next(self._ids))
        self._dm_owner[channel_id] = user_id
        return {"id": channel_id, "type": 1, "recipients": [user_payload(int(user_id))], "last_message_id": None}

    def _message(self, recorded: Recorded, channel_id: str) -> dict[str, Any]:
        body = recorded.json or {}
        return message_payload(
            next(self._ids),
            channel_id,
            BOT_USER,
            body.get("content") or "",
            flags=body.get("flags", 0),
            components=body.get("components", []),
        )
