"""Issue #34 Medium 1 on the real store (SQLite file, and PostgreSQL when configured): A's answer waits for a
regrade; while the LLM grades it, A sends /forget and a new user C starts. On SQLite without AUTOINCREMENT the
user /forget re-creates for A's account took A's old id, and the regrade (quoting A's forgotten answer) went to
whoever held that id. Now no id repeats and the regrade re-reads its user after the LLM call: it reaches nobody."""

from __future__ import annotations

from collections.abc import Sequence

from bot.delivery import NotifierRouter
from bot.features.drill.regrade import Regrading, regrade_pending
from bot.kernel.bank import Bank
from bot.kernel.inject import build
from bot.kernel.ports import AboutToSend, Delivery
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeGrader
from tests.unit.test_regrade import ANSWER, LONG_PROMPT, LLMStub


class Telegram:
    """The platform's notifier: what each chat was sent."""

    platform = "telegram"
    requires_opt_in = False

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[str]]] = []

    async def send(
        self, external_id: str, replies: Sequence[Reply], about_to_send: AboutToSend | None = None
    ) -> Delivery:
        self.sent.append((external_id, [r.text for r in replies]))
        return Delivery.DELIVERED


async def test_a_regrade_of_a_forgotten_answer_reaches_nobody(sql: SqlStore) -> None:
    llm, clock = LLMStub(), FakeClock()
    bank = Bank([make_question("pipe-long-001", prompt_en=LONG_PROMPT)])
    deps = build_test_app(bank, grader=llm, estimator=FakeGrader(30), store=sql, clock=clock).deps
    service = Service(deps)
    telegram = Telegram()
    router = NotifierRouter(sql)
    router.add(telegram)

    await service.user_for("telegram", "B")  # an earlier user: A's id is the highest, as a newcomer's is
    a = (await service.user_for("telegram", "A")).id
    llm.down = True
    await service.handle_text(a, "/drill")
    await service.handle_text(a, ANSWER)
    llm.down = False
    (queued,) = await sql.list_attempts(a)
    assert queued.status == "regrade"
    seen: dict[str, int] = {}

    async def forget_then_newcomer() -> None:
        await service.handle_text(a, "/forget")
        await service.handle_action(a, "forget:yes")
        seen["A again"] = (await service.user_for("telegram", "A")).id
        seen["C"] = (await service.user_for("telegram", "C")).id
        c = seen["C"]
        await service.handle_text(c, "/drill")  # C's own card and answer, made while A's regrade runs
        await service.handle_text(c, ANSWER)

    llm.meanwhile = forget_then_newcomer
    clock.advance(hours=1)

    await regrade_pending(build(Regrading, deps.provided()), router)

    assert len(llm.calls) >= 1  # the regrade ran (and was graded) while A left
    assert telegram.sent == []  # nobody is sent A's forgotten answer's grade
    assert seen["A again"] != a and seen["C"] != a  # no one takes the forgotten user's id
    assert await sql.get_attempt(queued.id) is None and await sql.get_user(a) is None
    (theirs,) = await sql.list_attempts(seen["C"])
    assert theirs.id != queued.id and theirs.answer == ANSWER and theirs.status == "graded"
    assert theirs.card_id != queued.card_id
