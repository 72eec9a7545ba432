"""Raw Bot API update payloads, as Telegram sends them, for the fake server to deliver."""

from __future__ import annotations

import itertools
import time
from typing import Any

from tests.platforms.telegram.fake_bot_api import BOT_USER

_ids = itertools.count(1)


def user(chat_id: int, language_code: str = "en") -> dict[str, Any]:
    return {"id": chat_id, "is_bot": False, "first_name": f"User{chat_id}", "language_code": language_code}


def chat(chat_id: int) -> dict[str, Any]:
    return {"id": chat_id, "type": "private", "first_name": f"User{chat_id}"}


def text(chat_id: int, body: str, language_code: str = "en") -> dict[str, Any]:
    message: dict[str, Any] = {
        "message_id": next(_ids),
        "date": int(time.time()),
        "chat": chat(chat_id),
        "from": user(chat_id, language_code),
        "text": body,
    }
    if body.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(body.split()[0])}]
    return {"message": message}


def voice(chat_id: int, file_id: str, seconds: int = 3, size: int = 2000) -> dict[str, Any]:
    message = {
        "message_id": next(_ids),
        "date": int(time.time()),
        "chat": chat(chat_id),
        "from": user(chat_id),
        "voice": {"file_id": file_id, "file_unique_id": file_id, "duration": seconds, "mime_type": "audio/ogg",
                  "file_size": size},
    }  # fmt: skip
    return {"message": message}


def sticker(chat_id: int) -> dict[str, Any]:
    message = {
        "message_id": next(_ids),
        "date": int(time.time()),
        "chat": chat(chat_id),
        "from": user(chat_id),
        "sticker": {"file_id": "s1", "file_unique_id": "s1", "width": 512, "height": 512, "is_animated": False,
                    "is_video": False, "type": "regular"},
    }  # fmt: skip
    return {"message": message}


def button(chat_id: int, data: str, message_id: int = 1) -> dict[str, Any]:
    query = {
        "id": f"cq{next(_ids)}",
        "from": user(chat_id),
        "chat_instance": f"ci{chat_id}",
        "data": data,
        "message": {"message_id": message_id, "date": int(time.time()), "chat": chat(chat_id), "from": BOT_USER,
                    "text": "..."},
    }  # fmt: skip
    return {"callback_query": query}


def membership(chat_id: int, status: str) -> dict[str, Any]:
    """The user blocked the bot ('kicked') or came back ('member')."""
    old = "member" if status == "kicked" else "kicked"
    change = {
        "chat": chat(chat_id),
        "from": user(chat_id),
        "date": int(time.time()),
        "old_chat_member": {"user": BOT_USER, "status": old, **({"until_date": 0} if old == "kicked" else {})},
        "new_chat_member": {"user": BOT_USER, "status": status, **({"until_date": 0} if status == "kicked" else {})},
    }
    return {"my_chat_member": change}
