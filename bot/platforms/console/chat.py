"""The terminal chat: the same commands as the chat platforms, typed or piped on standard input.

A message is one line; a multi-line answer goes between two lines of three double quotes
(\"\"\"). Buttons are numbered. Where the bot waits for typed text (a question, the timezone
step, a step of /review), a bare number is that text (the answer "2"), so its buttons are shown
as `[#1]` and pressed with `#1`; a menu that takes no text (`[1] English  [2] 中文`) is
answered with the bare number. `#N` presses button N anywhere.

The user is looked up by their console identity for every message, as the chat platforms do, so
after /forget the next message starts a new user.

Pushes (the daily drill, reminders) print here while the chat is open, between prompts: on a fresh line, and
the prompt (with what was half typed, where GNU readline knows it) shown again below; piped, in order between
the messages. A push due while the chat was closed comes at the next start (the runner ticks once first).
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.kernel.commands import UploadDocument
from bot.kernel.i18n import listing, t, tn
from bot.kernel.models import Lang, User
from bot.kernel.ports import AboutToSend, Delivery
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.kernel.yes_no import is_number

FENCE = '"""'
PROMPT = "> "
QUIT = ("/quit", "/exit", "/退出")  # end the chat, typed or piped
FILE_COMMAND = "/file"  # `/file PATH`: send a file, as a chat app's attachment
PLATFORM = "console"


TERMINAL_LINE_BYTES = 4095  # a terminal in canonical mode passes at most this many bytes of one typed line


def cut_by_terminal(line: str) -> bool:
    """A typed line the terminal has probably cut: as long as its line buffer (what is past it is dropped)."""
    return len(line.rstrip("\n").encode("utf-8")) >= TERMINAL_LINE_BYTES


def read_messages(stream: TextIO) -> list[str]:
    """Split an input stream into messages (used for piped input and tests); an empty line outside a block is
    an empty message (it presses the suggested button, as Enter does in the terminal)."""
    messages: list[str] = []
    block: list[str] = []
    inside = False
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
        else:
            messages.append(line if line.strip() else "")
    if inside and block:
        messages.append("\n".join(block))
    return messages


class SavedFiles:
    """What the terminal saved for one user (charts, exports), listed in a hidden file in the folder, one name a
    line, so /forget can delete them: the folder may hold other terminal users' files too."""

    def __init__(self, folder: Path, external_id: str) -> None:
        self.folder = folder
        key = hashlib.sha256(external_id.encode("utf-8")).hexdigest()[:16]  # any identity, as a file name
        self.listing = folder / f".saved-by-{key}.txt"

    def add(self, path: Path) -> None:
        with self.listing.open("a", encoding="utf-8") as f:
            f.write(path.name + "\n")

    def delete_all(self) -> list[Path]:
        """Delete every file listed (those still there) and the list; the paths deleted."""
        try:
            names = self.listing.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        deleted = []
        for name in dict.fromkeys(names):
            path = self.folder / name
            if name and Path(name).name == name and path.is_file():  # a bare name in this folder, nothing else
                path.unlink()
                deleted.append(path)
        self.listing.unlink(missing_ok=True)
        return deleted


def free_path(folder: Path, filename: str) -> Path:
    """`folder/filename`, or `name-2.ext`, `name-3.ext` ... when it exists: a saved file is never overwritten."""
    path = folder / filename
    n = 2
    while path.exists():
        path = folder / f"{Path(filename).stem}-{n}{Path(filename).suffix}"
        n += 1
    return path


