"""Outgoing Bot API calls over aiohttp, through python-telegram-bot's documented `BaseRequest` seam.

PTB's default backend is httpx. Measured against the fake Bot API (bench/telegram_load.py and a
send_message loop), httpx cost 1.8-3.3 ms of CPU per call and its connection pool scans every
connection for every queued request, so a thousand handlers sending at once spent most of the
time there; aiohttp (already installed: discord.py uses it) costs about 0.3 ms per call and
queues waiters for a connection in O(1). The pool is `connection_pool_size` connections;
waiting for one counts against `pool_timeout`. Long polling keeps PTB's own httpx request.

A call without files goes as a JSON body, not a form: the Bot API takes both (each top-level value
a string, as PTB's `json_parameters` gives them, is read exactly as the form field would be), and
JSON is encoded in C, while form encoding percent-escapes every character of a long reply in Python
(measured: the largest single cost of sending a graded reply with its keyboard). A call with files
is a multipart form, as PTB sends it.

Every call first runs `reached_wire()`: PTB's rate limiter sits above this layer, so this is the
last moment before a scheduled push leaves, where the scheduler marks it "sending".
"""

from __future__ import annotations

from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.kernel.wire import reached_wire


def _value(given: Any, default: float | None) -> float | None:
    return default if isinstance(given, DefaultValue) else given


class AiohttpRequest(BaseRequest):
    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 10.0,
        media_read_timeout: float | None = 20.0,
    ) -> None:
        self.connection_pool_size = connection_pool_size
        self._read_timeout, self._connect_timeout, self._pool_timeout = read_timeout, connect_timeout, pool_timeout
        self._media_read_timeout = media_read_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self.connection_pool_size, limit_per_host=0)
            self._session = aiohttp.ClientSession(connector=connector, headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None:
            raise RuntimeError("AiohttpRequest is not initialized")
        await reached_wire()  # past the rate limiter: a scheduled push is marked "sending" now
        has_files = request_data is not None and request_data.contains_files
        connect = _value(connect_timeout, self._connect_timeout)
        pool = _value(pool_timeout, self._pool_timeout)
        timeout = aiohttp.ClientTimeout(
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect,
            sock_read=_value(read_timeout, self._media_read_timeout if has_files else self._read_timeout),
        )
        body = fields = None
        if request_data is not None:
            body, fields = (self._form(request_data), None) if has_files else (None, request_data.json_parameters)
        try:
            async with self._session.request(method, url, data=body, json=fields, timeout=timeout) as resp:
                return resp.status, await resp.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{type(err).__name__}: {err}") from err

    @staticmethod
    def _form(request_data: RequestData) -> aiohttp.FormData:
        """A multipart form of PTB's fields and files."""
        form = aiohttp.FormData()
        for name, value in request_data.json_parameters.items():
            form.add_field(name, value)
        for name, (filename, content, mime) in request_data.multipart_data.items():
            form.add_field(name, content, filename=filename, content_type=mime)
        return form
