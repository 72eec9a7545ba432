"""The command registry: each command declared once, by the feature that owns it (as nonebot2's
`on_command(cmd, aliases=...)`).

An `Entry` holds what every door to a command needs: its typed names in both languages, how the words after
it become a kernel command, its usage and help message keys, its arguments (a Discord slash command's
options), whether it is in Telegram's menu (and the menu text's key), and the handlers of the kernel commands
it makes. A feature declares its entries in its `commands` module, which registers them when imported
(bot/features/routes.py imports them all, as the composition root and the tests' conftest import it).

Generated from the registry: `parse_line`'s names (bot/kernel/parsing.py), the service's handler table
(bot/features/routes.py), the /help text (`help_text`), Telegram's command menu per language (`menu`) and
Discord's command tree (bot/platforms/discord/commands.py). Two entries claiming one name or alias, or two
handlers of one command class, raise. The jobs the scheduler sends (`c.Job`: the regrade round) register their
handlers here too (`handle_jobs`), with no name a user could type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.kernel import commands as c
from bot.kernel import routing
from bot.kernel.i18n import t
from bot.kernel.models import Lang
from bot.kernel.routing import Handler

Parse = Callable[[int, str, str], "c.Command | None"]
"""The typed form: (user id, the words after the name, the English name typed) -> a command, or None when the
words do not fit (the user is shown the entry's usage)."""

ArgKind = Literal["text", "number", "switch", "choice", "audio", "file", "channel"]


@dataclass(frozen=True)
class Arg:
    """An argument of a command: a Discord slash command's option (text, number, switch, choice, a recording, a
    file or a channel). Its name and description are the message keys `key` and `desc_key` (by default
    `opt.<name>` and that key + `.desc`); `low`/`high` bound a text's length or a number's value."""

    name: str
    kind: ArgKind = "text"
    required: bool = False
    low: int = 1
    high: int = 200
    choices: tuple[tuple[str, str], ...] = ()
    """(label message key, value) each, for a choice."""
    default: bool | None = None
    """A switch's value when it is not given."""
    key: str = ""
    desc_key: str = ""

    @property
    def name_key(self) -> str:
        return self.key or f"opt.{self.name}"

    @property
    def description_key(self) -> str:
        return self.desc_key or f"{self.name_key}.desc"


@dataclass(frozen=True)
class ChannelRef:
    """A channel given as an argument: its platform id and how a reply shows it."""

    id: str
    label: str


@dataclass(frozen=True)
class SlashCall:
    """A slash command as the platform received it: the arguments given (a choice as its value, a file or a
    recording as True, a channel as a ChannelRef), and where it came from."""

    user_id: int
    values: Mapping[str, Any]
    platform: str
    server_id: str | None = None
    source: str | None = None
    """Where an answer given here counts (a server's leaderboard), or None."""
    manager: bool = False
    """The member may manage the server (the platform's permission)."""
    mention: str = "{id}"
    """How the platform mentions a member ({id} = their platform id)."""


Build = Callable[[SlashCall], "c.Command | list[c.Command]"]


@dataclass(frozen=True)
class Slash:
    """The command as a slash command (Discord's tree): named as the entry (`Entry.zh`), described by the message
    `cmd.<name>.desc`, its options the entry's `args`. `build` turns the options into kernel commands (None: the typed form with
    no words); a list of commands is run in turn and their replies shown as one message."""

    build: Build | None = None
    needs_one_of: tuple[str, ...] = ()
    """At least one of these options, else the message `missing_key` is the reply."""
    missing_key: str = ""
    audio: str = ""
    """The option whose recording, when given, is the answer (graded as a voice answer)."""
    file: str = ""
    """The option whose file, when given, the command then waits for (read as a document after it)."""
    server_only: bool = False
    managers_only: bool = False
    """Offered only to members who may manage the server."""
    public: Callable[[Mapping[str, Any]], bool] | None = None
    """Given the options: the result may be posted in the channel for everyone (a member who may post there)."""
    public_kind: str | None = "share"
    """The kind of the replies posted publicly, with the member's mention (None: every reply, as it is)."""
    after_key: str = ""
    """A message added after the replies (what only this platform offers, e.g. its own help)."""


@dataclass(frozen=True)
class Entry:
    """One command, declared once."""

    name: str
    """The English name, typed as /name, and a slash command's name."""
    parse: Parse | None = None
    """The typed form; None: no typed form (a slash command only)."""
    aliases: tuple[str, ...] = ()
    """Other English names typed for it."""
    zh: tuple[str, ...] = ()
    """Its Chinese names, typed for it (the first is the one /help lists beside the English name, and its slash
    command's Chinese name; with none, that is the message `cmd.<name>`)."""
    usage_key: str = ""
    help_key: str = ""
    """Its lines in /help, when they are its own message (the base lines are the /help entry's)."""
    help_rank: int = 0
    menu_key: str = ""
    """The text of its line in Telegram's command menu; "" keeps it out of the menu."""
    rank: int = 1000
    """Where it stands in the menu and the slash-command tree (then by name)."""
    args: tuple[Arg, ...] = ()
    slash: Slash | None = None
    handlers: Mapping[type[c.Command], Handler] = field(default_factory=dict)
    """The handlers of the kernel commands it makes (each command class handled once, by one entry or feature);
    each names what it uses (bot/kernel/inject.py), `session` for the user's state as read with the user."""

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases, *self.zh) if self.parse is not None else ()


