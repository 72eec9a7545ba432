"""/debrief on Discord: the notes as the command's text (which keeps no line breaks) or as its file, the list
ephemeral in a server with its buttons, and Log all through the button; the real app on SQLite."""

from __future__ import annotations

from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.fake_discord import FakeDiscord
from tests.platforms.discord.test_commands import EPHEMERAL, deferred, followups

FLAT = (
    "1. How does ZeRO stage 3 partition optimizer states, gradients and parameters? "
    "I said each rank keeps a shard of all three. 2. Why did you leave your last job?"
)
NOTES = "Interviewer: How does ZeRO-3 partition the optimizer states?\nMe: Each rank keeps a shard.\n"


async def test_notes_in_the_text_option_are_listed_privately_and_logged_by_the_button(bot: Harness) -> None:
    requests = await bot.interact(p.command("debrief", company="Acme", notes=FLAT))
    assert deferred(requests)
    (listing,) = followups(requests)
    assert listing.flags == EPHEMERAL
    assert listing.content.startswith("Acme: I found 2 questions in your notes.")
    assert "1. How does ZeRO stage 3 partition" in listing.content and "your answer: 44 characters" in listing.content
    assert listing.custom_ids() == [
        "drill:cr:debrief:drop:1", "drill:cr:debrief:drop:2", "drill:cr:debrief:log", "drill:cr:debrief:cancel"
    ]  # fmt: skip
    requests = await bot.interact(p.button("drill:cr:debrief:log", p.message_from(listing.json)))
    (done,) = followups(requests)
    assert done.flags == EPHEMERAL and done.content.startswith("Logged 2 questions from Acme for review.")
    items = await bot.service.deps.store.list_review_items(await bot.user_id(1))
    assert [(i.company, i.answer_text) for i in items] == [
        ("Acme", "I said each rank keeps a shard of all three."),
        ("Acme", ""),
    ]


async def test_a_file_without_a_company_asks_which_interview_then_lists(bot: Harness, fake: FakeDiscord) -> None:
    fake.cdn["notes.txt"] = NOTES.encode()
    att = p.attachment(556, fake.cdn_url("notes.txt"), "notes.txt", len(NOTES.encode()), "text/plain")
    cmd = p.command("debrief", guild_id=None, file=(11, "556"), resolved={"attachments": {"556": att}})
    (ask,) = followups(await bot.interact(cmd))
    assert ask.content.startswith("I have your notes (") and "Which company was the interview with?" in ask.content
    requests = await bot.message(p.dm_message("Acme", user_id=1))
    sent = [r for r in requests if r.path.endswith("/messages")]
    assert sent[0].content.startswith("Acme: I found 1 question in your notes.")
    assert len(fake.to("/cdn/notes.txt", "GET")) == 1  # downloaded (the oversized one below is not)


async def test_an_oversized_file_is_not_downloaded(bot: Harness, fake: FakeDiscord) -> None:
    att = p.attachment(557, fake.cdn_url("big.txt"), "big.txt", 3_000_000, "text/plain")
    cmd = p.command("debrief", company="Acme", file=(11, "557"), resolved={"attachments": {"557": att}})
    (reply,) = followups(await bot.interact(cmd))
    assert reply.content.startswith("That file is 3.0 MB; I take files up to 2 MB.")
    assert fake.to("/cdn/", "GET") == []
