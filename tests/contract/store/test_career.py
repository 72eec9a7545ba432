"""The career ports' contract: job descriptions (one active per user, only the owner's), notebook entries
(versions numbered per user and question, one best per question) and applications read back as stored;
another user's rows are never touched; a deleted user's rows go with them."""

from __future__ import annotations

from bot.features.career.models import Application, JobDescription, NoteEntry, StageChange
from bot.kernel.store_ports import Store
from tests.contract.store.helpers import DAY, HOUR, NOW, new_user


def _jd(user_id: int, title: str = "LLM infra", created=NOW) -> JobDescription:  # type: ignore[no-untyped-def]
    return JobDescription(user_id=user_id, title=title, text="负责大模型分布式训练 ZeRO / FSDP", skills=["ZeRO"],
                          subtopics=["zero", "parallelism"], uncovered=["CUDA kernels"], created_at=created)  # fmt: skip


def _note(user_id: int, question_id: str = "stab-nan-debug-001", **fields) -> NoteEntry:  # type: ignore[no-untyped-def]
    values = {"text": "First I check the data.", "score": 62, "grader": "offline", "hit": ["data"],
              "missed": ["clip"], "created_at": NOW, **fields}  # fmt: skip
    return NoteEntry(user_id=user_id, question_id=question_id, **values)


def _app(user_id: int, company: str = "字节跳动", created=NOW) -> Application:  # type: ignore[no-untyped-def]
    return Application(user_id=user_id, company=company, role="LLM infra", history=[StageChange(stage="applied", at=created)],
                       created_at=created, updated_at=created)  # fmt: skip