def no_words(make: Callable[[int], c.Command]) -> Parse:
    """The typed form of a command that takes no words (any words after it are ignored)."""
    return lambda user_id, rest, name: make(user_id)


class Registry:
    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._typed: dict[str, Entry] = {}
        self._jobs: dict[type[c.Job], routing.JobHandler] = {}
        self._handlers: dict[type[c.Command], Handler] = {}

    def add(self, entry: Entry) -> None:
        """Register `entry`; a name, alias or command class already claimed is a bug, so it raises (and nothing
        of the entry is added)."""
        words = [w.lower() for w in entry.names()]
        taken = [w for w in words if w in self._typed]
        taken += [w for w in set(words) if words.count(w) > 1]
        if entry.name in self._entries:
            taken.append(entry.name)
        if taken:
            raise ValueError(f"command names claimed twice: {', '.join(sorted(set(taken)))}")
        self._check_handlers(entry.handlers)
        self._entries[entry.name] = entry
        self._typed.update(dict.fromkeys(words, entry))
        self._handlers.update(entry.handlers)

    def handle(self, handlers: Mapping[type[c.Command], Handler]) -> None:
        """Register the handlers of commands no typed name makes (buttons, files, a platform's own events)."""
        self._check_handlers(handlers)
        self._handlers.update(handlers)

    def _check_handlers(self, handlers: Mapping[type[c.Command], Handler]) -> None:
        twice = {k for k in handlers if k in self._handlers}
        if twice:
            raise ValueError(f"commands handled twice: {', '.join(sorted(k.__name__ for k in twice))}")

    def remove(self, entry: Entry) -> None:
        """Take `entry` out again (a test that added one)."""
        del self._entries[entry.name]
        for word in entry.names():
            self._typed.pop(word.lower(), None)
        for cls in entry.handlers:
            self._handlers.pop(cls, None)

    def typed(self, word: str) -> Entry | None:
        """The entry typed as `word` (an English or Chinese name, any case)."""
        return self._typed.get(word.lower())

    def entries(self) -> list[Entry]:
        """Every entry, in menu order."""
        return sorted(self._entries.values(), key=lambda e: (e.rank, e.name))

    def handle_jobs(self, jobs: Mapping[type[c.Job], routing.JobHandler]) -> None:
        """Register the handlers of the jobs the scheduler sends (no user sees them: no name, no menu line)."""
        twice = sorted(k.__name__ for k in jobs if k in self._jobs)
        if twice:
            raise ValueError(f"jobs handled twice: {', '.join(twice)}")
        self._jobs.update(jobs)

    @property
    def jobs(self) -> Mapping[type[c.Job], routing.JobHandler]:
        return self._jobs

    @property
    def handlers(self) -> Mapping[type[c.Command], Handler]:
        return self._handlers

    def chinese_names(self) -> dict[str, str]:
        """Every Chinese name and the English name of its command: `/帮助` is `/help`."""
        return {word: entry.name for entry in self._entries.values() for word in entry.zh}

    def menu(self, lang: Lang) -> list[tuple[str, str]]:
        """Telegram's command menu in `lang`: (command, description) each, in menu order."""
        return [(e.name, t(lang, e.menu_key)) for e in self.entries() if e.menu_key]

    def slash_entries(self) -> list[Entry]:
        return [e for e in self.entries() if e.slash is not None]

    def help_text(self, lang: Lang) -> str:
        """/help: each entry's help lines (the base lines first), in their order."""
        keyed = sorted((e.help_rank, e.name, e.help_key) for e in self._entries.values() if e.help_key)
        return "".join(t(lang, key) for _, _, key in keyed)


REGISTRY = Registry()
"""The registry the features register with (each feature's `commands` module, when imported)."""


def register(*entries: Entry) -> None:
    for entry in entries:
        REGISTRY.add(entry)


def help_text(lang: Lang) -> str:
    return REGISTRY.help_text(lang)
