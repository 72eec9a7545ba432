"""/debrief through the service: which interview, the notes (typed, pasted in parts, or a file), the list
with its bank matches, Drop / Log all / Cancel, /review's caps, a failure part-way, both languages, and
one user's interviews and lists out of another's reach."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from bot.features.debrief.log import SOURCE
from bot.features.deps import Deps, Limits
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.models import InterviewLog, Question, ReviewItem
from bot.kernel.ports import WriteFailed
from bot.kernel.registry import help_text
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.kernel.session import Idle, InCareer
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader, FakeStore


@dataclass
class KeywordMatcher:
    """A `QuestionMatcher` for tests: a question containing a bank question's keyword is that question."""

    questions: dict[str, Question]
    sure: float = 0.6
    unsure: float = 0.4
    margin: float = 0.03
    maybe: dict[str, Question] | None = None  # keywords that make a question only likely the same (0.5)

    def candidates(self, text: str, limit: int = 3) -> list[tuple[Question, float]]:
        hits = [(q, 0.9) for word, q in self.questions.items() if word in text.lower()]
        hits += [(q, 0.5) for word, q in (self.maybe or {}).items() if word in text.lower()]
        return hits[:limit]


NAN = make_question("stab-nan", topic="stability", prompt_en="Your loss becomes NaN: how do you debug it?")
ZERO = make_question(
    "pipe-zero", prompt_en="How does ZeRO-3 partition optimizer states?", prompt_zh="ZeRO-3 如何切分？"
)
NOTES = """Acme round 2
1. How would you debug a NaN loss?
I check the data first, then the gradient norm, and clip at 1.0.
2. What does ZeRO stage 3 shard?
Parameters, gradients and optimizer states.
3. Why did you leave your last job?
4. Design a data pipeline for 1T tokens
"""


