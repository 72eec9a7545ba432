"""The notebook's edges: only a graded main answer is saved (not a follow-up, not one without a grade), the
notebook is in /export's JSON and gone after /forget, a question without key points is kept ungraded, and
the whole flow on the SQL store (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from bot.features.career.models import NoteEntry
from bot.features.deps import Limits
from bot.features.notebook import versions as notebook_versions
from bot.kernel.bank import Bank
from bot.kernel.inject import build
from bot.kernel.models import Grade, KeyPointResult, Lang, Rubric, Text, User
from bot.kernel.service import Service
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.unit.test_notes_core import ANSWER, action, graded, saved, user


def notebook_of(provided: Mapping[str, object]) -> notebook_versions.Notebook:
    """What /notes uses, from the service's map (as its handlers are given it)."""
    return build(notebook_versions.Notebook, provided)


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
    service = build_test_app(Bank([bare]), grader=grader, store=store, clock=FakeClock()).service
    uid = await user(service)
    await service.handle_action(uid, "cr:notes:write:personal-like")
    (r,) = await service.handle_text(uid, "My own story about a failed run.")
    assert "Saved as version 1" in r.text and "(not graded)" in r.text and grader.calls == []
    (page,) = await service.handle_text(uid, "/notes 1")
    assert "not graded" in page.text and "no key points" in page.text


async def test_the_notebook_on_the_sql_store(sql: SqlStore, bank: Bank) -> None:
    service = build_test_app(bank, grader=FakeGrader(), store=sql, clock=FakeClock()).service
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


def test_a_grade_keeps_partly_covered_points_apart() -> None:
    points = [("k0", "hit"), ("k1", "partial"), ("k2", "missed"), ("k3", "partial")]
    grade = Grade(score=60, dimensions={}, key_points=[KeyPointResult(id=i, verdict=v) for i, v in points])  # type: ignore[arg-type]
    assert notebook_versions.verdicts(grade) == {"hit": ["k0"], "partial": ["k1", "k3"], "missed": ["k2"]}
    assert notebook_versions.verdicts(None) == {"hit": [], "partial": [], "missed": []}


