"""The slash command tree against Discord's limits, in English and Chinese, and how it is synced."""

from __future__ import annotations

from typing import Any

import discord

from bot.kernel.registry import REGISTRY, Entry
from bot.platforms.discord.bridge import Bridge
from bot.platforms.discord.client import DrillClient
from bot.platforms.discord.settings import DiscordSettings
from bot.platforms.discord.translator import CatalogTranslator
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Start
from tests.platforms.discord.fake_discord import FakeDiscord
from tests.unit.test_registry import ping_entry as ping_entry  # a fixture: the registry with one entry more

COMMANDS = {
    "drill",
    "answer",
    "mock",
    "apps",
    "notes",
    "review",
    "jd",
    "debrief",
    "interview",
    "stats",
    "company",
    "settings",
    "lang",
    "leaderboard",
    "forget",
    "export",
    "privacy",
    "help",
    "setup",
    "pause",
    "resume",
}
LOCALES = ("zh-CN", "zh-TW")


def valid_name(name: str) -> bool:
    """Discord: 1-32 characters, letters/digits/-/_ in any script, lowercase where a script has case."""
    return 1 <= len(name) <= 32 and name == name.lower() and all(ch.isalnum() or ch in "-_" for ch in name)


def check_level(item: dict[str, Any], problems: list[str], where: str) -> None:
    names = {"en": item["name"], **{loc: item.get("name_localizations", {}).get(loc) for loc in LOCALES}}
    descriptions = {
        "en": item["description"],
        **{loc: item.get("description_localizations", {}).get(loc) for loc in LOCALES},
    }
    for lang, name in names.items():
        if name is None or not valid_name(name):
            problems.append(f"{where}: bad {lang} name {name!r}")
    for lang, text in descriptions.items():
        if text is None or not 1 <= len(text) <= 100:
            problems.append(f"{where}: bad {lang} description {text!r}")
    options = item.get("options", [])
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options")
    for lang in ("en", *LOCALES):
        seen = [o["name"] if lang == "en" else o.get("name_localizations", {}).get(lang) for o in options]
        if len(set(seen)) != len(seen):
            problems.append(f"{where}: duplicate {lang} option names {seen}")
    required_seen_optional = False
    for option in options:
        check_level(option, problems, f"{where} {option['name']}")
        if option.get("required") and required_seen_optional:
            problems.append(f"{where}: required option {option['name']} after an optional one")
        required_seen_optional |= not option.get("required", False)
        choices = option.get("choices", [])
        if len(choices) > 25:
            problems.append(f"{where} {option['name']}: {len(choices)} choices")
        for choice in choices:
            for lang in ("en", *LOCALES):
                text = choice["name"] if lang == "en" else choice.get("name_localizations", {}).get(lang)
                if text is None or not 1 <= len(text) <= 100:
                    problems.append(f"{where} {option['name']}: bad {lang} choice {text!r}")


async def test_every_command_fits_discords_limits_in_english_and_chinese() -> None:
    client = DrillClient(Bridge(None), DiscordSettings())  # type: ignore[arg-type]
    translator = CatalogTranslator()
    payloads = [await cmd.get_translated_payload(client.tree, translator) for cmd in client.tree.get_commands()]
    assert {p["name"] for p in payloads} == COMMANDS
    problems: list[str] = []
    for payload in payloads:
        check_level(payload, problems, "/" + payload["name"])
    for lang in LOCALES:
        names = [p["name_localizations"][lang] for p in payloads]
        assert len(set(names)) == len(names), names
    assert problems == []
    by_name = {p["name"]: p for p in payloads}
    assert by_name["drill"]["name_localizations"]["zh-CN"] == "练习"
    assert by_name["setup"]["default_member_permissions"] == discord.Permissions(manage_guild=True).value
    assert by_name["setup"]["contexts"] == by_name["leaderboard"]["contexts"] == [0]  # servers only


async def test_the_checker_catches_what_discord_refuses() -> None:
    problems: list[str] = []
    bad = {
        "name": "Drill",
        "description": "x" * 101,
        "options": [{"name": f"o{i}", "description": "d"} for i in range(26)],
    }
    check_level(bad, problems, "/bad")
    text = "\n".join(problems)
    assert "bad en name 'Drill'" in text and "bad en description" in text and "26 options" in text
    assert "bad zh-CN name None" in text  # a missing translation is a problem too


