"""Concurrency: one user's slow grading never delays another's reply, each chat's updates stay in
order, a progress message becomes the result, and a redelivered update is handled once."""

from __future__ import annotations

import asyncio
from typing import Any

from telegram import Update

from bot.platforms.telegram.processor import PerChatUpdateProcessor
from tests.telegram import updates
from tests.telegram.conftest import Harness, MakeHarness

SLOW, FAST = 701, 702


async def test_a_slow_grading_does_not_delay_another_user(tg: Harness) -> None:
    await tg.say(SLOW, "/drill")
    await tg.say(FAST, "/drill")
    tg.server.push(updates.text(SLOW, "a slow answer"))
    await asyncio.wait_for(tg.grader.started.wait(), 10)  # the slow user's grading is under way
    (fast_grade,) = await tg.say(FAST, "a quick answer")
    assert "Score:" in fast_grade.text
    assert not tg.grader.gate.is_set() and not any("Score:" in s.text for s in tg.server.to(SLOW))
    tg.grader.gate.set()
    grade = await tg.server.wait_for(lambda: [s for s in tg.server.to(SLOW) if "Score:" in s.text])
    assert grade[0].at > fast_grade.at


async def test_one_chats_updates_stay_in_order(tg: Harness) -> None:
    await tg.say(SLOW, "/drill")
    tg.server.push(updates.text(SLOW, "a slow answer"), updates.text(SLOW, "/help"))
    await asyncio.wait_for(tg.grader.started.wait(), 10)
    await tg.say(FAST, "/help")  # the bot is busy with other chats meanwhile...
    assert tg.server.to(SLOW)[-1].text.startswith("[")  # ...but this chat's /help waits for its grade
    tg.grader.gate.set()
    texts = await tg.server.wait_for(
        lambda: [s.text for s in tg.server.to(SLOW)][1:] if len(tg.server.to(SLOW)) >= 3 else None
    )
    assert texts[0].startswith("Score:") and texts[1].startswith("Commands:")


async def test_typing_then_a_progress_message_that_becomes_the_grade(make_telegram: MakeHarness) -> None:
    tg = await make_telegram(typing_after=0.0, progress_after=0.0)
    await tg.say(SLOW, "/drill")
    before = len(tg.server.to(SLOW))
    tg.server.push(updates.text(SLOW, "a slow answer"))
    await asyncio.wait_for(tg.grader.started.wait(), 10)
    progress = await tg.server.wait_for(
        lambda: [s for s in tg.server.to(SLOW)[before:] if s.text == "Working on it..."]
    )
    assert tg.server.to(SLOW, "sendChatAction")[-1].text == "typing"
    tg.grader.gate.set()
    (edit,) = await tg.server.wait_for(
        lambda: [s for s in tg.server.to(SLOW, "editMessageText") if s.text.startswith("Score:")]
    )
    assert edit.message_id == progress[0].message_id and "next" in edit.actions
    assert [m.text[:6] for m in tg.server.messages(SLOW)][-1] == "Score:"  # the chat shows the grade, once


async def test_a_duplicate_update_is_handled_once(tg: Harness) -> None:
    update = updates.text(SLOW, "/help")
    update["update_id"] = 9001
    sent = await tg.deliver(update, dict(update))  # the same update_id twice, as after a redelivery
    assert len(sent) == 1 and sent[0].text.startswith("Commands:")


def _update(chat_id: int, update_id: int) -> Update:
    return Update.de_json(updates.text(chat_id, "x") | {"update_id": update_id}, None)  # type: ignore[arg-type]


async def test_the_processor_runs_chats_concurrently_and_each_chat_in_order() -> None:
    processor = PerChatUpdateProcessor(max_active=8)
    order: list[tuple[int, int]] = []
    release = {1: asyncio.Event(), 2: asyncio.Event()}

    async def work(chat: int, n: int) -> None:
        if n == 0:
            await release[chat].wait()
        order.append((chat, n))

    jobs: list[Any] = []
    for n in range(3):
        for chat in (1, 2):
            jobs.append(asyncio.create_task(processor.process_update(_update(chat, n), work(chat, n))))
    await asyncio.sleep(0)
    release[2].set()  # chat 2 finishes while chat 1's first update still waits
    await asyncio.wait_for(asyncio.gather(*[j for j in jobs[1::2]]), 5)
    assert order == [(2, 0), (2, 1), (2, 2)] and processor.waiting_chats == 1
    release[1].set()
    await asyncio.wait_for(asyncio.gather(*jobs), 5)
    assert [n for chat, n in order if chat == 1] == [0, 1, 2] and processor.waiting_chats == 0


async def test_a_flooding_chat_does_not_hold_the_active_slots() -> None:
    processor = PerChatUpdateProcessor(max_active=1)
    gate, order = asyncio.Event(), []

    async def job(name: str, wait: bool = False) -> None:
        if wait:
            await gate.wait()
        order.append(name)

    flood = [asyncio.create_task(processor.process_update(_update(1, n), job(f"flood{n}", n == 0))) for n in range(5)]
    other = asyncio.create_task(processor.process_update(_update(2, 99), job("other")))
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == [] and processor.waiting_chats == 2  # chat 1's first update holds the only slot
    gate.set()
    await asyncio.wait_for(asyncio.gather(*flood, other), 5)
    assert order[:2] == ["flood0", "other"]  # chat 1's queued updates did not take the slot first
