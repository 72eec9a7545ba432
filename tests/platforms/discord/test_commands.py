"""Every slash command through discord.py: deferred at once, answered with follow-ups, personal
results ephemeral in servers, buttons that route back to the core."""

from __future__ import annotations

import json

from bot.kernel.session import Idle
from tests.fakes import FakeTranscriber
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.fake_discord import FakeDiscord, Recorded

EPHEMERAL = 64


def followups(requests: list[Recorded]) -> list[Recorded]:
    return [r for r in requests if "/webhooks/" in r.path]


def deferred(requests: list[Recorded], ephemeral: bool = True) -> bool:
    """The first request acknowledges the interaction as 'thinking', ephemeral or not."""
    first = requests[0]
    return first.path.endswith("/callback") and first.json["type"] == 5 and (first.flags == EPHEMERAL) == ephemeral


async def test_drill_is_deferred_then_answered_privately_with_buttons(bot: Harness) -> None:
    requests = await bot.interact(p.command("drill"))
    assert deferred(requests)
    (question,) = followups(requests)
    assert "Question pipe-q-000?" in question.content and question.flags == EPHEMERAL
    assert question.custom_ids() == ["drill:skip", "drill:ref"]
    assert question.json["allowed_mentions"] == {"parse": []}


async def test_in_direct_messages_nothing_is_ephemeral(bot: Harness) -> None:
    requests = await bot.interact(p.command("drill", guild_id=None))
    assert deferred(requests, ephemeral=False)
    assert followups(requests)[0].flags == 0


async def test_answer_by_text_is_graded_and_counted_for_the_server(bot: Harness) -> None:
    await bot.interact(p.command("drill"))
    requests = await bot.interact(p.command("answer", text="First I check the data, then the gradient norm."))
    assert deferred(requests)
    (grade,) = followups(requests)
    assert "Score: 70/100 (Good)" in grade.content and grade.flags == EPHEMERAL
    uid = await bot.user_id(1)
    (attempt,) = await bot.service.deps.store.list_attempts(uid)
    assert attempt.source == "discord:guild:700" and attempt.status == "graded"
    ids = grade.custom_ids()
    assert ids[:3] == [f"drill:ref:{attempt.id}", f"drill:fu:{attempt.id}", "drill:next"]
    assert f"drill:dis:{attempt.id}" in ids and not any(i.startswith("drill:rate:") for i in ids)


async def test_answer_in_direct_messages_has_no_server_source(bot: Harness) -> None:
    await bot.interact(p.command("drill", guild_id=None))
    await bot.interact(p.command("answer", guild_id=None, text="An answer in DMs."))
    (attempt,) = await bot.service.deps.store.list_attempts(await bot.user_id(1))
    assert attempt.source is None


async def test_answer_needs_text_or_audio(bot: Harness) -> None:
    requests = await bot.interact(p.command("answer"))
    assert "Give your answer as text" in followups(requests)[0].content


class RecordingTranscriber(FakeTranscriber):
    def __init__(self) -> None:
        super().__init__()
        self.audio: list[bytes] = []

    async def measure(self, audio: bytes, filename: str) -> float:
        self.audio.append(audio)
        return await super().measure(audio, filename)


def audio_option(fake: FakeDiscord, size: int | None = None, data: bytes = b"OggS fake opus") -> dict[str, object]:
    fake.cdn["answer.ogg"] = data
    att = p.attachment(555, fake.cdn_url("answer.ogg"), "answer.ogg", size or len(data), "audio/ogg")
    return {"audio": (11, "555"), "resolved": {"attachments": {"555": att}}}


async def test_answer_by_audio_attachment_is_downloaded_transcribed_and_graded(bot: Harness, fake: FakeDiscord) -> None:
    transcriber = RecordingTranscriber()
    bot.service.deps.transcriber = transcriber
    await bot.interact(p.command("drill"))
    requests = await bot.interact(p.command("answer", **audio_option(fake)))  # type: ignore[arg-type]
    assert transcriber.audio == [b"OggS fake opus"]
    texts = [r.content for r in followups(requests)]
    assert texts[0].startswith("I heard:") and "Score: 70/100" in texts[1]
    (attempt,) = await bot.service.deps.store.list_attempts(await bot.user_id(1))
    assert attempt.source == "discord:guild:700" and attempt.audio_ref == "answer.ogg"


