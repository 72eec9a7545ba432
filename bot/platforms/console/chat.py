"""The terminal chat: the same commands as the chat platforms, typed or piped on standard input.

A message is one line; a multi-line answer goes between two lines of three double quotes
(\"\"\"). When buttons are shown, typing the number of a button presses it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.core.i18n import t
from bot.core.models import Lang
from bot.core.ports import AboutToSend, Delivery
from bot.core.replies import Reply
from bot.core.service import Service

FENCE = '"""'


def read_messages(stream: TextIO) -> list[str]:
    """Split an input stream into messages (used for piped input and tests)."""
    messages, block, inside = [], [], False
    for raw in stream:
        line = raw.rstrip("\n")
        if line.strip() == FENCE:
            if inside:
                messages.append("\n".join(block))
                block = []
            inside = not inside
            continue
        if inside:
            block.append(line)
        elif line.strip():
            messages.append(line)
    if inside and block:
        messages.append("\n".join(block))
    return messages


class ConsoleChat:
    def __init__(self, service: Service, user_id: int, out: TextIO, save_dir: Path, lang: Lang = "en") -> None:
        self.service = service
        self.user_id = user_id
        self.out = out
        self.save_dir = save_dir
        self.lang = lang  # the user's language, for the few lines the terminal adds itself
        self.buttons: list[str] = []

    async def send(self, message: str) -> list[Reply]:
        text = message.strip()
        if text.isdigit() and self.buttons and 1 <= int(text) <= len(self.buttons):
            replies = await self.service.handle_action(self.user_id, self.buttons[int(text) - 1])
        else:
            replies = await self.service.handle_text(self.user_id, message)
        self.lang = await self.service.language_of(self.user_id)
        self.render(replies)
        return replies

    def render(self, replies: list[Reply]) -> None:
        self.buttons = []
        for reply in replies:
            self.out.write(reply.text + "\n")
            for attachment in (reply.image, reply.file):
                if attachment is not None:
                    self.save_dir.mkdir(parents=True, exist_ok=True)
                    path = self.save_dir / attachment.filename
                    path.write_bytes(attachment.data)
                    self.out.write(t(self.lang, "console.saved", path=path) + "\n")
            labels = []
            for row in reply.buttons:
                for b in row:
                    self.buttons.append(b.action)
                    labels.append(f"[{len(self.buttons)}] {b.label}")
            if labels:
                self.out.write("  ".join(labels) + "\n")
            self.out.write("\n")
        self.out.flush()


class ConsoleNotifier:
    """Pushes to the terminal user by printing (the console's identity is 'local')."""

    platform = "console"
    requires_opt_in = False

    def __init__(self, chat: ConsoleChat) -> None:
        self.chat = chat

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        if about_to_send is not None:
            await about_to_send()
        self.chat.render(list(replies))
        return Delivery.DELIVERED


async def run_console(
    service: Service,
    external_id: str,
    stdin: TextIO,
    out: TextIO,
    save_dir: Path,
    lang: str | None = None,
    router: Any = None,
) -> None:
    """Chat until end of input. With a NotifierRouter, pushes (regrades, reminders) print here too."""
    user = await service.user_for("console", external_id, "zh" if lang == "zh" else None)
    chat = ConsoleChat(service, user.id, out, save_dir, user.language)
    if router is not None:
        router.add(ConsoleNotifier(chat))
    interactive = stdin.isatty()
    if not interactive:
        for message in read_messages(stdin):
            out.write(f"> {message}\n")
            await chat.send(message)
        return
    out.write(t(user.language, "console.banner") + "\n\n")
    read: Callable[[], str] = stdin.readline
    loop = asyncio.get_running_loop()
    while True:
        out.write("> ")
        out.flush()
        line = await loop.run_in_executor(None, read)
        if not line or line.strip() in ("/quit", "/exit"):
            return
        if line.strip() == FENCE:
            block = []
            while True:
                more = await loop.run_in_executor(None, read)
                if not more or more.strip() == FENCE:
                    break
                block.append(more.rstrip("\n"))
            line = "\n".join(block)
        if line.strip():
            await chat.send(line.rstrip("\n"))
