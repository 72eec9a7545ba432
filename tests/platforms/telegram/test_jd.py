"""/jd through the real python-telegram-bot and the fake Bot API: a .txt document sent after /jd is read
as the job description, one sent unasked is offered as one, an oversized one is refused before download."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from bot.kernel.bank import Bank
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness
from tests.unit.test_jd_flows import EN_JD, ZH_JD, jd_bank

CHAT = 611
_ids = itertools.count(900)


@pytest.fixture
def bank() -> Bank:
    return jd_bank()


def document(chat_id: int, file_id: str, name: str, size: int, language_code: str = "en") -> dict[str, Any]:
    """A message carrying a file, as Telegram sends it."""
    message = {
        "message_id": next(_ids),
        "date": int(time.time()),
        "chat": updates.chat(chat_id),
        "from": updates.user(chat_id, language_code),
        "document": {"file_id": file_id, "file_unique_id": file_id, "file_name": name, "mime_type": "text/plain",
                     "file_size": size},
    }  # fmt: skip
    return {"message": message}


async def test_a_txt_document_after_jd_is_read_and_its_focus_chosen(tg: Harness) -> None:
    (asked,) = await tg.say(CHAT, "/jd")
    assert "Paste a job description" in asked.text and asked.actions == ["cr:jd:cancel"]
    data = EN_JD.encode()
    file_id = tg.server.add_file(data, "documents/file_1.txt")
    (reading,) = await tg.deliver(document(CHAT, file_id, "senior-ml.txt", len(data)))
    assert reading.text.startswith("Senior ML Engineer, Distributed Training")
    assert "- Parallelism: not practised yet" in reading.text and "Kubernetes" in reading.text
    uid = await tg.user_id(CHAT)
    (jd,) = await tg.app.store.list_jds(uid)
    assert reading.actions == [f"cr:jd:on:{jd.id}:{d}" for d in (7, 14, 30)]
    (focus,) = await tg.press(CHAT, f"cr:jd:on:{jd.id}:7")
    assert "Focus set on" in focus.text
    active = await tg.app.store.active_jd(uid, tg.app.service.deps.clock.now())
    assert active is not None and active.id == jd.id


async def test_a_document_sent_unasked_is_offered_as_a_job_description(tg: Harness) -> None:
    data = ZH_JD.encode()
    file_id = tg.server.add_file(data, "documents/file_2.md")
    (offer,) = await tg.deliver(document(CHAT, file_id, "jd.md", len(data), "zh"))
    assert "cr:file:jd" in offer.actions
    (reading,) = await tg.press(CHAT, "cr:file:jd")
    assert "- 并行策略：还没练过" in reading.text  # the user came with a Chinese Telegram client
    assert len(await tg.app.store.list_jds(await tg.user_id(CHAT))) == 1


async def test_an_oversized_document_is_refused_before_download(tg: Harness) -> None:
    await tg.say(CHAT, "/jd")
    (reply,) = await tg.deliver(document(CHAT, "huge-doc", "jd.pdf", 5_000_000))
    assert "5.0 MB; I take files up to 2 MB" in reply.text
    assert not any(m == "getFile" for m, _ in tg.server.calls)
