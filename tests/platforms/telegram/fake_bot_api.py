"""A fake Telegram Bot API server for tests and benchmarks: the real python-telegram-bot talks to it
over HTTP through its configurable base URL, so the whole library runs unmodified.

It serves getMe, getUpdates (long polling), sendMessage, editMessageText, deleteMessage,
answerCallbackQuery, sendChatAction, sendMessageDraft, sendPhoto, sendDocument, getFile and file downloads,
setMyCommands, setWebhook / deleteWebhook. It checks what Telegram checks that matters here
(HTML entities, 4,096 characters, 64-byte callback data) and can be told to answer 429 (with
retry_after) or 400, and to answer 403 for a chat whose user blocked the bot.

Tests use the Python API in the same event loop; a benchmark in another process uses the
/_control/ endpoints (push updates, read what was sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from aiohttp import web

TOKEN = "123456:TEST-token"
BOT_USER = {"id": 123456, "is_bot": True, "first_name": "DrillBot", "username": "drill_test_bot"}
JSON_FIELDS = {"reply_markup", "commands", "allowed_updates", "chat_id", "message_id", "offset", "limit"}
SEND_METHODS = {"sendMessage", "editMessageText", "sendPhoto", "sendDocument", "sendChatAction", "deleteMessage"}
_TAG = re.compile(r"<(/?)(b|strong|i|em|u|ins|s|strike|del|code|pre|a|span|tg-spoiler|blockquote|tg-emoji)(\s[^<>]*)?>")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-fA-F]{1,6});")


class EntityError(ValueError):
    pass


def visible_html(text: str) -> str:
    """The text a user sees for parse_mode=HTML, or EntityError as Telegram's parser would refuse it."""
    out, stack, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "<":
            m = _TAG.match(text, i)
            if m is None:
                raise EntityError(f"Unsupported start tag at byte offset {i}")
            if m.group(1):
                if not stack or stack.pop() != m.group(2):
                    raise EntityError(f"Unmatched end tag at byte offset {i}")
            else:
                stack.append(m.group(2))
            i = m.end()
        elif ch == "&":
            m = _ENTITY.match(text, i)
            if m is None:
                raise EntityError(f"Can't find end of the entity starting at byte offset {i}")
            out.append(unescape(m.group(0)))
            i = m.end()
        elif ch == ">":
            raise EntityError(f"Unexpected end tag at byte offset {i}")
        else:
            out.append(ch)
            i += 1
    if stack:
        raise EntityError(f"Can't find end tag corresponding to start tag {stack[-1]}")
    return "".join(out)


class ApiError(Exception):
    def __init__(self, code: int, description: str, retry_after: float | None = None) -> None:
        super().__init__(description)
        self.code, self.description, self.retry_after = code, description, retry_after


@dataclass
class Sent:
    """One call that shows something to a user (message, edit, photo, document, chat action, deletion)."""

    method: str
    chat_id: int
    text: str  # as the user sees it (entities parsed)
    message_id: int
    params: dict[str, Any]
    at: float = field(default_factory=time.monotonic)

    @property
    def buttons(self) -> list[list[tuple[str, str]]]:
        markup = self.params.get("reply_markup") or {}
        return [[(b["text"], b.get("callback_data", "")) for b in row] for row in markup.get("inline_keyboard", [])]

    @property
    def actions(self) -> list[str]:
        return [data for row in self.buttons for _, data in row]


