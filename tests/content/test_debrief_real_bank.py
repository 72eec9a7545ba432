"""/debrief on the real bank with the real matcher: realistic notes in both languages find their bank
questions, and a question the bank does not have is a new personal one."""

from __future__ import annotations

from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.shipped import shipped_bank

NOTES = """字节 大模型训练 二面
1. 训练中 loss 突然出现尖刺该怎么排查？
先看那一步的数据，再看梯度范数，必要时回滚到上一个 checkpoint 并跳过那批数据。
2. Why does pre-LN train more stably than post-LN?
3. 你们组的周会一般怎么开？
"""


async def test_realistic_notes_find_their_bank_questions() -> None:
    bank = shipped_bank()  # the real matcher: the bank's term weights and the encoder's vectors
    assert bank.matcher is not None
    store = FakeStore()
    service = build_test_app(bank, grader=FakeGrader(), store=store, clock=FakeClock()).service
    uid = (await service.user_for("test", "u1", "zh")).id
    await service.handle_text(uid, "/debrief 字节")
    (reply,) = await service.handle_text(uid, NOTES)
    lines = reply.text.split("\n")
    assert lines[0] == "字节：从你的笔记里找到 3 道题，请核对："
    # possible matches are named, but logged as the user's own until the user says they are those questions
    assert lines[3].startswith("    → 你自己的题目；也许是题库：") and lines[3].endswith("你的回答：45 字")
    assert lines[5].startswith("    → 你自己的题目；也许是题库：") and lines[5].endswith("没有记下回答")
    assert lines[7] == "    → 新的个人题目 · 没有记下回答"  # the weekly meeting is no bank question
    (confirmed,) = await service.handle_text(uid, "题库 1 2")
    assert confirmed.text.split("\n")[3].startswith("    → 题库：")
    await service.handle_text(uid, "全部记录")
    items = await store.list_review_items(uid)
    assert [(i.question_id, i.matched_bank) for i in items][:2] == [("stab-spike-001", True), ("stab-norm-002", True)]
    assert items[2].matched_bank is False