class ConsoleChat:
    def __init__(
        self, service: Service, external_id: str, out: TextIO, save_dir: Path, lang: Lang | None = None
    ) -> None:
        self.service = service
        self.external_id = external_id
        self.lang = lang  # a new user's language; then the user's, for the few lines the terminal adds itself
        self.out = out
        self.save_dir = save_dir
        self.saved = SavedFiles(save_dir, external_id)
        self.buttons: list[str] = []
        self.text_expected = False  # the last replies wait for typed text: a bare number is text
        self.default_action: str | None = None  # what Enter on an empty line presses (a suggested rating)
        self.prompt: str | None = None  # the prompt shown while the chat waits for a line (None: not waiting)
        self.typed: Callable[[], str | None] = lambda: None  # the half-typed line, where it is known
        self.closed = False  # the chat has ended: a push now would not be read

    def button_for(self, text: str) -> str | None:
        """The action of the button `text` presses (`#2`, or `2` where no text is expected), else None."""
        digits = text[1:].strip() if text.startswith("#") else "" if self.text_expected else text
        if is_number(digits) and 1 <= int(digits) <= len(self.buttons):
            return self.buttons[int(digits) - 1]
        return None

    async def send(self, message: str) -> list[Reply]:
        user = await self.service.user_for(PLATFORM, self.external_id, self.lang)
        action = self.default_action if not message.strip() else self.button_for(message.strip())
        if action is None and not message.strip():
            return []  # an empty line with nothing to accept: nothing to send
        if action is not None:
            replies = await self.service.handle_action(user.id, action)
        elif message.strip().lower().startswith(FILE_COMMAND + " "):
            replies = await self.send_file(user, message.strip()[len(FILE_COMMAND) :].strip())
        else:
            replies = await self.service.handle_text(user.id, message)
        self.lang = (
            await self.service.user_for(PLATFORM, self.external_id, self.lang)
        ).language  # after /forget: the new one
        self.render(replies)
        return replies

    async def send_file(self, user: User, name: str) -> list[Reply]:
        """`/file PATH`: the terminal's way to send a file (a job description, interview notes)."""
        path = Path(name.strip("'\"")).expanduser()
        try:
            data = path.read_bytes()
        except OSError:
            return [Reply(t(user.language, "console.no_file", path=name[:200]), kind="error")]
        return await self.service.handle(UploadDocument(user.id, data, path.name))

    def show_push(self, replies: list[Reply]) -> None:
        """A push, printed between prompts: on a fresh line (the line being typed is cleared first where it can
        be shown again), then the prompt again, with what was typed so far. Its buttons replace the menu shown
        before it; a push with none leaves that menu's numbers working."""
        waiting, typed = self.prompt, self.typed()
        if waiting is not None:
            self.out.write("\n" if typed is None else "\r\x1b[K")
        self.render(replies, keep_menu=not any(r.buttons for r in replies))
        if waiting is not None:
            self.out.write(waiting + (typed or ""))
            self.out.flush()

    def render(self, replies: list[Reply], keep_menu: bool = False) -> None:
        if not keep_menu:
            self.buttons = []
            self.text_expected = any(r.ask_text for r in replies)
            self.default_action = next((r.default_action for r in replies if r.default_action), None)
        mark = "#" if self.text_expected else ""
        for reply in replies:
            self.out.write(reply.text + "\n")
            if reply.promise:
                self.out.write(t(self.lang or "en", "console.pushes_here") + "\n")
            for attachment in (reply.image, reply.file):
                if attachment is not None:
                    self.save_dir.mkdir(parents=True, exist_ok=True)
                    path = free_path(self.save_dir, attachment.filename)
                    path.write_bytes(attachment.data)
                    self.saved.add(path)
                    self.out.write(t(self.lang or "en", "console.saved", path=path) + "\n")
            if reply.kind == "forgotten":  # /forget: what this terminal saved for the user goes too
                self.out.write(self._delete_saved() + "\n")
            labels = []
            for row in reply.buttons:
                for b in row:
                    self.buttons.append(b.action)
                    labels.append(f"[{mark}{len(self.buttons)}] {b.label}")
            if labels:
                self.out.write("  ".join(labels) + "\n")
            self.out.write("\n")
        self.out.flush()

    def _delete_saved(self) -> str:
        lang = self.lang or "en"
        deleted = self.saved.delete_all()
        if not deleted:
            return t(lang, "console.no_files_deleted")
        files = tn(lang, "count.saved_file", len(deleted))
        return t(lang, "console.files_deleted", files=files, names=listing(lang, (str(p) for p in deleted)))


class ConsoleNotifier:
    """Pushes to the user chatting in this terminal, by printing between prompts (ConsoleChat.show_push)."""

    platform = PLATFORM
    requires_opt_in = False

    def __init__(self, chat: ConsoleChat) -> None:
        self.chat = chat

    def serves(self, external_id: str) -> bool:
        """Only the user of this chat, and only while it is open: another terminal user's pushes wait for them."""
        return external_id == self.chat.external_id and not self.chat.closed

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        if not self.serves(external_id):
            return Delivery.FAILED  # not shown: it stays due, and comes at the next start
        if about_to_send is not None:
            await about_to_send()
        self.chat.show_push(list(replies))
        return Delivery.DELIVERED


