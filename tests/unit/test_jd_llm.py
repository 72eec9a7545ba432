"""/jd with an LLM (a hand-written fake JdReader and the fake rubric writer): the reading's subtopics kept
to the bank's, up to five questions written for the job added to the deck as generated personal cards,
the LLM budget respected, and the offline reading (said so) when the reader fails or the budget is spent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from bot.features.deps import Deps, Limits
from bot.kernel.bank import Bank
from bot.kernel.models import Lang
from bot.kernel.ports import JdReading
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.kernel.session import Idle
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader, FakeRubricWriter, FakeStore
from tests.unit.test_jd_flows import EN_JD, ZH_JD, jd_bank
from tests.unit.test_service import new_user

QUESTIONS = [f"Walk me through how you would shard a {n}B model with FSDP." for n in (7, 13, 34, 70, 175, 400, 1000)]


class FakeJdReader:
    """Answers a fixed reading (or None when `fail` is set) and records what it was asked."""

    def __init__(self, reading: JdReading | None = None) -> None:
        self.reading = reading or JdReading(
            skills=["Distributed training with FSDP", "Kubernetes", "Team player", "  "],
            subtopics=["parallelism", "no-such-subtopic", "rlhf", "parallelism"],
            questions=QUESTIONS,
            tokens=120,
        )
        self.fail = False
        self.calls: list[tuple[str, Lang, list[str]]] = []

    async def read(self, text: str, lang: Lang, subtopics: Sequence[str]) -> JdReading | None:
        self.calls.append((text, lang, list(subtopics)))
        return None if self.fail else self.reading


@pytest.fixture
def bank() -> Bank:
    return jd_bank()


@pytest.fixture
def reader() -> FakeJdReader:
    return FakeJdReader()


@pytest.fixture
def writer() -> FakeRubricWriter:
    return FakeRubricWriter()


@pytest.fixture
def llm(service: Service, deps: Deps, reader: FakeJdReader, writer: FakeRubricWriter) -> Service:
    service.deps = replace(deps, jd_reader=reader, rubric_writer=writer)
    return service


async def say(service: Service, uid: int, text: str) -> Reply:
    (reply,) = await service.handle_text(uid, text)
    return reply


async def test_the_llm_reading_is_kept_to_the_banks_subtopics(
    llm: Service, store: FakeStore, reader: FakeJdReader
) -> None:
    uid = await new_user(llm)
    r = await say(llm, uid, "/jd " + EN_JD)
    ((text, lang, offered),) = reader.calls
    assert text == EN_JD and lang == "en" and offered == sorted(llm.deps.bank.subtopics())
    (jd,) = await store.list_jds(uid)
    assert jd.extractor == "llm" and jd.subtopics == ["parallelism", "rlhf"]
    assert jd.skills == ["Distributed training with FSDP", "Kubernetes", "Team player"]
    assert jd.uncovered == ["Kubernetes", "Team player"]  # the text's own known skill, then the LLM's unmatched one
    assert "Read by the AI." in r.text and "- Parallelism: not practised yet" in r.text and "- RLHF:" in r.text


async def test_five_questions_become_generated_personal_cards_with_rubrics(
    llm: Service, store: FakeStore, writer: FakeRubricWriter, clock: FakeClock
) -> None:
    uid = await new_user(llm)
    r = await say(llm, uid, "/jd " + EN_JD)
    (jd,) = await store.list_jds(uid)
    assert len(jd.generated) == 5 and writer.calls == QUESTIONS[:5]
    assert "I wrote 5 questions for this job (marked generated" in r.text
    cards = {c.question_id: c for c in await store.list_cards(uid)}
    for qid, text in zip(jd.generated, QUESTIONS, strict=False):
        q = await store.get_personal_question(qid)
        assert q is not None and q.prompt.en == text and q.personal and q.generated_rubric
        assert q.sources == [f"generated:jd:{jd.id}"] and len(q.rubric.key_points) == 4
        assert q.subtopic == "parallelism" and q.topic == "pipeline"  # the writer's "test" is not the bank's
        assert cards[qid].personal and cards[qid].due == clock.now()
    assert [kind for _, kind, _, _ in store.llm_calls] == ["jd"] + ["rubric"] * 5
    assert store.llm_calls[0][2] == 120


async def test_without_a_rubric_the_question_is_still_kept_for_self_rating(
    llm: Service, store: FakeStore, writer: FakeRubricWriter
) -> None:
    writer.fail = True
    uid = await new_user(llm)
    await say(llm, uid, "/jd " + EN_JD)
    (jd,) = await store.list_jds(uid)
    q = await store.get_personal_question(jd.generated[0])
    assert q is not None and not q.generated_rubric and q.rubric.key_points == []
    assert q.sources == [f"generated:jd:{jd.id}"] and q.subtopic == "parallelism"


async def test_when_the_reader_fails_the_offline_reading_is_used_and_said(
    llm: Service, store: FakeStore, reader: FakeJdReader, writer: FakeRubricWriter
) -> None:
    reader.fail = True
    uid = await new_user(llm, "zh")
    r = await say(llm, uid, "/jd " + ZH_JD)
    assert "AI 暂时无法读取，已改为离线读取" in r.text and "- 并行策略" in r.text
    (jd,) = await store.list_jds(uid)
    assert jd.extractor == "offline" and jd.subtopics == ["parallelism", "mixed-precision"] and jd.generated == []
    assert writer.calls == [] and [kind for _, kind, _, _ in store.llm_calls] == ["jd"]


async def test_over_the_daily_limit_the_reader_is_not_called(
    llm: Service, store: FakeStore, reader: FakeJdReader, clock: FakeClock
) -> None:
    llm.deps = replace(llm.deps, limits=Limits(fuzz=False, llm_daily_limit=2))
    uid = await new_user(llm)
    for _ in range(2):
        await store.record_llm_call(uid, "grade", 10, clock.now())
    r = await say(llm, uid, "/jd " + EN_JD)
    assert reader.calls == [] and "You have used your AI calls for the last 24 hours, so I read it offline" in r.text
    (jd,) = await store.list_jds(uid)
    assert jd.extractor == "offline" and jd.generated == []


async def test_the_budget_running_out_midway_leaves_the_rest_without_rubrics(
    llm: Service, store: FakeStore, writer: FakeRubricWriter
) -> None:
    llm.deps = replace(llm.deps, limits=Limits(fuzz=False, llm_daily_limit=3))
    uid = await new_user(llm)
    await say(llm, uid, "/jd " + EN_JD)
    (jd,) = await store.list_jds(uid)
    questions = [await store.get_personal_question(qid) for qid in jd.generated]
    assert [q.generated_rubric for q in questions if q] == [True, True, False, False, False]
    assert len(writer.calls) == 2 and len(store.llm_calls) == 3


async def test_a_reading_with_no_bank_subtopic_and_no_question_is_not_kept(
    llm: Service, store: FakeStore, reader: FakeJdReader
) -> None:
    reader.reading = JdReading(skills=["Kubernetes"], subtopics=["made-up"], questions=[], tokens=5)
    uid = await new_user(llm)
    r = await say(llm, uid, "/jd Run our clusters on Kubernetes")
    assert "ones the bank does not cover: Kubernetes" in r.text and await store.list_jds(uid) == []
    assert isinstance(await store.get_session(uid), Idle)


async def test_the_whole_llm_path_on_the_sql_store(sql: SqlStore) -> None:
    """Kept, generated cards and the focus on SQLite (and PostgreSQL when configured), as on the fake."""
    clock = FakeClock()
    deps = build_test_app(jd_bank(), grader=FakeGrader(), store=sql, clock=clock, jd_reader=FakeJdReader(), rubric_writer=FakeRubricWriter()).deps  # fmt: skip
    service = Service(deps)
    uid = await new_user(service)
    r = await say(service, uid, "/jd " + EN_JD)
    (jd,) = await sql.list_jds(uid)
    assert jd.subtopics == ["parallelism", "rlhf"] and len(jd.generated) == 5 and "I wrote 5 questions" in r.text
    q = await sql.get_personal_question(jd.generated[4])
    assert q is not None and q.sources == [f"generated:jd:{jd.id}"] and q.generated_rubric
    assert {c.question_id for c in await sql.list_cards(uid)} == set(jd.generated)
    (focus,) = await service.handle_action(uid, f"cr:jd:on:{jd.id}:7")
    active = await sql.active_jd(uid, clock.now())
    assert active is not None and active.id == jd.id and "Focus set on" in focus.text