async def test_audio_without_a_transcriber_asks_for_text(bot: Harness, fake: FakeDiscord) -> None:
    await bot.interact(p.command("drill"))
    requests = await bot.interact(p.command("answer", **audio_option(fake)))  # type: ignore[arg-type]
    assert "Please type your answer" in followups(requests)[0].content


async def test_an_oversized_audio_file_is_refused_without_downloading_it(bot: Harness, fake: FakeDiscord) -> None:
    bot.service.deps.transcriber = RecordingTranscriber()
    await bot.interact(p.command("drill"))
    requests = await bot.interact(p.command("answer", **audio_option(fake, size=30_000_000)))  # type: ignore[arg-type]
    assert "30.0 MB; the limit is 20 MB" in followups(requests)[0].content
    assert not [r for r in requests if r.path.startswith("/cdn/")]


async def test_review_and_interview_log_with_their_options(bot: Harness) -> None:
    requests = await bot.interact(
        p.command("review", company="Acme | Inc", question="How do you choose the gradient clipping threshold?")
    )
    assert "Logged for Acme | Inc" in followups(requests)[0].content  # a | in an option is just text
    requests = await bot.interact(p.command("interview", company="Acme", when="2026-12-03 14:00", role="LLM engineer"))
    assert "Interview logged: Acme LLM engineer" in followups(requests)[0].content
    requests = await bot.interact(p.command("interview", company="Acme", when="someday"))
    assert "could not read 'someday'" in followups(requests)[0].content


async def test_company_lists_with_no_options_and_merges_with_old_and_new(bot: Harness) -> None:
    for company in ("Tencnet", "Tencent"):
        await bot.interact(p.command("interview", company=company, when="2026-12-03 14:00"))
    await bot.interact(p.command("review", company="Tencnet | Shenzhen", question="What is ZeRO-3?"))
    requests = await bot.interact(p.command("company"))
    assert deferred(requests)
    listed = followups(requests)[0]
    assert "- Tencnet: 1 interview" in listed.content and "- Tencnet | Shenzhen: 1 question" in listed.content
    assert listed.flags == EPHEMERAL  # the user's own data stays private in a server
    requests = await bot.interact(p.command("company", old="Tencnet"))  # no new name: asked for, nothing changed
    assert 'Write the new name after the "="' in followups(requests)[0].content
    requests = await bot.interact(p.command("company", old="tencnet | shenzhen", new="Tencent"))  # a | is just text
    assert 'I moved 1 question from "tencnet | shenzhen" to "Tencent"' in followups(requests)[0].content
    requests = await bot.interact(p.command("company", old="Tencnet", new="Tencent"))
    assert 'I moved 1 interview from "Tencnet" to "Tencent"' in followups(requests)[0].content
    uid = await bot.user_id(1)
    store = bot.service.deps.store
    assert {x.company for x in [*await store.list_interviews(uid), *await store.list_review_items(uid)]} == {"Tencent"}


async def test_stats_settings_and_lang(bot: Harness) -> None:
    assert "No answers yet" in followups(await bot.interact(p.command("stats")))[0].content
    assert "Your settings" in followups(await bot.interact(p.command("settings")))[0].content
    requests = await bot.interact(
        p.command("settings", timezone="Asia/Shanghai", daily_time="07:30", new_per_day=3, daily_dm=True)
    )
    (saved,) = followups(requests)
    assert "Asia/Shanghai" in saved.content and "07:30" in saved.content and "direct message" in saved.content
    user = await bot.service.deps.store.get_user(await bot.user_id(1))
    assert user is not None and (user.timezone, user.daily_time, user.new_per_day, user.dm_opt_in) == (
        "Asia/Shanghai",
        "07:30",
        3,
        True,
    )
    requests = await bot.interact(p.command("settings", timezone="Mars/Base"))
    assert "not a timezone" in followups(requests)[0].content
    requests = await bot.interact(p.command("lang", language="zh"))
    assert followups(requests)[0].content == "已切换为中文。"


