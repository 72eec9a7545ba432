"""The notebook's edges: only a graded main answer is saved (not a follow-up, not one without a grade), the
notebook is in /export's JSON and gone after /forget, a question without key points is kept ungraded, and
the whole flow on the SQL store (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import json

from bot.core.bank import Bank
from bot.core.deps import Deps, Limits
from bot.core.models import Rubric, Text
from bot.core.service import Service
from bot.storage.store import SqlStore
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.test_notes_core import ANSWER, action, graded, saved, user


async def test_a_follow_up_answer_is_not_a_version(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    grade = await graded(service, uid)
    await service.handle_action(uid, action(grade, "fu:"))
    (follow_up,) = [r for r in await service.handle_text(uid, "Clip at 1.0.") if r.kind == "grade"]
    assert not [a for a in follow_up.actions() if a.startswith("cr:notes:")]  # no save button on it
    fu_attempt = max(store.attempts.values(), key=lambda a: a.id)
    assert fu_attempt.is_follow_up
    (r,) = await service.handle_action(uid, f"cr:notes:save:{fu_attempt.id}")
    assert r.kind == "error" and "Follow-up answers are not kept" in r.text and not store.notes


async def test_an_answer_without_a_grade_is_not_saved(service: Service, store: FakeStore, grader: FakeGrader) -> None:
    uid = await user(service)
    grader.fail = True
    await service.handle_text(uid, "/next")
    await service.handle_text(uid, ANSWER)  # the grader is down: kept for a regrade, no grade yet
    (attempt,) = store.attempts.values()
    assert attempt.grade is None
    (r,) = await service.handle_action(uid, f"cr:notes:save:{attempt.id}")
    assert r.kind == "error" and "no grade yet" in r.text and not store.notes


async def test_the_notebook_is_exported_and_forgotten(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await saved(service, uid)
    replies = await service.handle_text(uid, "/export")
    (blob,) = [r.file for r in replies if r.file and r.file.filename.endswith(".json")]
    (entry,) = json.loads(blob.data)["notebook"]
    assert entry["text"] == ANSWER and entry["score"] == 70
    await service.handle_text(uid, "/forget")
    await service.handle_action(uid, "forget:yes")
    assert not store.notes


async def test_a_question_without_key_points_or_reference_is_kept_ungraded() -> None:
    store, grader = FakeStore(), FakeGrader()
    bare = make_question("personal-like").model_copy(
        update={"rubric": Rubric(key_points=[]), "reference_answer": Text(zh="", en="")}
    )
    service = Service(Deps(store=store, bank=Bank([bare]), grader=grader, clock=FakeClock(), limits=Limits(fuzz=False)))
    uid = await user(service)
    await service.handle_action(uid, "cr:notes:write:personal-like")
    (r,) = await service.handle_text(uid, "My own story about a failed run.")
    assert "Saved as version 1" in r.text and "(not graded)" in r.text and grader.calls == []
    (page,) = await service.handle_text(uid, "/notes 1")
    assert "not graded" in page.text and "no key points" in page.text


async def test_the_notebook_on_the_sql_store(sql: SqlStore, bank: Bank) -> None:
    service = Service(Deps(store=sql, bank=bank, grader=FakeGrader(), clock=FakeClock(), limits=Limits(fuzz=False)))
    uid = await user(service)
    _, first = await saved(service, uid)
    note_id = int(first.actions()[0].rsplit(":", 1)[1])
    await service.handle_action(uid, f"cr:notes:tag:{note_id}")
    await service.handle_text(uid, "腾讯")
    note = await sql.get_note(note_id)
    assert note is not None
    await service.handle_action(uid, f"cr:notes:write:{note.question_id}")
    await service.handle_text(uid, "A second version, written by hand.")
    await service.handle_action(uid, f"cr:notes:best:{note_id}")
    one, two = await sql.list_notes(uid)
    assert (one.version, one.best, one.company, one.hit, one.origin) == (1, True, "Tencent", ["k0", "k2"], "graded")
    assert (two.version, two.best, two.origin, two.attempt_id) == (2, False, "hand", None)
    (page,) = await service.handle_text(uid, "/notes 1")
    assert "v1 ★ · " in page.text and "for Tencent" in page.text


async def test_a_hand_written_version_the_grader_fails_on_is_kept_and_says_so(
    service: Service, store: FakeStore, grader: FakeGrader
) -> None:
    uid = await user(service)
    grader.fail = True
    await service.handle_action(uid, "cr:notes:write:pipe-q-001")
    (r,) = await service.handle_text(uid, "A version while the grader is down.")
    assert "(not graded)" in r.text and "could not grade it just now" in r.text
    (note,) = store.notes.values()
    assert (note.score, note.grader, note.origin) == (None, None, "hand")


async def test_the_mock_debrief_offers_to_save_each_graded_answer() -> None:
    from tests.mock_helpers import answer_all, mock_deps

    store, clock = FakeStore(), FakeClock()
    service = Service(mock_deps(store, FakeGrader(score=70), clock))
    uid = (await service.user_for("console", "local", "en")).id
    await service.handle_text(uid, "/mock stability engineer 3")
    replies = await answer_all(service, uid, clock)
    (last,) = [r for r in replies if r.buttons and r.kind == "report"]
    mains = sorted(a.id for a in store.attempts.values() if not a.is_follow_up)
    assert last.actions() == [f"cr:notes:save:{i}" for i in mains] and last.buttons[0][0].label == "Save Q1"
    (saved_reply,) = await service.handle_action(uid, f"cr:notes:save:{mains[0]}")
    assert "Saved as version 1" in saved_reply.text and len(store.notes) == 1
