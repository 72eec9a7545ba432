"""The answer notebook (/notes) in the core: saving a graded answer (once), versions numbered per question,
company tags, one best version per question, the side-by-side view, versions written by hand (graded, never
a review), the Markdown export, the limits, and another user's ids; in English and Chinese."""

from __future__ import annotations

from bot.features.notebook import versions as notebook_versions
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.kernel.session import Idle, InCareer
from tests.fakes import FakeGrader, FakeStore
from tests.unit.test_service import onboard

ANSWER = "First I check the data for bad batches, then the gradient norm per layer."


async def user(service: Service, name: str = "u1", lang: str = "en") -> int:
    uid = (await service.user_for("test", name, lang)).id  # type: ignore[arg-type]
    await onboard(service, uid, lang)
    return uid


async def graded(service: Service, uid: int, text: str = ANSWER) -> Reply:
    """Ask the next question and answer it: the grade reply."""
    await service.handle_text(uid, "/next")
    (reply,) = [r for r in await service.handle_text(uid, text) if r.kind == "grade"]
    return reply


def action(reply: Reply, prefix: str) -> str:
    (found,) = [a for a in reply.actions() if a.startswith(prefix)]
    return found


async def saved(service: Service, uid: int, text: str = ANSWER) -> tuple[Reply, Reply]:
    grade = await graded(service, uid, text)
    (reply,) = await service.handle_action(uid, action(grade, "cr:notes:save:"))
    return grade, reply


async def test_every_grade_offers_save_and_saving_keeps_the_answer_with_its_grade(
    service: Service, store: FakeStore
) -> None:
    uid = await user(service)
    grade, reply = await saved(service, uid)
    attempt_id = int(action(grade, "cr:notes:save:").rsplit(":", 1)[1])
    assert reply.text.startswith('Saved as version 1 of "') and "(70/100)" in reply.text
    (note,) = store.notes.values()
    assert (note.user_id, note.version, note.text, note.score, note.origin) == (uid, 1, ANSWER, 70, "graded")
    assert note.attempt_id == attempt_id and note.grader == "fake"
    assert note.hit == ["k0", "k2"] and note.missed == ["k1", "k3"] and note.partial == []
    assert reply.actions() == [f"cr:notes:tag:{note.id}", f"cr:notes:best:{note.id}", f"cr:notes:view:{note.id}"]