class LineReader:
    """Lines typed at a terminal. On the real terminal with GNU readline, the line being typed is known, so a push
    printed meanwhile can show it again; elsewhere (no readline, a test's stream) it is not, and the push only
    starts on a fresh line (what was typed still goes with the rest of the line)."""

    def __init__(self, stdin: TextIO, out: TextIO) -> None:
        self.stdin, self.out = stdin, out
        self.readline: Any = None
        if stdin is sys.stdin and out is sys.stdout and out.isatty():
            try:
                import readline  # the terminal's line editor, where Python has it

                self.readline = readline
            except ImportError:
                pass

    def show(self, prompt: str) -> None:
        """Before `read`, on the event loop: the prompt (readline's `input` shows it itself)."""
        if self.readline is None:
            self.out.write(prompt)
            self.out.flush()

    def read(self, prompt: str) -> str:
        """One line, with its line break; "" at the end of input. Blocks: run it in a worker thread."""
        if self.readline is None:
            return self.stdin.readline()
        try:
            return input(prompt) + "\n"
        except EOFError:
            return ""

    def typed(self) -> str | None:
        return str(self.readline.get_line_buffer()) if self.readline is not None else None


async def run_console(
    service: Service,
    external_id: str,
    stdin: TextIO,
    out: TextIO,
    save_dir: Path,
    lang: str | None = None,
    router: Any = None,
    on_prompt: Callable[[], object] | None = None,
    on_ready: Callable[[], Awaitable[object]] | None = None,
) -> None:
    """Chat until end of input. With a NotifierRouter, pushes (reminders, the daily drill, regrades) print here
    too. `on_ready` is awaited once pushes can print, before the first message is read (the runner sends what
    came due while the chat was closed, then starts the scheduler). `on_prompt` is called once, when the first
    prompt shows (a person now reads and types: the bot may warm up meanwhile); with piped input there is no such
    pause, and it is not called."""
    user = await service.user_for(PLATFORM, external_id, "zh" if lang == "zh" else None)
    chat = ConsoleChat(service, external_id, out, save_dir, user.language)
    if router is not None:
        router.add(ConsoleNotifier(chat))
    try:
        await _chat(chat, stdin, out, on_prompt, on_ready)
    finally:
        chat.closed = True


async def _chat(
    chat: ConsoleChat,
    stdin: TextIO,
    out: TextIO,
    on_prompt: Callable[[], object] | None,
    on_ready: Callable[[], Awaitable[object]] | None,
) -> None:
    if not stdin.isatty():
        if on_ready is not None:
            await on_ready()
        for message in read_messages(stdin):
            if not message and chat.default_action is None:
                continue  # a blank line with nothing to accept
            out.write(f"{PROMPT}{message}\n")
            if message.strip().lower() in QUIT:
                return
            await chat.send(message)
        return
    out.write(t(chat.lang or "en", "console.intro") + "\n\n")
    if on_ready is not None:
        await on_ready()
    reader = LineReader(stdin, out)
    chat.typed = reader.typed
    loop = asyncio.get_running_loop()

    async def read(prompt: str, first: Callable[[], object] | None = None) -> str:
        chat.prompt = prompt  # from here until a line comes, a push prints on a fresh line and shows this again
        reader.show(prompt)
        if first is not None:
            first()
        try:
            return await loop.run_in_executor(None, reader.read, prompt)
        finally:
            chat.prompt = None

    while True:
        line = await read(PROMPT, on_prompt)
        on_prompt = None
        if not line or line.strip().lower() in QUIT:
            return
        if cut_by_terminal(line):
            out.write(t(chat.lang or "en", "console.line_cut") + "\n\n")
            continue
        if line.strip() == FENCE:
            block = []
            while True:
                more = await read("")
                if not more or more.strip() == FENCE:
                    break
                block.append(more.rstrip("\n"))
            line = "\n".join(block)
        await chat.send(line.rstrip("\n"))  # an empty line presses the suggested button, if any