async def test_a_new_user_gets_the_clients_language_and_no_daily_dm(bot: Harness) -> None:
    requests = await bot.interact(p.command("help", user_id=5, locale="zh-CN"))
    texts = [r.content for r in followups(requests)]
    assert texts[0].startswith("命令：") and "Discord" in texts[1]
    user = await bot.service.deps.store.get_user(await bot.user_id(5))
    assert user is not None and user.language == "zh" and not user.dm_opt_in


async def test_forget_asks_then_a_button_confirms(bot: Harness) -> None:
    await bot.interact(p.command("drill"))
    requests = await bot.interact(p.command("forget"))
    (ask,) = followups(requests)
    assert ask.custom_ids() == ["drill:forget:yes", "drill:forget:no"]
    gone = await bot.user_id(1)
    requests = await bot.interact(p.button("drill:forget:yes", p.message_from(ask.json)))
    assert deferred(requests) and "has been deleted" in followups(requests)[0].content
    assert await bot.service.deps.store.list_cards(gone) == []
    (welcome,) = followups(await bot.interact(p.command("drill")))  # the next interaction: greeted, onboarding
    assert "went wrong" not in welcome.content and welcome.content.startswith("Welcome!")
    assert welcome.custom_ids() == ["drill:set:language:en", "drill:set:language:zh"]
    fresh = await bot.service.deps.store.get_user(await bot.user_id(1))  # (SQLite may hand out the same id again)
    assert fresh is not None and not fresh.onboarded and await bot.service.deps.store.list_cards(fresh.id) == []


async def test_export_sends_the_data_as_a_json_file(bot: Harness) -> None:
    await bot.interact(p.command("review", company="Acme", question="What is ZeRO-3?"))
    requests = await bot.interact(p.command("export"))
    (sent, answers) = followups(requests)
    (name, blob), *_ = sent.files.items()
    assert name.endswith(".json") and json.loads(blob)["review_items"][0]["company"] == "Acme"
    ((md_name, markdown),) = answers.files.items()
    assert md_name.startswith("drill-answers-") and md_name.endswith(".md") and markdown.startswith(b"# My interview")


async def test_a_redelivered_interaction_is_handled_once(bot: Harness) -> None:
    payload = p.command("drill")
    first = await bot.interact(payload)
    again = await bot.interact(payload)  # (real Discord would also refuse its second acknowledgement)
    assert len(followups(first)) == 1 and followups(again) == []


async def test_pause_and_resume_the_daily_pushes(bot: Harness) -> None:
    await bot.interact(p.command("pause"))
    user = await bot.service.deps.store.get_user(await bot.user_id(1))
    assert user is not None and user.paused
    await bot.interact(p.command("resume"))
    user = await bot.service.deps.store.get_user(await bot.user_id(1))
    assert user is not None and not user.paused


async def test_an_unknown_or_stale_command_gets_an_error_reply_not_a_crash(bot: Harness) -> None:
    requests = await bot.interact(p.command("oldcommand"))
    (reply,) = requests
    assert reply.json["type"] == 4 and "Something went wrong" in reply.json["data"]["content"]
    assert reply.flags == EPHEMERAL


async def test_an_expired_interaction_is_dropped_quietly(bot: Harness, fake: FakeDiscord) -> None:
    payload = p.command("drill")
    fake.expired.add(payload["id"])
    requests = await bot.interact(payload)
    assert [r.path.endswith("/callback") for r in requests] == [True]  # no follow-up to a dead interaction


async def test_an_interaction_over_the_rate_limit_is_answered_slow_down_every_time(bot: Harness) -> None:
    burst = bot.service.deps.limits.rate_burst
    for _ in range(burst):
        replies = followups(await bot.interact(p.command("help")))
        assert replies and not any(r.content.startswith("That is more messages") for r in replies)
    for _ in range(2):  # each interaction needs its answer, so the refusal is said each time
        requests = await bot.interact(p.command("drill"))
        assert deferred(requests)
        (refused,) = followups(requests)
        assert refused.content.startswith("That is more messages than I can read") and refused.flags == EPHEMERAL
    assert await bot.service.deps.store.get_session(await bot.user_id(1)) == Idle()  # the refused /drill never ran