async def test_saving_the_same_answer_twice_keeps_one_version(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    grade, _ = await saved(service, uid)
    (again,) = await service.handle_action(uid, action(grade, "cr:notes:save:"))
    assert "already version 1" in again.text and len(store.notes) == 1


async def test_a_regraded_answer_saved_again_updates_its_version(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    grade, _ = await saved(service, uid)
    attempt_id = int(action(grade, "cr:notes:save:").rsplit(":", 1)[1])
    attempt = store.attempts[attempt_id]
    assert attempt.grade is not None
    new = attempt.grade.model_copy(update={"score": 91, "grader": "llm:x"})
    store.attempts[attempt_id] = attempt.model_copy(update={"grade": new})
    (again,) = await service.handle_action(uid, f"cr:notes:save:{attempt_id}")
    (note,) = store.notes.values()
    assert "(91/100)" in again.text and (note.score, note.grader, note.version) == (91, "llm:x", 1)


async def test_versions_of_one_question_are_numbered_and_compared_side_by_side(
    service: Service, store: FakeStore, grader: FakeGrader
) -> None:
    uid = await user(service)
    await saved(service, uid)
    first = next(iter(store.notes.values()))
    (write,) = await service.handle_action(uid, f"cr:notes:write:{first.question_id}")
    assert write.ask_text and "Write your new version" in write.text
    grader.score = 85
    (hand,) = await service.handle_text(uid, "My better answer: data, then gradients, then the learning rate.")
    assert "Saved as version 2" in hand.text and "(85/100)" in hand.text and "Covered: point 0, point 2" in hand.text
    (page,) = await service.handle_text(uid, "/notes 1")
    v1, v2 = page.text.index("v1 · "), page.text.index("v2 · ")
    assert v1 < v2 and "70/100 · from a drill" in page.text and "85/100 · written by hand" in page.text
    assert "Covered: point 0, point 2" in page.text and "Missed: point 1, point 3" in page.text
    ids = sorted(store.notes)
    assert page.actions() == [f"cr:notes:open:{i}" for i in ids] + [f"cr:notes:write:{first.question_id}"]


async def test_a_hand_written_version_is_graded_but_is_not_a_review(
    service: Service, store: FakeStore, grader: FakeGrader
) -> None:
    uid = await user(service)
    await saved(service, uid)
    note = next(iter(store.notes.values()))
    cards_before = {i: c.model_copy() for i, c in store.cards.items()}
    attempts_before = len(store.attempts)
    await service.handle_action(uid, f"cr:notes:write:{note.question_id}")
    await service.handle_text(uid, "A hand-written answer about loss spikes and gradient clipping.")
    assert len(grader.calls) == 2 and grader.calls[-1][1].startswith("A hand-written answer")
    assert len(store.attempts) == attempts_before and store.cards == cards_before  # no review, no new schedule
    assert isinstance(await store.get_session(uid), Idle)
    assert [n.origin for n in store.notes.values()] == ["graded", "hand"]


async def test_a_hand_written_version_is_checked_like_an_answer(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    (page,) = await service.handle_text(uid, "/notes pipe-q-000")  # a bank question with no version yet
    assert "No version yet" in page.text and page.actions() == ["cr:notes:write:pipe-q-000"]
    await service.handle_action(uid, "cr:notes:write:pipe-q-000")
    (empty,) = await service.handle_text(uid, "   ")
    assert empty.kind == "error" and "empty" in empty.text
    (long,) = await service.handle_text(uid, "x" * 6001)
    assert long.kind == "error" and "6001 characters" in long.text and "6000" in long.text
    assert isinstance(await store.get_session(uid), InCareer) and not store.notes  # still waiting, nothing kept


async def test_one_best_version_per_question(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await saved(service, uid)
    first = next(iter(store.notes.values()))
    await service.handle_action(uid, f"cr:notes:write:{first.question_id}")
    await service.handle_text(uid, "Another version of the answer with more detail.")
    one, two = sorted(store.notes)
    (r,) = await service.handle_action(uid, f"cr:notes:best:{one}")
    assert r.text.startswith("Version 1 is now your best answer")
    await service.handle_action(uid, f"cr:notes:best:{two}")
    assert [store.notes[i].best for i in (one, two)] == [False, True]
    (page,) = await service.handle_text(uid, "/notes 1")
    assert "v2 ★ · " in page.text and "v1 ★" not in page.text


async def test_a_company_tag_folds_aliases_and_can_be_removed(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await saved(service, uid)
    note = next(iter(store.notes.values()))
    (ask,) = await service.handle_action(uid, f"cr:notes:tag:{note.id}")
    assert ask.ask_text and "Which company is version 1 for?" in ask.text
    (done,) = await service.handle_text(uid, "字节")
    assert done.text == "Version 1 is tagged for ByteDance." and store.notes[note.id].company == "ByteDance"
    (page,) = await service.handle_text(uid, "/notes 1")
    assert "for ByteDance" in page.text
    await service.handle_action(uid, f"cr:notes:tag:{note.id}")
    (too_long,) = await service.handle_text(uid, "x" * 201)
    assert too_long.kind == "error" and store.notes[note.id].company == "ByteDance"
    (cleared,) = await service.handle_text(uid, "-")
    assert "no company tag" in cleared.text and store.notes[note.id].company == ""


async def test_the_list_numbers_questions_and_finds_one_by_words(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    (empty,) = await service.handle_text(uid, "/notes")
    assert "Your notebook is empty" in empty.text and "Save to notebook" in empty.text
    await saved(service, uid)
    await saved(service, uid)
    (listing,) = await service.handle_text(uid, "/notes")
    assert listing.text.startswith("Your answer notebook: 2 questions, 2 versions.")
    assert "\n1. " in listing.text and "\n2. " in listing.text and "1 version · best 70" in listing.text
    newest = max(store.notes.values(), key=lambda n: n.id)
    assert listing.actions()[0] == f"cr:notes:view:{newest.id}"  # the question saved to last comes first
    q = await service.deps.question(newest.question_id)
    assert q is not None
    (found,) = await service.handle_text(uid, "/notes " + q.prompt.en.split()[-1].lower())
    assert q.prompt.en in found.text
    (bad,) = await service.handle_text(uid, "/notes 9")
    assert bad.kind == "error" and "no question 9" in bad.text
    (none,) = await service.handle_text(uid, "/notes zebra crossing")
    assert none.kind == "error" and "zebra crossing" in none.text


def test_a_long_prompt_is_shortened_at_a_clause_or_word_never_mid_word() -> None:
    from bot.features.notebook.view import short

    text = "How does ZeRO stage 3 partition optimizer states, gradients and parameters across data-parallel ranks?"
    assert short(text, "en", 60) == "How does ZeRO stage 3 partition optimizer states…"
    words = "Explain why the gradient norm explodes when the learning rate warmup is removed entirely from training"
    cut = short(words, "en", 50)
    assert cut.endswith("…") and words.startswith(cut[:-1]) and words[len(cut) - 1] == " "


async def test_another_users_ids_are_not_found(service: Service, store: FakeStore) -> None:
    owner = await user(service, "owner")
    grade, _ = await saved(service, owner)
    note = next(iter(store.notes.values()))
    other = await user(service, "other")
    for act in (f"cr:notes:best:{note.id}", f"cr:notes:tag:{note.id}", f"cr:notes:delok:{note.id}",
                f"cr:notes:open:{note.id}", f"cr:notes:view:{note.id}", action(grade, "cr:notes:save:"),
                "cr:notes:best:zz", "cr:notes:open:99999", "cr:notes:nonsense:1"):  # fmt: skip
        (r,) = await service.handle_action(other, act)
        assert r.kind == "error" and "could not find" in r.text, act
    assert not store.notes[note.id].best and note.id in store.notes and len(store.notes) == 1
    (r,) = await service.handle_action(other, "cr:notes:write:someone-elses-personal")
    assert "could not find" in r.text


async def test_delete_asks_first(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await saved(service, uid)
    note = next(iter(store.notes.values()))
    (ask,) = await service.handle_action(uid, f"cr:notes:del:{note.id}")
    assert "Delete version 1?" in ask.text and note.id in store.notes
    (done,) = await service.handle_action(uid, ask.actions()[0])
    assert done.text == "Version 1 is deleted." and not store.notes


async def test_limits_have_clear_replies(service: Service, store: FakeStore, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(notebook_versions, "MAX_VERSIONS", 2)
    uid = await user(service)
    await saved(service, uid)
    note = next(iter(store.notes.values()))
    await service.handle_action(uid, f"cr:notes:write:{note.question_id}")
    await service.handle_text(uid, "Second version of the answer.")
    await service.handle_action(uid, f"cr:notes:write:{note.question_id}")
    (full,) = await service.handle_text(uid, "Third version of the answer.")
    assert full.kind == "error" and "already has 2 versions" in full.text and len(store.notes) == 2
    monkeypatch.setattr(notebook_versions, "MAX_NOTES", 2)
    _, total = await saved(service, uid)
    assert total.kind == "error" and "notebook is full (2 notebook entries)" in total.text and len(store.notes) == 2


async def test_export_is_markdown_one_section_per_question_best_first(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await saved(service, uid)
    note = next(iter(store.notes.values()))
    await service.handle_action(uid, f"cr:notes:write:{note.question_id}")
    await service.handle_text(uid, "The second, hand-written version.")
    await service.handle_action(uid, f"cr:notes:best:{note.id}")
    await saved(service, uid)
    (r,) = await service.handle_text(uid, "/notes export")
    assert r.file is not None and r.file.mime == "text/markdown" and r.file.filename.endswith(".md")
    md = r.file.data.decode()
    assert md.startswith("# Answer notebook, ") and "(2 questions, 3 versions)" in md
    assert md.count("\n## ") == 2
    (two,) = [s for s in md.split("\n## ")[1:] if "### v2" in s]  # the question with two versions
    assert two.index("### v1 ★") < two.index("### v2 · ")  # the best version first
    assert f"> {ANSWER}" in md and "> The second, hand-written version." in md
    assert "- Covered:\n  - point 0\n  - point 2\n- Missed:\n  - point 1\n  - point 3" in md


async def test_chinese_user_sees_the_notebook_in_chinese(service: Service, store: FakeStore) -> None:
    uid = await user(service, "zh", "zh")
    grade = await graded(service, uid, "先检查数据，再看每层的梯度范数。")
    assert "存入答案本" in [b.label for row in grade.buttons for b in row]
    (reply,) = await service.handle_action(uid, action(grade, "cr:notes:save:"))
    assert reply.text.startswith("已存为“") and "第 1 版（70 分）" in reply.text
    (page,) = await service.handle_text(uid, "/notes 1")
    assert "70 分 · 来自练习" in page.text and "已覆盖：要点0、要点2" in page.text and "遗漏：要点1、要点3" in page.text
    (r,) = await service.handle_text(uid, "/notes 导出")
    assert r.file is not None and "# 答案本，" in r.file.data.decode()


async def test_words_that_match_several_questions_ask_which_one(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await saved(service, uid)
    await saved(service, uid)
    (r,) = await service.handle_text(uid, "/notes question")
    assert r.text.startswith("Several questions match") and "1. Question " in r.text and "2. Question " in r.text
    assert sorted(r.actions()) == sorted(f"cr:notes:view:{i}" for i in store.notes)
