"""Concurrency: one user's slow grading never delays another's reply, each chat's updates stay in
order, a progress message becomes the result, and a redelivered update is handled once."""

from __future__ import annotations

import asyncio
from typing import Any

from telegram import Update

from bot.platforms.telegram.processor import PerChatUpdateProcessor, release_slot
from tests.platforms.telegram import updates
from tests.platforms.telegram.conftest import Harness, MakeHarness

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


async def test_a_chat_flooding_behind_a_slow_grading_does_not_stall_anyone_else(tg: Harness) -> None:
    await tg.say(SLOW, "/drill")
    tg.server.push(updates.text(SLOW, "a slow answer"))
    await asyncio.wait_for(tg.grader.started.wait(), 10)
    flood = 1_100  # more than the 1,024 in-flight slots python-telegram-bot suggests
    ids = tg.server.push(*[updates.text(SLOW, "/help") for _ in range(flood)])
    sent = await asyncio.wait_for(tg.say(FAST, "/help"), 5)  # answered while the grading still waits
    (reply,) = [s for s in sent if s.chat_id == FAST]
    assert reply.text.startswith("Commands:") and not tg.grader.gate.is_set()
    processor = tg.runtime.application.update_processor
    assert isinstance(processor, PerChatUpdateProcessor)
    accepted = processor.max_per_chat - 1  # the slow answer is the chat's first update in flight
    assert processor.shed == flood - accepted
    (busy,) = [s for s in tg.server.to(SLOW) if s.text.startswith("I am still working")]  # told once
    tg.grader.gate.set()
    await asyncio.wait_for(asyncio.gather(*[tg._event(i).wait() for i in ids[:accepted]]), 10)
    assert processor.waiting_chats == 0 and not any(i in tg.done for i in ids[accepted:])  # the rest never ran
    texts = [s.text for s in tg.server.to(SLOW) if s.at > busy.at]
    assert texts[0].startswith("Score:")  # the accepted updates are all handled, in order
    burst = tg.app.service.deps.limits.rate_burst - 2  # /drill and the answer took two of the user's burst
    assert [x[:9] for x in texts[1:]] == ["Commands:"] * burst + ["That is m"]  # then one "slow down", then quiet