async def test_a_job_description_reads_back_and_only_one_is_active(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    first = await store.add_jd(_jd(u.id))
    second = await store.add_jd(_jd(u.id, "Pretraining", NOW + HOUR))
    theirs = await store.add_jd(_jd(other.id))
    assert first.id > 0 and len({first.id, second.id, theirs.id}) == 3
    assert await store.get_jd(first.id) == first and first.active_until is None
    assert [j.id for j in await store.list_jds(u.id)] == [first.id, second.id]
    assert await store.active_jd(u.id, NOW) is None
    assert await store.activate_jd(u.id, first.id, NOW + 7 * DAY)
    assert await store.activate_jd(other.id, theirs.id, NOW + DAY)
    active = await store.active_jd(u.id, NOW)
    assert active is not None and active.id == first.id and active.active_until == NOW + 7 * DAY
    assert await store.active_jd(u.id, NOW + 7 * DAY) is None  # expired at its end
    assert await store.activate_jd(u.id, second.id, NOW + 3 * DAY)
    mine = {j.id: j.active_until for j in await store.list_jds(u.id)}
    assert mine == {first.id: None, second.id: NOW + 3 * DAY}
    assert not await store.activate_jd(u.id, theirs.id, NOW + DAY)  # not theirs: nothing changes
    assert (await store.active_jd(other.id, NOW)).id == theirs.id  # type: ignore[union-attr]
    assert (await store.active_jd(u.id, NOW)).id == second.id  # type: ignore[union-attr]
    assert await store.activate_jd(u.id, None, None)
    assert await store.active_jd(u.id, NOW) is None and await store.active_jd(other.id, NOW) is not None


async def test_saving_a_job_description_keeps_owner_and_active_date_and_delete_is_owner_only(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    jd = await store.add_jd(_jd(u.id))
    await store.activate_jd(u.id, jd.id, NOW + DAY)
    edited = jd.model_copy(update={"user_id": other.id, "subtopics": ["tokenizer"], "generated": ["u1-q-9"],
                                   "active_until": None, "extractor": "llm:m"})  # fmt: skip
    await store.save_jd(edited)
    back = await store.get_jd(jd.id)
    assert back is not None and back.user_id == u.id and back.active_until == NOW + DAY
    assert back.subtopics == ["tokenizer"] and back.generated == ["u1-q-9"] and back.extractor == "llm:m"
    assert not await store.delete_jd(other.id, jd.id) and await store.get_jd(jd.id) is not None
    assert await store.delete_jd(u.id, jd.id) and await store.get_jd(jd.id) is None
    assert not await store.delete_jd(u.id, jd.id)


async def test_notebook_versions_are_numbered_per_user_and_question(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    a1 = await store.add_note(_note(u.id))
    a2 = await store.add_note(_note(u.id, text="v2", company="ByteDance", origin="hand"))
    b1 = await store.add_note(_note(u.id, "pipe-zero-001"))
    o1 = await store.add_note(_note(other.id))
    assert (a1.version, a2.version, b1.version, o1.version) == (1, 2, 1, 1)
    assert await store.get_note(a2.id) == a2 and a2.company == "ByteDance" and a2.origin == "hand"
    assert [n.id for n in await store.list_notes(u.id)] == [b1.id, a1.id, a2.id]  # by question, then version
    assert [n.id for n in await store.list_notes(u.id, "stab-nan-debug-001")] == [a1.id, a2.id]
    assert await store.count_notes(u.id) == 3 and await store.count_notes(other.id) == 1
    assert await store.delete_note(u.id, a2.id)
    a3 = await store.add_note(_note(u.id))
    assert a3.version == 2  # the next after the highest kept


async def test_one_best_version_per_question_and_only_the_owner_marks_it(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    a1, a2 = await store.add_note(_note(u.id)), await store.add_note(_note(u.id))
    b1 = await store.add_note(_note(u.id, "pipe-zero-001"))
    assert await store.mark_best(u.id, b1.id) and await store.mark_best(u.id, a1.id)
    assert await store.mark_best(u.id, a2.id)
    best = {n.id: n.best for n in await store.list_notes(u.id)}
    assert best == {a1.id: False, a2.id: True, b1.id: True}
    assert not await store.mark_best(other.id, a1.id)
    assert not (await store.get_note(a1.id)).best  # type: ignore[union-attr]
    edited = a2.model_copy(update={"text": "tightened", "best": False, "version": 9, "user_id": other.id,
                                   "company": "Moonshot"})  # fmt: skip
    await store.save_note(edited)
    back = await store.get_note(a2.id)
    assert back is not None and back.text == "tightened" and back.company == "Moonshot"
    assert (back.best, back.version, back.user_id) == (True, 2, u.id)
    assert not await store.delete_note(other.id, a1.id) and await store.get_note(a1.id) is not None


async def test_applications_read_back_and_save_keeps_owner(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    first = await store.add_application(_app(u.id))
    second = await store.add_application(_app(u.id, "Moonshot", NOW + HOUR))
    await store.add_application(_app(other.id))
    assert await store.get_application(first.id) == first
    assert [a.id for a in await store.list_applications(u.id)] == [first.id, second.id]
    moved = first.model_copy(update={"stage": "technical", "round": 2, "updated_at": NOW + DAY, "user_id": other.id,
                                     "history": [*first.history, StageChange(stage="technical", round=2, at=NOW + DAY)]})  # fmt: skip
    await store.save_application(moved)
    back = await store.get_application(first.id)
    assert back is not None and back.user_id == u.id and back.stage == "technical" and back.round == 2
    assert back.updated_at == NOW + DAY and [h.stage for h in back.history] == ["applied", "technical"]
    assert await store.count_applications(u.id) == 2
    assert not await store.delete_application(other.id, first.id)
    assert await store.delete_application(u.id, first.id) and await store.count_applications(u.id) == 1


async def test_a_deleted_user_takes_their_career_records_along(store: Store) -> None:
    u, other = await new_user(store, "1"), await new_user(store, "2")
    for user in (u, other):
        jd = await store.add_jd(_jd(user.id))
        await store.activate_jd(user.id, jd.id, NOW + DAY)
        await store.add_note(_note(user.id))
        await store.add_application(_app(user.id))
    await store.delete_user(u.id)
    assert await store.list_jds(u.id) == [] and await store.active_jd(u.id, NOW) is None
    assert await store.list_notes(u.id) == [] and await store.list_applications(u.id) == []
    assert len(await store.list_jds(other.id)) == 1 and await store.count_notes(other.id) == 1
    assert await store.count_applications(other.id) == 1