LIMIT_TEXTS = {
    "en": (
        "This question already has 2 versions, the most I keep. Delete one you no longer need first.",
        "Your notebook is full (3 notebook entries). Delete versions you no longer need, then save again.",
    ),
    "zh": (
        "这道题已有 2 个版本，已达上限。请先删掉一个不需要的版本。",
        "答案本已满（3 条记录）。删掉不需要的版本后再保存。",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_limits_count_versions_per_question_and_entries_in_all(
    lang: Lang, service: Service, store: FakeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notebook_versions, "MAX_VERSIONS", 2)
    monkeypatch.setattr(notebook_versions, "MAX_NOTES", 3)
    u = await service.user_for("test", "u1", lang)
    deps = service.deps
    for qid in ("q-a", "q-a"):
        await store.add_note(NoteEntry(user_id=u.id, question_id=qid, text="v", created_at=deps.clock.now()))
    versions, total = LIMIT_TEXTS[lang]
    full = await notebook_versions.room_for(deps.store, u, "q-a")
    assert full is not None and (full.kind, full.text) == ("error", versions)
    assert await notebook_versions.room_for(deps.store, u, "q-b") is None  # another question still has room
    await store.add_note(NoteEntry(user_id=u.id, question_id="q-b", text="v", created_at=deps.clock.now()))
    full = await notebook_versions.room_for(deps.store, u, "q-c")
    assert full is not None and (full.kind, full.text) == ("error", total)


TEXT_PROBLEMS = {
    "as long as an answer may be": ("en", "x" * 10, None),
    "one character too long": (
        "en",
        "x" * 11,
        "That version is 11 characters; a version can be up to 10. Send a shorter one.",
    ),
    "too long, in Chinese": ("zh", "字" * 11, "这个版本有 11 个字符，上限是 10。请发一个更短的。"),
    "only spaces, in Chinese": ("zh", " \n ", "内容是空的。请用文字或语音发送你的回答。"),
}


@pytest.mark.parametrize(("lang", "text", "expected"), TEXT_PROBLEMS.values(), ids=TEXT_PROBLEMS.keys())
def test_a_version_may_be_exactly_as_long_as_an_answer(lang: Lang, text: str, expected: str | None) -> None:
    deps = build_test_app(Bank([]), grader=FakeGrader(), store=FakeStore(), clock=FakeClock(), limits=Limits(fuzz=False, max_answer_chars=10)).deps  # fmt: skip
    problem = notebook_versions.text_problem(text, deps.limits, User(id=1, language=lang, created_at=deps.clock.now()))
    assert ((problem.kind, problem.text) if problem else None) == (("error", expected) if expected else None)


SAVED_TEXTS = {
    "graded, English": ("en", 80, True, 'Saved as version 2 of "Question pipe-q-001?" (80/100).',
                        ["Tag a company", "Mark as best", "Open notebook"]),
    "ungraded, Chinese": ("zh", None, True, "已存为“问题 pipe-q-001”的第 2 版（未评分）。", ["标注公司", "设为最佳", "打开答案本"]),
    "a question no longer in the bank: its id": ("en", None, False, 'Saved as version 2 of "pipe-q-001" (not graded).',
                                                 ["Tag a company", "Mark as best", "Open notebook"]),
}  # fmt: skip


@pytest.mark.parametrize(("lang", "score", "known", "text", "labels"), SAVED_TEXTS.values(), ids=SAVED_TEXTS.keys())
def test_the_saved_reply_names_the_version_its_question_and_score(
    lang: Lang, score: int | None, known: bool, text: str, labels: list[str]
) -> None:
    note = NoteEntry(id=7, user_id=1, question_id="pipe-q-001", version=2, text="v", score=score,
                     created_at=FakeClock().now())  # fmt: skip
    q = make_question("pipe-q-001") if known else None
    r = notebook_versions.saved_reply(note, q, User(id=1, language=lang, created_at=FakeClock().now()))
    assert (r.text, r.kind) == (text, "grade")
    assert [b.label for row in r.buttons for b in row] == labels
    assert r.actions() == ["cr:notes:tag:7", "cr:notes:best:7", "cr:notes:view:7"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("missing", "答案本里找不到这一项。"),
        ("ungraded", "这次回答还没有评分，暂时不能保存。评分出来后再试。"),
        ("follow_up", "追问的回答不存入答案本：答案本只保存对主问题的回答。"),
    ],
)
async def test_what_cannot_be_saved_is_said_in_chinese(
    change: str, expected: str, service: Service, store: FakeStore
) -> None:
    uid = await user(service, "zh", "zh")
    await graded(service, uid, "先检查数据，再看每层的梯度范数。")
    (attempt,) = store.attempts.values()
    if change == "ungraded":
        store.attempts[attempt.id] = attempt.model_copy(update={"grade": None})
    elif change == "follow_up":
        store.attempts[attempt.id] = attempt.model_copy(update={"is_follow_up": True})
    attempt_id = attempt.id + 1000 if change == "missing" else attempt.id
    u = await store.get_user(uid)
    assert u is not None
    (r,) = await notebook_versions.save_attempt(attempt_id, notebook_of(service.provided), u)
    assert (r.kind, r.text) == ("error", expected) and not store.notes


async def test_saving_again_and_after_a_regrade_names_the_question(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    grade, reply = await saved(service, uid)
    (note,) = store.notes.values()
    q = await service.deps.question(note.question_id)
    assert q is not None and len(q.prompt.en) < 60  # short enough to be shown whole
    assert reply.text == f'Saved as version 1 of "{q.prompt.en}" (70/100).'
    (again,) = await service.handle_action(uid, action(grade, "cr:notes:save:"))
    assert again.text == f'This answer is already version 1 of "{q.prompt.en}" (70/100).'
    attempt = store.attempts[note.attempt_id]  # type: ignore[index]
    assert attempt.grade is not None
    all_hit = [p.model_copy(update={"verdict": "hit"}) for p in attempt.grade.key_points]
    new = attempt.grade.model_copy(update={"score": 91, "grader": "llm:x", "key_points": all_hit})
    store.attempts[attempt.id] = attempt.model_copy(update={"grade": new})
    (updated,) = await service.handle_action(uid, action(grade, "cr:notes:save:"))
    assert updated.text == f'This answer is version 1 of "{q.prompt.en}"; its grade is now the new one (91/100).'
    kept = store.notes[note.id]
    assert (kept.score, kept.hit, kept.partial, kept.missed) == (91, ["k0", "k1", "k2", "k3"], [], [])


@pytest.mark.parametrize(
    ("answer", "transcript", "kept"),
    [(None, "Spoken: data first, then gradients.", "Spoken: data first, then gradients."), (None, None, "")],
    ids=["a voice answer keeps its transcript", "no text at all keeps an empty version"],
)
async def test_a_saved_voice_answer_keeps_its_transcript(
    answer: str | None, transcript: str | None, kept: str, service: Service, store: FakeStore
) -> None:
    uid = await user(service)
    grade = await graded(service, uid)
    (attempt,) = store.attempts.values()
    store.attempts[attempt.id] = attempt.model_copy(update={"answer": answer, "transcript": transcript})
    await service.handle_action(uid, action(grade, "cr:notes:save:"))
    (note,) = store.notes.values()
    assert note.text == kept


async def test_the_version_limit_is_per_question_for_saved_and_written_versions(
    service: Service, store: FakeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notebook_versions, "MAX_VERSIONS", 1)
    uid = await user(service)
    await saved(service, uid)
    _, second = await saved(service, uid)  # another question: its first version fits
    assert second.text.startswith("Saved as version 1 of") and len(store.notes) == 2
    u = await store.get_user(uid)
    assert u is not None
    (hand,) = await notebook_versions.add_version(
        notebook_of(service.provided), u, make_question("fresh-q"), "My answer.", "hand"
    )
    assert hand.text.startswith('Saved as version 1 of "Question fresh-q?"') and len(store.notes) == 3


WRITTEN = {
    "en": ['Saved as version 1 of "Question fresh-q?" (70/100).', "Covered: point 0, point 2", "Missed: point 1, point 3",
           "Feedback: Good structure; add numbers."],
    "zh": ["已存为“问题 fresh-q”的第 1 版（70 分）。", "已覆盖：要点0、要点2", "遗漏：要点1、要点3", "点评：结构不错，补充数字。"],
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_written_version_reply_in_full(lang: Lang, service: Service, store: FakeStore) -> None:
    u = await service.user_for("test", "u1", lang)
    (r,) = await notebook_versions.add_version(
        notebook_of(service.provided), u, make_question("fresh-q"), " My answer. ", "hand"
    )
    (note,) = store.notes.values()
    assert (r.text, r.kind) == ("\n".join(WRITTEN[lang]), "grade")
    assert r.actions() == [f"cr:notes:tag:{note.id}", f"cr:notes:best:{note.id}", f"cr:notes:view:{note.id}"]
    assert (note.text, note.score, note.grader, note.origin) == ("My answer.", 70, "fake", "hand")


async def test_a_written_version_the_grader_fails_on_says_so_in_chinese(
    service: Service, store: FakeStore, grader: FakeGrader
) -> None:
    grader.fail = True
    u = await service.user_for("test", "u1", "zh")
    (r,) = await notebook_versions.add_version(
        notebook_of(service.provided), u, make_question("fresh-q"), "我的回答。", "hand"
    )
    assert r.text == "已存为“问题 fresh-q”的第 1 版（未评分）。\n暂时没能评分，这个版本先不带分数保存。"


GRADED_OR_NOT = {
    "key points without a reference answer": (True, "", "", "en", True),
    "a reference answer without key points": (False, "参考", "Reference.", "zh", True),
    "a reference only in the other language": (False, "", "Reference.", "zh", False),
}  # fmt: skip


@pytest.mark.parametrize(
    ("points", "ref_zh", "ref_en", "lang", "graded_"), GRADED_OR_NOT.values(), ids=GRADED_OR_NOT.keys()
)
async def test_a_version_is_graded_when_there_is_something_to_grade_it_against(
    points: bool, ref_zh: str, ref_en: str, lang: Lang, graded_: bool, service: Service, store: FakeStore,
    grader: FakeGrader
) -> None:  # fmt: skip
    base = make_question("fresh-q")
    q = base.model_copy(update={"rubric": base.rubric if points else Rubric(key_points=[]),
                                "reference_answer": Text(zh=ref_zh, en=ref_en)})  # fmt: skip
    u = await service.user_for("test", "u1", lang)
    await notebook_versions.add_version(notebook_of(service.provided), u, q, "My answer.", "hand")
    (note,) = store.notes.values()
    assert (note.score, len(grader.calls)) == ((70, 1) if graded_ else (None, 0))


async def test_a_written_version_graded_by_the_llm_is_counted_in_the_budget(store: FakeStore, bank: Bank) -> None:
    clock = FakeClock()
    deps = build_test_app(bank, grader=FakeGrader(score=80), estimator=FakeGrader(score=75), store=store, clock=clock).deps  # fmt: skip
    u = await Service(deps).user_for("test", "u1", "en")
    (r,) = await notebook_versions.add_version(
        notebook_of(deps.provided()), u, make_question("fresh-q"), "My answer.", "hand"
    )
    assert "(80/100)" in r.text and store.llm_calls == [(u.id, "grading", 0, clock.now())]
