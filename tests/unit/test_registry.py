"""Each command declared once (bot/kernel/registry.py): one entry added makes a command that parses in both
languages, reaches its handler, shows in /help, in Telegram's menu (both languages) and in Discord's tree, with
nothing else changed; two entries claiming one name, alias or command class raise."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from telegram import BotCommand

from bot.features.deps import Deps
from bot.kernel import commands as c
from bot.kernel.i18n import MESSAGES, register, t
from bot.kernel.models import User
from bot.kernel.parsing import parse_line
from bot.kernel.registry import REGISTRY, Arg, Entry, Registry, Slash, help_text, no_words
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.platforms.discord.bridge import Bridge
from bot.platforms.discord.client import DrillClient
from bot.platforms.discord.settings import DiscordSettings
from bot.platforms.discord.translator import CatalogTranslator
from bot.platforms.telegram.runtime import register_commands


@dataclass(frozen=True)
class Ping(c.Command):
    word: str


async def ping(cmd: Ping, user: User) -> list[Reply]:
    return [Reply(f"pong: {cmd.word}")]


PING_MESSAGES = {
    "usage.ping": {"en": "/ping WORD", "zh": "/ping 词"},
    "help.ping": {"en": "\n/ping WORD - answers pong", "zh": "\n/ping（/乒乓）词 - 回答 pong"},
    "menu.ping": {"en": "Ping me", "zh": "乒一下"},
    "cmd.ping": {"en": "ping", "zh": "乒乓"},
    "cmd.ping.desc": {"en": "Answers pong", "zh": "回答 pong"},
    "opt.word": {"en": "word", "zh": "词"},
    "opt.word.desc": {"en": "What to send back", "zh": "要回的词"},
}
PING = Entry(
    "ping",
    lambda user_id, rest, name: Ping(user_id, rest) if rest else None,
    aliases=("pong",),
    zh=("乒乓",),
    usage_key="usage.ping",
    help_key="help.ping",
    help_rank=60,
    menu_key="menu.ping",
    rank=35,
    args=(Arg("word", required=True, high=50),),
    slash=Slash(lambda call: Ping(call.user_id, call.values["word"])),
    handlers={Ping: ping},
)


@pytest.fixture
def ping_entry() -> Iterator[Entry]:
    """The entry and its messages, added for one test and taken out again."""
    register(PING_MESSAGES)
    REGISTRY.add(PING)
    try:
        yield PING
    finally:
        REGISTRY.remove(PING)
        for key in PING_MESSAGES:
            del MESSAGES[key]


class FakeTelegramBot:
    def __init__(self) -> None:
        self.menus: dict[str | None, list[tuple[str, str]]] = {}

    async def set_my_commands(self, commands: list[BotCommand], language_code: str | None = None) -> bool:
        self.menus[language_code] = [(cmd.command, cmd.description) for cmd in commands]
        return True


class FakeTelegramApp:
    def __init__(self) -> None:
        self.bot = FakeTelegramBot()


async def telegram_menus() -> dict[str | None, list[tuple[str, str]]]:
    app = FakeTelegramApp()
    await register_commands(app)  # type: ignore[arg-type]
    return app.bot.menus


async def discord_tree() -> dict[str, dict[str, Any]]:
    client = DrillClient(Bridge(None), DiscordSettings())  # type: ignore[arg-type]
    translator = CatalogTranslator()
    payloads = [await cmd.get_translated_payload(client.tree, translator) for cmd in client.tree.get_commands()]
    return {p["name"]: p for p in payloads}


def parsed(lines: list[str]) -> list[c.Command]:
    return [parse_line(1, line) for line in lines]


OTHERS = ["/drill", "/练习", "/review a | b", "/settings time", "/复盘 x", "/company a = b", "/next", "/lang"]


async def test_one_entry_makes_a_command_everywhere_and_changes_nothing_else(request: pytest.FixtureRequest) -> None:
    before_menus, before_tree = await telegram_menus(), await discord_tree()
    before_help = {lang: help_text(lang) for lang in ("en", "zh")}
    before_others = parsed(OTHERS)
    assert parse_line(1, "/ping hi") == c.Invalid(1, "unknown", "/ping")

    request.getfixturevalue("ping_entry")  # added now, after the "before" was taken
    # typed, in both languages, any case, and its usage when the words do not fit
    assert parsed(["/ping hi", "/乒乓 hi", "/PONG@bot hi"]) == [Ping(1, "hi")] * 3
    assert parse_line(1, "/乒乓") == c.Invalid(1, "usage", "ping", "usage.ping")
    assert REGISTRY.chinese_names()["乒乓"] == "ping"
    # /help: its lines after the others'
    for lang in ("en", "zh"):
        assert help_text(lang) == before_help[lang] + t(lang, "help.ping")
    # Telegram's menu in English (the default) and Chinese: at its rank, after /mock
    menus = await telegram_menus()
    assert set(menus) == {None, "zh"}
    assert menus[None] == [*before_menus[None][:3], ("ping", "Ping me"), *before_menus[None][3:]]
    assert menus["zh"] == [*before_menus["zh"][:3], ("ping", "乒一下"), *before_menus["zh"][3:]]
    assert [name for name, _ in menus[None]][:5] == ["start", "drill", "mock", "ping", "review"]
    # Discord's tree: the command, its Chinese name and its option; every other command as it was
    tree = await discord_tree()
    assert set(tree) == {*before_tree, "ping"} and len(tree) == 22
    assert tree["ping"]["name_localizations"]["zh-CN"] == "乒乓"
    (option,) = tree["ping"]["options"]
    assert (option["name"], option["required"], option["max_length"]) == ("word", True, 50)
    assert {name: p for name, p in tree.items() if name != "ping"} == before_tree
    assert parsed(OTHERS) == before_others


async def test_the_service_hands_the_new_command_to_its_handler(deps: Deps, ping_entry: Entry) -> None:
    service = Service(deps)
    user = await service.user_for("test", "u1", "zh")
    assert [r.text for r in await service.handle_text(user.id, "/乒乓 hi")] == ["pong: hi"]
    assert [r.text for r in await service.handle_text(user.id, "/ping")] == ["用法：/ping 词"]
    (helped,) = await service.handle_text(user.id, "/帮助")
    assert helped.text.endswith("\n/ping（/乒乓）词 - 回答 pong")


async def test_taken_out_again_it_is_gone_everywhere(ping_entry: Entry) -> None:
    REGISTRY.remove(ping_entry)
    try:
        assert parse_line(1, "/乒乓 hi") == c.Invalid(1, "unknown", "/乒乓")
        assert "ping" not in await discord_tree() and "ping" not in dict((await telegram_menus())[None])
        assert Ping not in REGISTRY.handlers and "ping" not in help_text("en")
    finally:
        REGISTRY.add(ping_entry)


@pytest.mark.parametrize(
    ("entry", "claimed"),
    [
        (Entry("drill", no_words(c.ShowStats)), "drill"),  # a name
        (Entry("zap", no_words(c.ShowStats), aliases=("next",)), "next"),  # another's English alias
        (Entry("zap", no_words(c.ShowStats), zh=("练习",)), "练习"),  # another's Chinese name
        (Entry("zap", no_words(c.ShowStats), aliases=("Start",)), "start"),  # in any case
        (Entry("zap", no_words(c.ShowStats), aliases=("zip",), zh=("zip",)), "zip"),  # twice in one entry
        (Entry("answer"), "answer"),  # a slash command's name
    ],
)
def test_two_entries_claiming_one_name_or_alias_raise(entry: Entry, claimed: str) -> None:
    before = REGISTRY.entries()
    with pytest.raises(ValueError, match=f"command names claimed twice: {claimed}"):
        REGISTRY.add(entry)
    assert REGISTRY.entries() == before and REGISTRY.typed("zap") is None  # nothing of it was added


def test_two_handlers_of_one_command_class_raise() -> None:
    taken = Entry("zap", no_words(c.ShowStats), handlers={c.NextQuestion: ping})
    with pytest.raises(ValueError, match="commands handled twice: NextQuestion"):
        REGISTRY.add(taken)
    with pytest.raises(ValueError, match="commands handled twice: SubmitVoice"):
        REGISTRY.handle({c.SubmitVoice: ping})
    assert REGISTRY.typed("zap") is None


def test_a_fresh_registry_refuses_a_second_entry_of_one_name() -> None:
    registry = Registry()
    registry.add(Entry("one", no_words(c.ShowStats), zh=("一",)))
    with pytest.raises(ValueError, match="一"):
        registry.add(Entry("two", no_words(c.ShowStats), zh=("一",)))
    assert [e.name for e in registry.entries()] == ["one"] and registry.typed("two") is None
