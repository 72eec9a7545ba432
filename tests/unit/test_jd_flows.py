"""/jd through the service with fakes, offline (no JD reader): pasting or sending a job description in
either language, the reply with mastery and due cards, choosing the focus, the kept list and its commands
in both languages, the limits, and one user never reaching another's job descriptions."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.features.deps import Deps
from bot.features.jd.read import MAX_JDS
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.parsing import parse_line
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.kernel.session import Idle, InCareer
from tests.conftest import ROOT
from tests.fakes import FakeClock, FakeStore
from tests.unit.test_service import new_user, onboard

FILES = ["pipeline/pipe-par-zero-001", "stability/stab-precision-001", "pipeline/pipe-rlhf-ppo-loop-001",
         "pipeline/pipe-tok-002"]  # fmt: skip
EN_JD = """Senior ML Engineer, Distributed Training
We train large models on thousands of GPUs.
- Own our FSDP / DeepSpeed ZeRO training stack and tensor parallelism.
- Support BF16 mixed precision.
- Run the cluster on Kubernetes."""
ZH_JD = """大模型训练工程师
岗位职责：负责分布式训练框架（数据并行、张量并行），支持混合精度训练；
任职要求：熟悉 Kubernetes，有推荐系统经验者优先。"""


def jd_bank() -> Bank:
    from bot.content.loader import load_file

    questions = []
    for name in FILES:
        q, problems = load_file(ROOT / "content" / f"{name}.yaml")
        assert q is not None and not problems
        questions.append(q)
    return Bank(questions)


@pytest.fixture
def bank() -> Bank:
    return jd_bank()


async def say(service: Service, uid: int, text: str) -> Reply:
    (reply,) = await service.handle_text(uid, text)
    return reply


async def test_paste_after_jd_reads_keeps_and_offers_the_focus(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    r = await say(service, uid, "/jd")
    assert r.ask_text and "Paste a job description" in r.text and r.actions() == ["cr:jd:cancel"]
    assert await store.get_session(uid) == InCareer(tool="jd", step="paste")
    r = await say(service, uid, EN_JD)
    assert r.text.startswith("Senior ML Engineer, Distributed Training\nRead offline")
    assert "- Parallelism: not practised yet (1 question in the bank)" in r.text
    assert "- Mixed precision: not practised yet" in r.text
    assert "Not in the bank (practise these elsewhere): Kubernetes" in r.text
    (jd,) = await store.list_jds(uid)
    assert jd.subtopics == ["parallelism", "mixed-precision"] and jd.uncovered == ["Kubernetes"]
    assert jd.extractor == "offline" and jd.text == EN_JD and jd.active_until is None
    assert r.actions() == [f"cr:jd:on:{jd.id}:7", f"cr:jd:on:{jd.id}:14", f"cr:jd:on:{jd.id}:30"]
    assert [b.label for row in r.buttons for b in row] == ["7 days", "14 days", "30 days"]
    assert all(len(a.encode()) <= 64 for a in r.actions())
    assert isinstance(await store.get_session(uid), Idle)


async def test_a_chosen_number_of_days_activates_the_focus(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    await say(service, uid, "/jd " + EN_JD)
    (jd,) = await store.list_jds(uid)
    (r,) = await service.handle_action(uid, f"cr:jd:on:{jd.id}:14")
    until = clock.now() + timedelta(days=14)
    assert "until 2026-03-16" in r.text and "due reviews still come first" in r.text
    active = await store.active_jd(uid, clock.now())
    assert active is not None and active.id == jd.id and active.active_until == until
    assert active.subtopics == ["parallelism", "mixed-precision"]
    clock.advance(days=15)
    assert await store.active_jd(uid, clock.now()) is None


async def test_a_chinese_jd_is_read_and_answered_in_chinese(service: Service, store: FakeStore) -> None:
    uid = await new_user(service, "zh")
    r = await say(service, uid, "/jd " + ZH_JD)
    assert r.text.startswith("大模型训练工程师\n离线读取")
    assert "- 并行策略：还没练过（题库里有 1 道题）" in r.text and "- 混合精度：还没练过" in r.text
    assert "题库未覆盖（需要另外准备）：Kubernetes、Recommender systems" in r.text
    assert [b.label for row in r.buttons for b in row] == ["7 天", "14 天", "30 天"]
    (jd,) = await store.list_jds(uid)
    assert jd.subtopics == ["parallelism", "mixed-precision"] and jd.skills[:2] == ["分布式训练", "数据并行"]


async def test_the_reply_shows_mastery_and_due_cards_of_a_practised_subtopic(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    await onboard(service, uid)
    question = (await service.handle(c.NextQuestion(uid)))[0].text
    await service.handle(c.SubmitAnswer(uid, "I shard optimizer states, then gradients, then parameters."))
    (card,) = await store.list_cards(uid)
    q = service.deps.bank.get(card.question_id)
    assert q is not None and q.prompt.en[:30] in question
    clock.advance(days=60)  # the card is due again
    (jd_reply,) = await service.handle_text(uid, "/jd " + EN_JD + "\nAlso: tokenizer, RLHF, ZeRO, BF16, " + q.subtopic)
    line = next(x for x in jd_reply.text.splitlines() if x.startswith("- ") and "mastery" in x)
    assert line.endswith("1 question due") and "mastery " in line
    percent = int(line.split("mastery ")[1].split("%")[0])
    assert 0 < percent < 100


async def test_the_kept_list_and_its_commands_in_english(service: Service, store: FakeStore, clock: FakeClock) -> None:
    uid = await new_user(service)
    assert (await say(service, uid, "/jd list")).text.startswith("You have no job descriptions yet")
    await say(service, uid, "/jd " + EN_JD)
    await say(service, uid, "/jd RLHF engineer\nPPO, reward models, tokenizer work")
    r = await say(service, uid, "/jd use 2 7")
    assert "Focus set on \u201cRLHF engineer\u201d until 2026-03-09" in r.text
    r = await say(service, uid, "/jd list")
    assert "1. Senior ML Engineer, Distributed Training: Parallelism, Mixed precision\n" in r.text
    assert "2. RLHF engineer: RLHF, Tokenizer - focus until 2026-03-09" in r.text
    r = await say(service, uid, "/jd use 1")  # 14 days by default; the other one stops
    active = await store.active_jd(uid, clock.now())
    assert active is not None and active.title.startswith("Senior") and "until 2026-03-16" in r.text
    assert "The focus on \u201cSenior ML Engineer" in (await say(service, uid, "/jd off")).text
    assert await store.active_jd(uid, clock.now()) is None
    assert "No job description is focusing" in (await say(service, uid, "/jd off")).text
    assert (await say(service, uid, "/jd delete 1")).text == "Deleted 1. Senior ML Engineer, Distributed Training."
    assert [j.title for j in await store.list_jds(uid)] == ["RLHF engineer"]


async def test_the_commands_in_chinese_words(service: Service, store: FakeStore, clock: FakeClock) -> None:
    uid = await new_user(service, "zh")
    await say(service, uid, "/jd " + ZH_JD)
    assert "练习重点已设为“大模型训练工程师”" in (await say(service, uid, "/jd 使用 1 30")).text
    assert (
        "1. 大模型训练工程师：并行策略、混合精度 - 练习重点，至 2026-04-01"
        in (await say(service, uid, "/jd 列表")).text
    )
    assert "已取消“大模型训练工程师”的练习重点" in (await say(service, uid, "/jd 关闭")).text
    await say(service, uid, "/jd 使用 1")
    r = await say(service, uid, "/jd 删除 1")
    assert r.text.startswith("已删除第 1 份：大模型训练工程师。它原来是练习重点")
    assert await store.list_jds(uid) == [] and await store.active_jd(uid, clock.now()) is None


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("use 3", "I have no job description 3"),
        ("use 0", "I have no job description 0"),
        ("delete 9", "I have no job description 9"),
        ("use 1 400", "between 1 and 90"),
        ("use 1 0", "between 1 and 90"),
        ("use abc", "/jd list, /jd use N [days]"),
        ("delete", "/jd list, /jd use N [days]"),
        ("off now", "/jd list, /jd use N [days]"),
    ],
)
async def test_bad_numbers_and_words_get_a_clear_reply(service: Service, words: str, expected: str) -> None:
    uid = await new_user(service)
    await say(service, uid, "/jd " + EN_JD)
    r = await say(service, uid, "/jd " + words)
    assert expected in r.text and r.kind == "error"


async def test_a_longer_text_starting_with_a_command_word_is_a_job_description(
    service: Service, store: FakeStore
) -> None:
    uid = await new_user(service)
    r = await say(service, uid, "/jd Use FSDP and DeepSpeed ZeRO to train our models")
    assert "Parallelism" in r.text and len(await store.list_jds(uid)) == 1


async def test_a_job_description_on_the_lines_after_the_command_is_read(service: Service, store: FakeStore) -> None:
    assert parse_line(1, "/jd\nFSDP and ZeRO") == c.CareerCommand(1, "jd", "FSDP and ZeRO")
    uid = await new_user(service)
    await say(service, uid, "/jd\n" + EN_JD)
    assert [j.title for j in await store.list_jds(uid)] == ["Senior ML Engineer, Distributed Training"]


async def test_empty_garbage_and_bank_less_texts_are_not_kept(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await say(service, uid, "/jd")
    r = await say(service, uid, "   ")
    assert "That was empty" in r.text and r.kind == "error"
    r = await say(service, uid, "/jd We are a friendly team in Berlin with free lunch")
    assert "I found no skills I can match" in r.text and r.kind == "error"
    r = await say(service, uid, "/jd Kubernetes, Docker and C++ for our inference serving platform")
    assert "The skills I found are ones the bank does not cover: Kubernetes, Docker, C++, Inference serving" in r.text
    assert await store.list_jds(uid) == []


async def test_an_oversized_text_is_refused(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    r = await say(service, uid, "/jd " + "FSDP " * 5000)
    assert "24999 characters; I take up to 20000" in r.text and r.kind == "error"  # 5000 x "FSDP ", stripped
    assert await store.list_jds(uid) == []


async def test_at_most_twenty_job_descriptions_are_kept(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    for i in range(MAX_JDS):
        await say(service, uid, f"/jd Job {i}\nFSDP")
    r = await say(service, uid, "/jd One more\nFSDP")
    assert "as many job descriptions as I can keep (20)" in r.text and r.kind == "error"
    assert len(await store.list_jds(uid)) == MAX_JDS
    await say(service, uid, "/jd delete 1")
    assert "Kept as number 20" in (await say(service, uid, "/jd One more\nFSDP")).text


async def test_another_users_job_description_is_never_reached(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    alice = await new_user(service)
    bob = (await service.user_for("test", "u2", "en")).id
    await say(service, alice, "/jd " + EN_JD)
    (jd,) = await store.list_jds(alice)
    (r,) = await service.handle_action(bob, f"cr:jd:on:{jd.id}:30")
    assert "is gone (deleted, or not yours)" in r.text
    assert await store.active_jd(alice, clock.now()) is None and await store.active_jd(bob, clock.now()) is None
    assert "I have no job description 1" in (await say(service, bob, "/jd use 1")).text
    assert "I have no job description 1" in (await say(service, bob, "/jd delete 1")).text
    assert "have no job descriptions yet" in (await say(service, bob, "/jd list")).text
    assert len(await store.list_jds(alice)) == 1


async def test_cancel_leaves_nothing_and_stale_buttons_do_nothing(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await say(service, uid, "/jd")
    (r,) = await service.handle_action(uid, "cr:jd:cancel")
    assert r.text == "OK, nothing was read or kept." and isinstance(await store.get_session(uid), Idle)
    (r,) = await service.handle_action(uid, "cr:jd:cancel")
    assert "step that is over" in r.text
    for stale in ("cr:jd:on:x:7", "cr:jd:on:999:7", "cr:jd:bogus"):
        (r,) = await service.handle_action(uid, stale)
        assert "nothing was done" in r.text or "is gone" in r.text
    assert await store.list_jds(uid) == []


async def test_a_sent_file_can_be_placed_as_a_job_description(service: Service, deps: Deps, store: FakeStore) -> None:
    uid = await new_user(service)
    service.deps = replace(deps, read_document=lambda data, name: data.decode("utf-8"))
    (r,) = await service.handle(c.UploadDocument(uid, EN_JD.encode(), "jd.txt"))
    assert "cr:file:jd" in r.actions() and "A job description" in [b.label for row in r.buttons for b in row]
    (r,) = await service.handle_action(uid, "cr:file:jd")
    assert "- Parallelism: not practised yet" in r.text
    assert [j.title for j in await store.list_jds(uid)] == ["Senior ML Engineer, Distributed Training"]


async def test_a_file_sent_while_jd_waits_is_read_at_once(service: Service, deps: Deps, store: FakeStore) -> None:
    uid = await new_user(service, "zh")
    service.deps = replace(deps, read_document=lambda data, name: data.decode("utf-8"))
    await say(service, uid, "/jd")
    (r,) = await service.handle(c.UploadDocument(uid, ZH_JD.encode(), "jd.md"))
    assert "- 并行策略" in r.text and len(await store.list_jds(uid)) == 1


async def test_help_names_jd(service: Service) -> None:
    uid = await new_user(service)
    (r,) = await service.handle(c.ShowHelp(uid))
    assert "/jd - tailor your practice to a job description" in r.text
