"""Direct messages both ways: pushes through the Notifier (closed DMs are reported unreachable), channel posts,
and what members send the bot in DMs (typed text, voice messages)."""

from __future__ import annotations

from bot.kernel.ports import Delivery
from bot.kernel.replies import Button, Reply
from tests.fakes import FakeTranscriber
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.fake_discord import FakeDiscord


async def test_a_push_is_sent_by_dm_with_working_buttons(bot: Harness, fake: FakeDiscord) -> None:
    await bot.runtime.notifier.send("42", [Reply("Your daily drill", [[Button("Next", "next")]])])
    (opened,) = fake.to("/users/@me/channels")
    assert opened.json == {"recipient_id": 42}
    (sent,) = fake.to("/messages")
    assert sent.content == "Your daily drill" and sent.custom_ids() == ["drill:next"]


async def test_closed_dms_are_reported_unreachable(bot: Harness, fake: FakeDiscord) -> None:
    uid = await bot.user_id(42)
    fake.closed_dms.add("42")
    assert await bot.runtime.notifier.send("42", [Reply("Your daily drill")]) is Delivery.UNREACHABLE
    user = await bot.service.deps.store.get_user(uid)
    assert user is not None and not user.paused  # the adapter only reports: the dispatcher pauses


async def test_a_channel_post_reports_a_channel_it_cannot_use(bot: Harness, fake: FakeDiscord) -> None:
    assert await bot.runtime.notifier.post_channel("720", [Reply("Question of the day")]) is Delivery.DELIVERED
    fake.forbidden_channels.add("721")
    assert await bot.runtime.notifier.post_channel("721", [Reply("Question of the day")]) is Delivery.UNREACHABLE
    assert [r.path.split("/")[-2] for r in fake.to("/messages")] == ["720", "721"]


async def test_a_scheduled_push_is_marked_before_each_message_leaves(bot: Harness, fake: FakeDiscord) -> None:
    seen: list[int] = []

    async def mark() -> None:
        seen.append(len(fake.to("/messages")))

    replies = [Reply("Question of the day"), Reply("Answer below")]
    assert await bot.runtime.notifier.post_channel("720", replies, about_to_send=mark) is Delivery.DELIVERED
    assert seen == [0, 1]  # before Discord had the first message, and before the second
    assert [r.content for r in fake.to("/messages")] == ["Question of the day", "Answer below"]


async def test_text_in_dms_is_handled_as_typed_elsewhere(bot: Harness) -> None:
    requests = await bot.message(p.dm_message("/drill", user_id=3))
    sent = [r for r in requests if r.path.endswith("/messages")]
    assert "Question pipe-q-000?" in sent[0].content and sent[0].custom_ids() == ["drill:skip", "drill:ref"]
    assert any(r.path.endswith("/typing") for r in requests)  # "typing..." while it works
    requests = await bot.message(p.dm_message("Gradient norms first, then the data.", user_id=3))
    assert "Score: 70/100" in next(r for r in requests if r.path.endswith("/messages")).content


async def test_a_voice_message_in_dms_is_an_answer(bot: Harness, fake: FakeDiscord) -> None:
    bot.service.deps.transcriber = FakeTranscriber()
    await bot.message(p.dm_message("/drill", user_id=3))
    fake.cdn["voice-message.ogg"] = b"OggS voice"
    voice = p.attachment(
        77,
        fake.cdn_url("voice-message.ogg"),
        "voice-message.ogg",
        10,
        "audio/ogg",
        duration_secs=12.5,
        waveform="AAAA",
    )
    requests = await bot.message(p.dm_message("", user_id=3, attachments=[voice], flags=1 << 13))
    texts = [r.content for r in requests if r.path.endswith("/messages")]
    assert texts[0].startswith("I heard:") and any("Score: 70/100" in x for x in texts)
    (attempt,) = await bot.service.deps.store.list_attempts(await bot.user_id(3))
    assert attempt.audio_ref == "voice-message.ogg" and attempt.source is None


async def test_the_bots_own_messages_and_server_messages_are_ignored(bot: Harness) -> None:
    own = p.dm_message("/drill", user_id=3)
    own["author"] = {**own["author"], "bot": True}
    assert await bot.message(own) == []
    in_server = {**p.dm_message("/drill", user_id=3), "guild_id": str(p.GUILD_ID), "channel_id": str(p.CHANNEL_ID)}
    assert await bot.message(in_server) == []