async def test_commands_sync_to_the_development_guild_with_chinese_names(start_bot: Start, fake: FakeDiscord) -> None:
    await start_bot(guild_id=700)
    (put,) = fake.to("/commands", "PUT")
    assert put.path.endswith("/applications/1000/guilds/700/commands")
    names = {cmd["name"]: cmd["name_localizations"].get("zh-CN") for cmd in put.json}
    assert names["leaderboard"] == "排行榜" and set(names) == COMMANDS
    assert names["review"] == "记题" and names["debrief"] == "复盘"  # as /help lists them


async def test_commands_sync_globally_without_a_guild_and_not_at_all_when_turned_off(
    start_bot: Start, fake: FakeDiscord
) -> None:
    await start_bot(guild_id=None)
    (put,) = fake.to("/commands", "PUT")
    assert put.path.endswith("/applications/1000/commands")
    await start_bot(guild_id=None, sync=False)
    assert len(fake.to("/commands", "PUT")) == 1


async def test_a_registry_entry_added_is_a_slash_command_that_reaches_its_handler(
    ping_entry: Entry, start_bot: Start, fake: FakeDiscord
) -> None:
    bot = await start_bot(guild_id=700)
    (put,) = fake.to("/commands", "PUT")
    assert {cmd["name"] for cmd in put.json} == COMMANDS | {"ping"}
    requests = await bot.interact(p.command("ping", word="hi"))
    assert [r.content for r in requests if "/webhooks/" in r.path] == ["pong: hi"]


async def test_the_translator_names_commands_as_the_registry_and_describes_them_from_the_catalogue() -> None:
    """Chinese clients see each command under the Chinese name /help lists and a user types elsewhere (/复盘 is
    /debrief everywhere), its description and its options' from the catalogue; English clients see it unchanged."""
    client = DrillClient(Bridge(None), DiscordSettings())  # type: ignore[arg-type]
    tree, translator = client.tree, CatalogTranslator()  # the client installs it in setup_hook, before syncing
    by_name = {c.name: await c.get_translated_payload(tree, translator) for c in tree.get_commands()}
    zh = {name: p["name_localizations"]["zh-CN"] for name, p in by_name.items()}
    assert (zh["review"], zh["debrief"], zh["notes"], zh["apps"], zh["jd"]) == ("记题", "复盘", "笔记", "投递", "职位")
    assert (zh["pause"], zh["resume"], zh["drill"], zh["help"]) == ("暂停", "恢复", "练习", "帮助")
    assert (zh["answer"], zh["leaderboard"], zh["setup"]) == ("回答", "排行榜", "每日一题设置")  # no typed form
    assert by_name["review"]["name_localizations"]["zh-TW"] == "记题"
    review = by_name["review"]
    assert review["name"] == "review"
    assert review["description"] == "Log a question from a real interview; it joins your deck"
    assert review["description_localizations"]["zh-CN"] == "记录真实面试中被问到的题，它会加入你的题组"
    company = review["options"][0]
    assert (company["name"], company["description"]) == ("company", "The company")
    assert company["name_localizations"]["zh-CN"] == "公司"
    assert company["description_localizations"]["zh-CN"] == "面试的公司"
    assert by_name["drill"]["description"] == "The next question: due reviews first, then new ones"
    assert by_name["drill"]["description_localizations"]["zh-CN"] == "下一题：先复习到期的题，再出新题"
    assert "ja" not in by_name["drill"]["name_localizations"]  # other locales: the English


async def test_a_chinese_name_typed_on_the_other_platforms_is_the_same_command_on_discord() -> None:
    client = DrillClient(Bridge(None), DiscordSettings())  # type: ignore[arg-type]
    tree = client.tree
    for cmd in tree.get_commands():
        payload = await cmd.get_translated_payload(tree, CatalogTranslator())
        chinese = payload["name_localizations"]["zh-CN"]
        typed = REGISTRY.typed(chinese)
        assert typed is None or typed.name == payload["name"], (payload["name"], chinese)