class FailingStore(FakeStore):
    """Fails the `fail_at`-th /review write (1-based), once."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0
        self.fail_at = 0

    async def log_review(self, item: ReviewItem, personal: Question | None, fsrs: dict[str, Any], now: Any) -> Any:
        self.writes += 1
        if self.writes == self.fail_at:
            raise WriteFailed("disk full")
        return await super().log_review(item, personal, fsrs, now)


@pytest.fixture
def store() -> FailingStore:
    return FailingStore()


@pytest.fixture
def grader() -> FakeGrader:
    return FakeGrader(score=64)


@pytest.fixture
def deps(store: FailingStore, grader: FakeGrader, clock: FakeClock) -> Deps:
    bank = Bank([NAN, ZERO], KeywordMatcher({"nan": NAN, "zero": ZERO}))  # type: ignore[arg-type]
    return build_test_app(bank, grader=grader, store=store, clock=clock).deps


async def user(service: Service, lang: str = "en", who: str = "u1") -> int:
    return (await service.user_for("test", who, lang)).id  # type: ignore[arg-type]


async def listed(service: Service, uid: int, notes: str = NOTES, company: str = "Acme") -> Reply:
    await service.handle_text(uid, f"/debrief {company}")
    (reply,) = await service.handle_text(uid, notes)
    return reply


async def test_a_company_then_notes_gives_the_list_with_matches_and_answers(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    (ask,) = await service.handle_text(uid, "/debrief Acme")
    assert ask.ask_text and "Paste your notes or the transcript of your Acme interview" in ask.text
    assert (await store.get_session(uid)) == InCareer(tool="debrief", step="paste", data={"company": "Acme"})
    (reply,) = await service.handle_text(uid, NOTES)
    lines = reply.text.split("\n")
    assert lines[0] == "Acme: I found 4 questions in your notes. Check the list:"
    assert lines[1].startswith("(Split offline, by numbering, question marks and speaker labels")
    assert lines[2:10] == [
        "1. How would you debug a NaN loss?",
        "    → bank: Your loss becomes NaN: how do you debug it? · your answer: 64 characters",
        "2. What does ZeRO stage 3 shard?",
        "    → bank: How does ZeRO-3 partition optimizer states? · your answer: 43 characters",
        "3. Why did you leave your last job?",
        "    → new personal question · no answer recalled",
        "4. Design a data pipeline for 1T tokens",
        "    → new personal question · no answer recalled",
    ]
    assert reply.actions() == [f"cr:debrief:drop:{n}" for n in (1, 2, 3, 4)] + ["cr:debrief:log", "cr:debrief:cancel"]
    assert store.review_items == {}  # nothing is logged before the user confirms


async def test_log_all_logs_each_question_as_a_review_on_that_company_and_grades_the_recalled_answers(
    service: Service, store: FakeStore, grader: FakeGrader, clock: FakeClock
) -> None:
    uid = await user(service)
    await listed(service, uid)
    (done,) = await service.handle_action(uid, "cr:debrief:log")
    assert done.text.split("\n") == [
        "Logged 4 questions from Acme for review. Matched to a bank question: 2; filed as your own: 2. "
        "Each one comes up in /drill.",
        "Your recalled answers, graded (2 answers):",
        "1. 64/100 How would you debug a NaN loss?",
        "2. 64/100 What does ZeRO stage 3 shard?",
    ]
    assert done.actions() == ["next"]
    items = await store.list_review_items(uid)
    assert [(i.company, i.question_text, i.matched_bank) for i in items] == [
        ("Acme", "How would you debug a NaN loss?", True),
        ("Acme", "What does ZeRO stage 3 shard?", True),
        ("Acme", "Why did you leave your last job?", False),
        ("Acme", "Design a data pipeline for 1T tokens", False),
    ]
    assert items[0].answer_text == "I check the data first, then the gradient norm, and clip at 1.0."
    assert [(q, a) for q, a, _ in grader.calls] == [
        ("stab-nan", "I check the data first, then the gradient norm, and clip at 1.0."),
        ("pipe-zero", "Parameters, gradients and optimizer states."),
    ]
    attempts = await store.list_attempts(uid)
    assert [(a.question_id, a.source, a.status, a.grade.score if a.grade else None) for a in attempts] == [
        ("stab-nan", SOURCE, "graded", 64),
        ("pipe-zero", SOURCE, "graded", 64),
    ]
    card = await store.card_for_question(uid, "stab-nan")
    assert card is not None and card.due == clock.now() and card.personal  # due now, as after /review
    assert attempts[0].card_id == card.id and attempts[0].card_before is None  # never reschedules the card
    assert await store.get_session(uid) == Idle()


async def test_drop_by_button_or_typed_keeps_the_numbering_and_logs_the_rest(
    service: Service, store: FakeStore
) -> None:
    uid = await user(service)
    await listed(service, uid)
    (after,) = await service.handle_action(uid, "cr:debrief:drop:3")
    assert "3. (dropped) Why did you leave your last job?" in after.text
    assert "cr:debrief:drop:3" not in after.actions() and "cr:debrief:drop:4" in after.actions()
    (bad,) = await service.handle_text(uid, "drop 2 9")
    assert bad.kind == "error" and bad.text == "The list has questions 1 to 4; there is no 9."
    (after,) = await service.handle_text(uid, "drop 4, 3")  # again: no harm
    assert "4. (dropped) Design a data pipeline" in after.text
    (done,) = await service.handle_text(uid, "log all")
    assert done.text.startswith("Logged 2 questions from Acme")
    assert [i.question_text for i in await store.list_review_items(uid)] == [
        "How would you debug a NaN loss?",
        "What does ZeRO stage 3 shard?",
    ]


async def test_dropping_every_question_leaves_only_cancel(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    await listed(service, uid, "1. What is ZeRO?\n2. What is NaN?")
    (after,) = await service.handle_text(uid, "删 1 2")
    assert "Every question is dropped, so there is nothing to log." in after.text
    assert after.actions() == ["cr:debrief:cancel"]
    await service.handle_text(uid, "yes")
    assert store.review_items == {}


async def test_cancel_by_button_or_word_logs_nothing_and_a_stale_button_does_nothing(
    service: Service, store: FakeStore
) -> None:
    uid = await user(service)
    await listed(service, uid)
    (r,) = await service.handle_action(uid, "cr:debrief:cancel")
    assert r.text == "Cancelled; nothing was logged." and await store.get_session(uid) == Idle()
    (r,) = await service.handle_action(uid, "cr:debrief:log")
    assert r.text == "That button belongs to a step that is over; nothing was done."
    await listed(service, uid)
    (r,) = await service.handle_text(uid, "cancel")
    assert r.text == "Cancelled; nothing was logged."
    assert store.review_items == {}


async def test_the_users_recent_interviews_are_buttons_and_another_users_is_not_found(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid, other = await user(service), await user(service, who="u2")
    now = clock.now()
    for who, company, days in ((uid, "Acme", 3), (uid, "Beta", 1), (uid, "Later", -30), (other, "Secret", 1)):
        await store.add_interview(
            InterviewLog(id=0, user_id=who, company=company, at=now - timedelta(days=days), created_at=now)
        )
    (ask,) = await service.handle_text(uid, "/debrief")
    assert ask.text == "Which interview are the notes from? Pick one, or type the company."
    labels = [b.label for row in ask.buttons for b in row]
    assert labels == ["Beta · 2026-03-01", "Acme · 2026-02-27", "Cancel"]  # held ones, newest first; not "Later"
    secret = next(i for i in store.interviews.values() if i.company == "Secret")
    (r,) = await service.handle_action(uid, f"cr:debrief:i{secret.id}")
    assert r.text == "I could not find that item." and r.kind == "error"
    beta = next(i for i in store.interviews.values() if i.company == "Beta")
    (r,) = await service.handle_action(uid, f"cr:debrief:i{beta.id}")
    assert "your Beta interview" in r.text
    (r,) = await service.handle_text(uid, NOTES)
    assert r.text.startswith("Beta: I found 4 questions")


async def test_notes_sent_before_the_company_are_kept_until_it_is_given(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    (ask,) = await service.handle_text(uid, "/debrief")
    assert ask.text == "Which company was the interview with? Type its name."  # no interview logged
    (kept,) = await service.handle_text(uid, NOTES)
    assert kept.text.startswith("I have your notes (") and "Which company" in kept.text
    (reply,) = await service.handle_text(uid, "Gamma")
    assert reply.text.startswith("Gamma: I found 4 questions")


async def test_a_file_sent_first_is_placed_here_by_its_button_then_the_interview_asked(
    service: Service, deps: Deps
) -> None:
    deps.read_document = lambda data, name: data.decode()
    uid = await user(service)
    (what,) = await service.handle(c.UploadDocument(uid, NOTES.encode(), "notes.txt"))
    assert "cr:file:debrief" in what.actions()
    (ask,) = await service.handle_action(uid, "cr:file:debrief")
    assert ask.text.startswith("I have your notes (") and ask.ask_text
    (reply,) = await service.handle_text(uid, "Acme")
    assert reply.text.startswith("Acme: I found 4 questions")


async def test_a_file_sent_at_the_paste_step_is_the_notes(service: Service, deps: Deps) -> None:
    deps.read_document = lambda data, name: data.decode()
    uid = await user(service)
    await service.handle_text(uid, "/debrief Acme")
    (reply,) = await service.handle(c.UploadDocument(uid, NOTES.encode(), "notes.md"))
    assert reply.text.startswith("Acme: I found 4 questions")


async def test_a_long_paste_in_two_messages_is_split_as_one(service: Service) -> None:
    uid = await user(service)
    head, tail = NOTES.split("3. Why did you")
    await listed(service, uid, head)
    (added, reply) = await service.handle_text(uid, "3. Why did you" + tail)
    assert added.text == "I added your message to the notes and split them again."
    assert reply.text.startswith("Acme: I found 4 questions")
    (hint,) = await service.handle_text(uid, "hmm")
    assert hint.text.startswith("Press Log all, drop a question")


async def test_oversized_empty_or_question_free_notes_get_a_clear_reply_and_the_step_waits(
    service: Service, store: FakeStore
) -> None:
    uid = await user(service)
    await service.handle_text(uid, "/debrief Acme")
    (r,) = await service.handle_text(uid, "1. Why? " * 6250)  # 50,000 characters
    assert (
        r.kind == "error" and r.text == "That text is 50000 characters; I take up to 20000. Send the part that matters."
    )
    (r,) = await service.handle_text(uid, "Great chat with the team.\nLunch was good.")
    assert r.kind == "error" and r.text.startswith("I found no questions in that text.")
    assert (await store.get_session(uid)) == InCareer(tool="debrief", step="paste", data={"company": "Acme"})
    (r,) = await service.handle_text(uid, NOTES)
    assert r.text.startswith("Acme: I found 4 questions")
    (r,) = await service.handle_text(uid, "/debrief " + "x" * 201)
    assert r.kind == "error" and "too long" in r.text


async def test_the_daily_cap_logs_as_many_as_allowed_and_names_the_rest(service: Service, deps: Deps) -> None:
    deps.limits = Limits(fuzz=False, max_reviews_per_day=3)
    uid = await user(service)
    await service.handle(c.LogReview(uid, "Acme", "What is a KV cache?"))  # one logged already today
    await listed(service, uid)
    (done,) = await service.handle_action(uid, "cr:debrief:log")
    assert done.text.split("\n")[0].startswith("Logged 2 questions from Acme")
    assert done.text.split("\n")[-3:] == [
        "Today's limit of 3 interview questions is reached, so these were not logged (log them tomorrow with /review):",
        "3. Why did you leave your last job?",
        "4. Design a data pipeline for 1T tokens",
    ]
    assert await deps.store.count_review_items(uid) == 3


async def test_the_total_cap_reached_logs_nothing_and_says_so(service: Service, deps: Deps) -> None:
    deps.limits = Limits(fuzz=False, max_reviews=1)
    uid = await user(service)
    await service.handle(c.LogReview(uid, "Acme", "What is a KV cache?"))
    await listed(service, uid)
    (done,) = await service.handle_action(uid, "cr:debrief:log")
    lines = done.text.split("\n")
    assert lines[0] == "Nothing was logged."
    assert lines[1].startswith("You have logged 1 interview question, the most I keep for one person")
    assert len(lines) == 6 and await deps.store.count_review_items(uid) == 1


async def test_a_failure_part_way_says_what_was_logged_and_keeps_the_rest_to_try_again(
    service: Service, store: FailingStore
) -> None:
    uid = await user(service)
    await listed(service, uid)
    store.fail_at = 3
    (r,) = await service.handle_action(uid, "cr:debrief:log")
    assert r.kind == "error" and r.text.startswith("Logged 2 questions from Acme")
    assert r.text.endswith(
        "Logging stopped at question 3: 2 questions logged before it; the rest are still in the list. "
        "Press Log all to try them again."
    )
    assert r.actions() == ["cr:debrief:log", "cr:debrief:cancel"]
    (again,) = await service.handle_action(uid, "cr:debrief:log")
    assert again.text.startswith("Logged 2 questions from Acme for review. Matched to a bank question: 0;")
    assert [i.question_text for i in await store.list_review_items(uid)] == [
        "How would you debug a NaN loss?",
        "What does ZeRO stage 3 shard?",
        "Why did you leave your last job?",
        "Design a data pipeline for 1T tokens",
    ]


async def test_an_answer_to_a_question_with_no_rubric_is_not_graded_offline(
    service: Service, grader: FakeGrader
) -> None:
    uid = await user(service)
    await listed(service, uid, "1. Why did you leave your last job?\nBetter projects.")
    (done,) = await service.handle_action(uid, "cr:debrief:log")
    assert done.text.split("\n")[-1] == "Not graded (no rubric for them yet; rate yourself when they come up): 1."
    assert grader.calls == []


async def test_the_whole_flow_in_chinese(service: Service, store: FakeStore) -> None:
    uid = await user(service, "zh")
    (ask,) = await service.handle_text(uid, "/复盘")
    assert ask.text == "这是和哪家公司的面试？请输入公司名。"
    (paste,) = await service.handle_text(uid, "字节")
    assert paste.text.startswith("请粘贴你在 字节 面试的笔记")
    notes = "面试官：训练中 loss 变成 NaN 怎么排查？\n我：先查数据，再看梯度范数。\n面试官：ZeRO 三个阶段分别切什么？"
    (reply,) = await service.handle_text(uid, notes)
    assert reply.text.split("\n")[:6] == [
        "字节：从你的笔记里找到 2 道题，请核对：",
        "（离线拆分，依据编号、问号和说话人标注，请检查有没有漏掉的题。）",
        "1. 训练中 loss 变成 NaN 怎么排查？",
        "    → 题库：问题 stab-nan · 你的回答：12 字",
        "2. ZeRO 三个阶段分别切什么？",
        "    → 题库：ZeRO-3 如何切分？ · 没有记下回答",
    ]
    assert [b.label for row in reply.buttons for b in row] == ["去掉 1", "去掉 2", "全部记录", "取消"]
    (done,) = await service.handle_text(uid, "全部记录")
    assert done.text.split("\n") == [
        "已记录 字节 的 2 道题，等待复习。匹配到题库的：2 道；作为你自己的题目保存的：0 道。它们都会出现在 /drill 里。",
        "你记得的回答的得分（1 次作答）：",
        "1. 64/100 训练中 loss 变成 NaN 怎么排查？",
    ]
    assert len(store.review_items) == 2


async def test_the_list_survives_in_the_sql_store_and_is_logged_from_it(sql: SqlStore, clock: FakeClock) -> None:
    bank = Bank([NAN, ZERO], KeywordMatcher({"nan": NAN, "zero": ZERO}))  # type: ignore[arg-type]
    service = build_test_app(bank, grader=FakeGrader(score=64), store=sql, clock=clock).service
    uid = await user(service)
    long_answer = "因为" * 2500  # a long recalled answer in the session's data, in Chinese
    await listed(service, uid, NOTES + "5. Why is pre-LN stable?\n" + long_answer)
    state = await sql.get_session(uid)
    assert isinstance(state, InCareer) and state.step == "confirm" and long_answer in state.data["items"]
    (done,) = await service.handle_action(uid, "cr:debrief:log")
    assert done.text.startswith("Logged 5 questions from Acme")
    items = await sql.list_review_items(uid)
    assert items[-1].answer_text == long_answer and [a.source for a in await sql.list_attempts(uid)] == [SOURCE] * 2


async def test_the_company_given_by_the_command_takes_the_notes_kept_for_it(service: Service) -> None:
    uid = await user(service)
    await service.handle_text(uid, "/debrief | " + NOTES.replace("\n", " "))  # Discord: notes, no company
    (reply,) = await service.handle_text(uid, "/debrief Acme")
    assert reply.text.startswith("Acme: I found 4 questions")
    (reply,) = await service.handle_text(uid, "/debrief Beta\n" + NOTES)  # the notes on the lines after
    assert reply.text.startswith("Beta: I found 4 questions")


def test_help_lists_debrief_in_both_languages() -> None:
    assert "\n/debrief [company] - after a real interview" in help_text("en")
    assert "\n/debrief（/复盘）[公司] - 面试结束后" in help_text("zh")  # with its Chinese name (issue #36)


async def test_a_possible_match_is_kept_as_own_unless_the_user_says_it_is_the_bank_question(
    service: Service, deps: Deps
) -> None:
    deps.bank = Bank([NAN, ZERO], KeywordMatcher({}, maybe={"nan": NAN, "zero": ZERO}))  # type: ignore[arg-type]
    uid = await user(service)
    reply = await listed(service, uid, "1. How would you debug a NaN loss?\n2. What does ZeRO stage 3 shard?")
    maybe = "    → your own question; maybe bank: Your loss becomes NaN: how do you debug it? (“bank 1” grades it"
    assert maybe in reply.text and "likely" not in reply.text
    assert reply.text.endswith("type “bank 2” to grade question 2 with its rubric (“own 2” undoes it).")
    (after,) = await service.handle_text(uid, "bank 1")
    assert "1. How would you debug a NaN loss?\n    → bank: Your loss becomes NaN" in after.text
    await service.handle_text(uid, "bank 2")
    (after,) = await service.handle_text(uid, "own 2")
    assert "2. What does ZeRO stage 3 shard?\n    → your own question; maybe bank:" in after.text
    (done,) = await service.handle_action(uid, "cr:debrief:log")
    assert "Matched to a bank question: 1; filed as your own: 1." in done.text
    items = await deps.store.list_review_items(uid)
    assert (items[0].question_id, items[0].matched_bank) == ("stab-nan", True)
    assert items[1].matched_bank is False and items[1].question_id != "pipe-zero"


async def test_oversized_notes_at_any_step_are_refused_and_the_step_stays(service: Service, store: FakeStore) -> None:
    uid = await user(service)
    huge = "1. Why? " * 6250
    (r,) = await service.handle_text(uid, "/debrief Acme | " + huge)
    assert r.kind == "error" and r.text.startswith("That text is 49999 characters; I take up to 20000.")
    assert await store.get_session(uid) == InCareer(tool="debrief", step="paste", data={"company": "Acme"})
    await service.handle_text(uid, "/debrief")
    (r,) = await service.handle_text(uid, huge)  # at "which interview?"
    assert r.kind == "error" and r.text.startswith("That text is 49999 characters; I take up to 20000.")
    await listed(service, uid)
    (r,) = await service.handle_text(uid, huge[:19_800])  # more notes, too long together with the first
    assert r.kind == "error" and r.text.endswith("characters; I take up to 20000. Send the part that matters.")
    (r,) = await service.handle_text(uid, "log")  # the list is still there
    assert r.text.startswith("Logged 4 questions from Acme")
