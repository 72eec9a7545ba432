"""Issue #34, High 6 and Medium 2 through the real Telegram adapter, on SQLite and PostgreSQL: the message rate
limit is kept per Telegram account (a /forget every 12 messages does not refill it), and transcribed seconds
count against a per-account and a global daily budget that a /forget does not reset either."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BACKENDS, fresh_database
from tests.fakes import FakeClock, FakeTranscriber
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness, MakeHarness

CHAT, BYSTANDER = 9101, 9102
SLOW_DOWN = "That is more messages than I can read at once"


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return await fresh_database(request.param, tmp_path)


def clock_of(tg: Harness) -> FakeClock:
    clock = tg.app.service.deps.clock
    assert isinstance(clock, FakeClock)
    return clock


async def test_a_forget_every_12_messages_does_not_refill_the_rate_limit(
    make_telegram: MakeHarness, database_url: str
) -> None:
    tg = await make_telegram(database_url=database_url, config={"rate_per_minute": 30, "rate_burst": 12})
    await tg.user_id(CHAT)
    await tg.say(BYSTANDER, "/start")  # a user after CHAT's: SQLite (no AUTOINCREMENT) gives a forgotten id back only
    clock = clock_of(tg)
    admitted = 0
    for n in range(100):  # 100 messages over one minute, the 11th and 12th of every 12 a /forget and its "yes"
        clock.advance(seconds=0.6)
        step = n % 12
        if step == 10:
            sent = await tg.say(CHAT, "/forget")
        elif step == 11:
            sent = await tg.press(CHAT, "forget:yes")
        else:
            sent = await tg.say(CHAT, "/help")
        shown = [s for s in sent if s.method in ("sendMessage", "editMessageText")]
        if shown and not any(s.text.startswith(SLOW_DOWN) for s in shown):
            admitted += 1
    # 12 at once, then 30 a minute: at most 42 of the 100 in that minute, however often the account forgets
    assert admitted <= 42
    assert admitted >= 12


async def voice(tg: Harness, chat: int, seconds: int) -> str:
    """A voice answer of `seconds` (as Telegram and the transcriber both measure it); the bot's replies, joined."""
    file_id = tg.server.add_file(b"OggS fake opus", f"voice/file_{chat}_{len(tg.server.files)}.oga")
    sent = await tg.deliver(updates.voice(chat, file_id, seconds=seconds))
    return "\n".join(s.text for s in sent)


def transcribed(transcriber: FakeTranscriber) -> int:
    return sum(1 for kind, _ in transcriber.calls if kind == "transcribe")


async def forget(tg: Harness, chat: int) -> None:
    await tg.say(chat, "/forget")
    (done,) = await tg.press(chat, "forget:yes")
    assert "deleted" in done.text and "one-way" in done.text
    await tg.say(chat, "/start")


async def two_voice_answers(
    make_telegram: MakeHarness, database_url: str, per_account: int, total: int
) -> tuple[Harness, FakeTranscriber]:
    """A bot with these voice budgets (seconds) whose user has answered two questions by 250 s voice notes."""
    config = {"rate_per_minute": 0, "transcribe_daily_seconds": per_account, "transcribe_daily_seconds_total": total}
    tg = await make_telegram(database_url=database_url, config=config)
    transcriber = FakeTranscriber(text="I would clip gradients and check the data.", seconds=250)
    tg.app.service.deps.transcriber = transcriber
    for _ in range(2):
        await tg.say(CHAT, "/drill")
        assert "Score:" in await voice(tg, CHAT, 250)
    return tg, transcriber


async def test_transcribed_seconds_count_against_the_accounts_24_hours_through_a_forget(
    make_telegram: MakeHarness, database_url: str
) -> None:
    tg, transcriber = await two_voice_answers(make_telegram, database_url, per_account=600, total=0)
    await tg.say(CHAT, "/drill")
    refused = await voice(tg, CHAT, 250)  # 750 of 600 seconds: not transcribed
    assert "past 10 minutes of voice answers in 24 hours (100 seconds left)" in refused
    assert "type your answer" in refused and "Score:" not in refused and transcribed(transcriber) == 2
    (typed,) = await tg.say(CHAT, "First I check the data, then the gradient norm per layer.")
    assert typed.text.startswith("Score:")  # a typed answer still works
    await forget(tg, CHAT)
    await tg.say(CHAT, "/drill")
    assert "(100 seconds left)" in await voice(tg, CHAT, 250)  # the account's seconds survive the /forget
    await tg.say(CHAT, "/lang zh")
    zh = await voice(tg, CHAT, 250)
    assert "这段录音（250 秒）会超出 24 小时内 10 分钟的语音作答上限（还剩 100 秒）" in zh and "文字" in zh
    assert transcribed(transcriber) == 2
    clock_of(tg).advance(hours=24, minutes=1)  # the two transcriptions are a day old
    assert "识别结果" in await voice(tg, CHAT, 250) and transcribed(transcriber) == 3


async def test_the_global_transcription_budget_holds_through_a_forget(
    make_telegram: MakeHarness, database_url: str
) -> None:
    tg, transcriber = await two_voice_answers(make_telegram, database_url, per_account=0, total=600)
    await forget(tg, CHAT)
    await tg.say(BYSTANDER, "/drill")
    refused = await voice(tg, BYSTANDER, 250)  # another account: 750 of the day's 600 seconds
    assert "reached today's budget for everyone" in refused and "midnight UTC" in refused
    assert transcribed(transcriber) == 2
    (typed,) = await tg.say(BYSTANDER, "First I check the data, then the gradient norm per layer.")
    assert typed.text.startswith("Score:")
    await tg.say(BYSTANDER, "/drill")
    transcriber.seconds = 100  # what is left of the budget fits
    assert "Score:" in await voice(tg, BYSTANDER, 100) and transcribed(transcriber) == 3