async def test_a_full_chat_queue_skips_updates_unrun_and_calls_on_shed_once() -> None:
    told: list[int] = []

    async def on_shed(update: object) -> None:
        assert isinstance(update, Update)
        told.append(update.update_id)

    processor = PerChatUpdateProcessor(max_active=4, max_per_chat=2, on_shed=on_shed)
    gate, ran = asyncio.Event(), []

    async def job(n: int) -> None:
        if n == 0:
            await gate.wait()
        ran.append(n)

    jobs = [asyncio.create_task(processor.process_update(_update(1, n), job(n))) for n in range(5)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert processor.shed == 3 and told == [2]  # updates 2-4 skipped; the user told once
    gate.set()
    await asyncio.wait_for(asyncio.gather(*jobs), 5)
    assert ran == [0, 1] and processor.waiting_chats == 0
    later = asyncio.create_task(processor.process_update(_update(1, 9), job(9)))  # the queue emptied: accepted again
    await asyncio.wait_for(later, 5)
    assert ran == [0, 1, 9]


async def test_queued_updates_of_one_chat_hold_no_slot_another_chat_needs(make_telegram: MakeHarness) -> None:
    tg = await make_telegram(chat_queue=5_000)  # no cap in the way: the waiting updates alone must not stall others
    await tg.say(SLOW, "/drill")
    tg.server.push(updates.text(SLOW, "a slow answer"))
    await asyncio.wait_for(tg.grader.started.wait(), 10)
    tg.server.push(*[updates.text(SLOW, "/help") for _ in range(1_100)])
    sent = await asyncio.wait_for(tg.say(FAST, "/help"), 5)
    assert [s.text[:9] for s in sent if s.chat_id == FAST] == ["Commands:"] and not tg.grader.gate.is_set()


async def test_an_update_waiting_on_the_grader_gives_its_slot_to_another_chat() -> None:
    processor = PerChatUpdateProcessor(max_active=1)
    gate, ran, released = asyncio.Event(), [], []

    async def grading(n: int) -> None:
        if n == 0:
            released.extend([release_slot(), release_slot()])  # given back once; the second call finds none
            await gate.wait()
        ran.append((1, n))

    async def other() -> None:
        ran.append((2, 0))

    own = [asyncio.create_task(processor.process_update(_update(1, n), grading(n))) for n in range(2)]
    await asyncio.sleep(0)
    await asyncio.wait_for(processor.process_update(_update(2, 9), other()), 5)  # the only slot was given back
    assert ran == [(2, 0)] and released == [True, False]  # chat 1's next update still waits for its first
    gate.set()
    await asyncio.wait_for(asyncio.gather(*own), 5)
    assert ran == [(2, 0), (1, 0), (1, 1)] and release_slot() is False  # outside an update: nothing to give back
    assert processor._active._value == 1  # every slot is back, none released twice


async def test_a_grading_in_flight_holds_no_slot_a_help_needs(make_telegram: MakeHarness) -> None:
    tg = await make_telegram(concurrent_updates=1)
    await tg.say(SLOW, "/drill")
    tg.server.push(updates.text(SLOW, "a slow answer"))
    await asyncio.wait_for(tg.grader.started.wait(), 10)  # the grading holds the chat, not the one slot
    sent = await asyncio.wait_for(tg.say(FAST, "/help"), 5)
    assert [s.text[:9] for s in sent if s.chat_id == FAST] == ["Commands:"] and not tg.grader.gate.is_set()
    tg.grader.gate.set()
    grade = await tg.server.wait_for(lambda: [s for s in tg.server.to(SLOW) if "Score:" in s.text])
    assert grade


def _text_update(chat_id: int, update_id: int, text: str) -> Update:
    return Update.de_json(updates.text(chat_id, text) | {"update_id": update_id}, None)  # type: ignore[arg-type]


async def test_a_command_takes_a_reserved_slot_while_every_working_slot_is_taken_and_an_answer_does_not() -> None:
    processor = PerChatUpdateProcessor(max_active=2, reserve=1)
    gate, ran = asyncio.Event(), []

    async def job(name: str, wait: bool = False) -> None:
        if wait:
            await gate.wait()
        ran.append(name)

    def run(chat: int, text: str, name: str, wait: bool = False) -> asyncio.Task[None]:
        return asyncio.create_task(processor.process_update(_text_update(chat, chat, text), job(name, wait)))

    busy = [run(c, "an answer", f"busy{c}", wait=True) for c in (1, 2)]  # both working slots, held
    answer = run(3, "another answer", "answer")
    help_ = run(4, "/help", "help")
    second = run(5, "/drill", "drill", wait=True)  # takes the one reserved slot after /help gave it back
    third = run(6, "/stats", "stats")
    for _ in range(5):
        await asyncio.sleep(0)
    assert ran == ["help"]  # the answer waits for a working slot; /help did not
    assert not answer.done() and not third.done()  # /drill holds the reserve now: /stats waits for it
    gate.set()
    await asyncio.wait_for(asyncio.gather(*busy, answer, help_, second, third), 5)
    assert sorted(ran) == ["answer", "busy1", "busy2", "drill", "help", "stats"]
    assert processor._active._value == 2 and processor._reserve._value == 1  # every slot is back


async def test_a_command_takes_a_working_slot_when_one_is_free() -> None:
    processor = PerChatUpdateProcessor(max_active=1, reserve=1)
    gate, ran = asyncio.Event(), []

    async def held(name: str) -> None:
        await gate.wait()
        ran.append(name)

    first = asyncio.create_task(processor.process_update(_text_update(1, 1, "/drill"), held("first")))
    await asyncio.sleep(0)
    assert processor._active._value == 0 and processor._reserve._value == 1  # the working slot, not the reserve
    second = asyncio.create_task(processor.process_update(_text_update(2, 2, "/help"), held("second")))
    await asyncio.sleep(0)
    assert processor._reserve._value == 0  # the working slot was taken: the reserve
    gate.set()
    await asyncio.wait_for(asyncio.gather(first, second), 5)
    assert processor.is_command(_text_update(3, 3, "/x")) and not processor.is_command(_text_update(3, 3, "x /y"))
