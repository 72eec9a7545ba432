"""A mock interview in a Telegram private chat, through the real python-telegram-bot and the fake Bot API:
the suggested mock in one tap, quiet answers (one by voice), follow-ups, and the debrief."""

from __future__ import annotations

import pytest

from bot.kernel.bank import Bank
from tests.fakes import FakeTranscriber
from tests.mock_helpers import PLAIN_ANSWER, mock_bank
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness

CHAT = 611


@pytest.fixture
def bank() -> Bank:
    return mock_bank()


async def test_a_whole_mock_interview_in_a_private_chat(tg: Harness) -> None:
    tg.app.service.deps.transcriber = FakeTranscriber(text="I would clip gradients and check the data.", seconds=30)
    (suggested,) = await tg.say(CHAT, "/mock")
    assert "Suggested mock interview" in suggested.text and suggested.actions[0] == "mk:go"
    started = await tg.press(CHAT, "mk:go")
    assert "Mock interview: mixed" in started[0].text and "Question 1 of 5" in started[-1].text
    file_id = tg.server.add_file(b"OggS fake opus", "voice/file_9.oga")
    spoken = await tg.deliver(updates.voice(CHAT, file_id, seconds=30))
    assert "I would clip gradients" in spoken[0].text and spoken[-1].text.startswith("Follow-up")
    assert not any("Score" in s.text for s in spoken)
    sent = []
    for _ in range(20):
        tg.app.service.deps.clock.advance(minutes=2)  # type: ignore[attr-defined]  # (and under the rate limit)
        sent = await tg.say(CHAT, PLAIN_ANSWER)
        if any("Debrief" in s.text for s in sent):
            break
    texts = [s.text for s in sent]
    assert any("Overall: 70/100 · hire" in x for x in texts) and any("Top gaps" in x for x in texts)
    assert all(len(x) <= 4096 for x in texts)
    assert any(s.method == "sendPhoto" for s in sent)  # the debrief's chart (matplotlib, as in production)
    tg.app.service.deps.clock.advance(minutes=2)  # type: ignore[attr-defined]
    (history,) = await tg.say(CHAT, "/mock history")
    assert "5/5 answered · 70 (hire)" in history.text