class FakeBotApi:
    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self.pending: list[dict[str, Any]] = []
        self.pushed_at: dict[int, float] = {}
        self.sent: list[Sent] = []
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.content_types: list[tuple[str, str]] = []  # (method, the request body's content type)
        self.commands: dict[str, list[dict[str, str]]] = {}
        self.webhook: dict[str, Any] | None = None
        self.files: dict[str, tuple[str, bytes]] = {}
        self.blocked: set[int] = set()
        self.failures: dict[str, list[ApiError]] = {}
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.closing = False
        self.port = 0

    # --- lifecycle

    async def start(self, port: int = 0) -> FakeBotApi:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._api)
        app.router.add_get("/file/bot{token}/{path:.+}", self._file)
        app.router.add_post("/_control/updates", self._control_push)
        app.router.add_get("/_control/sent", self._control_sent)
        app.router.add_get("/_control/wait", self._control_wait)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port, backlog=4096)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        self.closing = True  # ends the long polls still waiting
        self._notify()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    # --- what tests call

    def push(self, *updates: dict[str, Any]) -> list[int]:
        """Queue updates for getUpdates (an update without update_id gets the next one)."""
        ids = []
        for update in updates:
            update.setdefault("update_id", next(self._update_ids))
            self.pending.append(update)
            self.pushed_at.setdefault(update["update_id"], time.monotonic())
            ids.append(update["update_id"])
        self._notify()
        return ids

    def fail(self, method: str, code: int, description: str, retry_after: float | None = None, times: int = 1) -> None:
        """The next `times` calls of `method` answer with this error."""
        self.failures.setdefault(method, []).extend(ApiError(code, description, retry_after) for _ in range(times))

    def add_file(self, data: bytes, path: str = "voice/file_0.oga") -> str:
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = (path, data)
        return file_id

    def to(self, chat_id: int, method: str | None = "sendMessage") -> list[Sent]:
        return [s for s in self.sent if s.chat_id == chat_id and (method is None or s.method == method)]

    def messages(self, chat_id: int) -> list[Sent]:
        """What the chat shows: sent messages, photos and documents (edits are applied in place)."""
        shown: dict[int, Sent] = {}
        for s in self.sent:
            if s.chat_id != chat_id:
                continue
            if s.method in ("sendMessage", "sendPhoto", "sendDocument", "editMessageText"):
                shown[s.message_id] = s
            elif s.method == "deleteMessage":
                shown.pop(s.message_id, None)
        return [shown[k] for k in sorted(shown)]

    async def wait_for(self, check: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until `check()` is truthy (re-checked after every API call); returns its value."""
        async with self._changed:
            return await asyncio.wait_for(self._changed.wait_for(check), timeout)

    # --- HTTP

    def _notify(self) -> None:
        async def notify() -> None:
            async with self._changed:
                self._changed.notify_all()

        asyncio.get_running_loop().create_task(notify())

    async def _params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query)
        if request.method == "POST":
            if request.content_type == "application/json":
                params.update(await request.json())
            else:
                for key, value in (await request.post()).items():
                    params[key] = value if isinstance(value, str) else value.file.read()  # type: ignore[union-attr]
        for key in JSON_FIELDS & params.keys():
            with contextlib.suppress(TypeError, ValueError):
                params[key] = json.loads(params[key])
        return params

    async def _api(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        method = request.match_info["method"]
        params = await self._params(request)
        self.calls.append((method, params))
        self.content_types.append((method, request.content_type))
        self._notify()
        try:
            queued = self.failures.get(method)
            if queued:
                raise queued.pop(0)
            if method in SEND_METHODS and params.get("chat_id") in self.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            handler = getattr(self, f"_m_{method}", None)
            if handler is None:
                raise ApiError(404, f"Not Found: method {method} not in the fake")
            result = await handler(params)
        except ApiError as err:
            body: dict[str, Any] = {"ok": False, "error_code": err.code, "description": err.description}
            if err.retry_after is not None:
                body["parameters"] = {"retry_after": err.retry_after}
            self._notify()
            return web.json_response(body, status=err.code)
        self._notify()
        return web.json_response({"ok": True, "result": result})

    async def _file(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        for stored, data in self.files.values():
            if stored == path:
                return web.Response(body=data)
        return web.Response(status=404)

    async def _control_push(self, request: web.Request) -> web.Response:
        return web.json_response(self.push(*await request.json()))

    async def _control_wait(self, request: web.Request) -> web.Response:
        """Wait until `count` messages or edits starting with `prefix` were sent after the first `since` calls."""
        count, since, prefix = int(request.query["count"]), int(request.query["since"]), request.query["prefix"]
        timeout = float(request.query.get("timeout", 60))

        found: list[Sent] = []
        seen = since

        def enough() -> bool:  # scans only what arrived since the last check: a benchmark waits on thousands
            nonlocal seen
            for s in self.sent[seen:]:
                if s.method in ("sendMessage", "editMessageText") and s.text.startswith(prefix):
                    found.append(s)
            seen = max(seen, len(self.sent))
            return len(found) >= count

        with contextlib.suppress(TimeoutError):
            await self.wait_for(enough, timeout)
        rows = [{"chat_id": s.chat_id, "at": s.at} for s in found]
        return web.json_response({"hits": rows, "sent": len(self.sent), "pushed_at": self.pushed_at})

    async def _control_sent(self, request: web.Request) -> web.Response:
        rows = [{"method": s.method, "chat_id": s.chat_id, "text": s.text, "at": s.at} for s in self.sent]
        return web.json_response({"sent": rows, "pushed_at": self.pushed_at})

    # --- methods

    def _message(self, chat_id: int, **extra: Any) -> dict[str, Any]:
        return {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private", "first_name": "User"},
            "from": BOT_USER,
            **extra,
        }

    def _text(self, params: dict[str, Any], key: str, limit: int) -> str:
        raw = str(params.get(key) or "")
        text = raw
        if str(params.get("parse_mode") or "").upper() == "HTML":
            try:
                text = visible_html(raw)
            except EntityError as err:
                raise ApiError(400, f"Bad Request: can't parse entities: {err}") from None
        if len(text.encode("utf-16-le")) // 2 > limit:
            raise ApiError(400, "Bad Request: message is too long")
        for row in (params.get("reply_markup") or {}).get("inline_keyboard", []):
            for button in row:
                if len(button.get("callback_data", "").encode()) > 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
        return text

    def _record(self, method: str, params: dict[str, Any], text: str, message_id: int) -> None:
        self.sent.append(Sent(method, int(params["chat_id"]), text, message_id, params))

    async def _m_getMe(self, params: dict[str, Any]) -> Any:
        return {**BOT_USER, "can_join_groups": False, "can_read_all_group_messages": False}

    async def _m_getUpdates(self, params: dict[str, Any]) -> Any:
        offset, limit = int(params.get("offset") or 0), int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        self.pending = [u for u in self.pending if u["update_id"] >= offset]
        if not self.pending and timeout > 0:
            try:
                await self.wait_for(lambda: self.pending or self.closing, timeout)
            except TimeoutError:
                return []
        return self.pending[:limit]

    async def _m_sendMessage(self, params: dict[str, Any]) -> Any:
        text = self._text(params, "text", 4096)
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        msg = self._message(int(params["chat_id"]), text=text)
        self._record("sendMessage", params, text, msg["message_id"])
        return msg

    async def _m_editMessageText(self, params: dict[str, Any]) -> Any:
        text = self._text(params, "text", 4096)
        mid = int(params["message_id"])
        if not any(s.message_id == mid for s in self.sent):
            raise ApiError(400, "Bad Request: message to edit not found")
        self._record("editMessageText", params, text, mid)
        return self._message(int(params["chat_id"]), text=text) | {"message_id": mid}

    async def _m_deleteMessage(self, params: dict[str, Any]) -> Any:
        self._record("deleteMessage", params, "", int(params["message_id"]))
        return True

    async def _m_sendPhoto(self, params: dict[str, Any]) -> Any:
        caption = self._text(params, "caption", 1024)
        msg = self._message(
            int(params["chat_id"]), photo=[{"file_id": "p1", "file_unique_id": "p1", "width": 1, "height": 1}]
        )
        self._record("sendPhoto", params, caption, msg["message_id"])
        return msg

    async def _m_sendDocument(self, params: dict[str, Any]) -> Any:
        caption = self._text(params, "caption", 1024)
        msg = self._message(int(params["chat_id"]), document={"file_id": "d1", "file_unique_id": "d1"})
        self._record("sendDocument", params, caption, msg["message_id"])
        return msg

    async def _m_sendMessageDraft(self, params: dict[str, Any]) -> Any:
        if not int(params.get("draft_id") or 0):
            raise ApiError(400, "Bad Request: draft_id must be non-zero")
        text = self._text(params, "text", 4096)
        self._record("sendMessageDraft", params, text, 0)
        return True

    async def _m_sendChatAction(self, params: dict[str, Any]) -> Any:
        self._record("sendChatAction", params, str(params.get("action")), 0)
        return True

    async def _m_answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        return True

    async def _m_setMyCommands(self, params: dict[str, Any]) -> Any:
        self.commands[str(params.get("language_code") or "")] = params["commands"]
        return True

    async def _m_setWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook = params
        return True

    async def _m_deleteWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook = None
        return True

    async def _m_getFile(self, params: dict[str, Any]) -> Any:
        file_id = str(params.get("file_id"))
        if file_id not in self.files:
            raise ApiError(400, "Bad Request: invalid file_id")
        path, data = self.files[file_id]
        return {"file_id": file_id, "file_unique_id": file_id, "file_size": len(data), "file_path": path}
