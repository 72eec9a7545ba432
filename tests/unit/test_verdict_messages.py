"""Every message of honest verdicts (bot/kernel/locales/verdicts/zh.po), and every generic follow-up, shown in both
languages by the flows that use it: the outputs are collected from the service (offline checklist, ticks, ratings,
non-answers, an LLM grade with Disagree, confirmations, second looks, regrades) and from the renderers, and each
template's fixed text must appear in them (issue #32 item 7: every template exercised by a test that reads it)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot.features.deps import Limits
from bot.features.drill import checklist
from bot.features.drill.regrade import Regrading, regrade_pending
from bot.grading.feedback import GENERIC_FOLLOW_UPS
from bot.grading.offline import OfflineGrader
from bot.kernel.i18n import LOCALES, read_catalogue
from bot.kernel.inject import build
from bot.kernel.models import Attempt, Grade, KeyPointResult, Lang, Question, Rubric
from bot.kernel.ports import Delivery
from bot.kernel.replies import Reply
from tests.conftest import example_question
from tests.fakes import FakeGrader
from tests.integration.test_honest_verdicts import ScriptedGrader, app_with, bank_question, drill_user
from tests.unit.test_verdict_rules import NOW

VERDICT_MESSAGES = read_catalogue(LOCALES / "verdicts" / "zh.po").messages


def shown(replies: list[Reply]) -> str:
    return "\n".join(r.text + "\n" + " ".join(b.label for row in r.buttons for b in row) for r in replies)


def fixed_parts(template: str) -> list[str]:
    """The template's literal text between placeholders, the longer pieces (what any output of it contains)."""
    pieces = [literal for literal, *_ in string.Formatter().parse(template)]
    return [p.strip() for p in pieces if len(p.strip()) >= 3]


class Sent:
    def __init__(self) -> None:
        self.replies: list[Reply] = []

    async def notify(self, _: int, replies: list[Reply]) -> Delivery:
        self.replies.extend(replies)
        return Delivery.DELIVERED


class Down(FakeGrader):
    async def grade(self, *args: object, **kw: object) -> Grade:  # type: ignore[override]
        raise RuntimeError("down")


async def collect(tmp_path: Path, lang: Lang) -> str:
    out: list[str] = []
    q = bank_question("stab-nan-debug-001")
    # offline: the checklist, a tick, a rating, a tick after rating, the follow-up's own prompt
    app = await app_with(tmp_path / "offline", q)
    uid = await drill_user(app, lang)
    out.append(shown(await app.service.handle_text(uid, "🤔🔥💯🚀")))  # a non-answer
    answer = (
        "我会先从最近的 checkpoint 用同样的数据顺序复现，再检查那个 batch 里有没有 NaN/Inf 和越界的 label。"
        if lang == "zh"
        else "First I reproduce from the last checkpoint with the same data order, then I check that batch for NaN "
        "or Inf and out-of-range labels."
    )
    replies = await app.service.handle_text(uid, answer)
    out.append(shown(replies))
    tick = next(b.action for r in replies for row in r.buttons for b in row if b.action.startswith("tick:"))
    out.append(shown(await app.service.handle_action(uid, tick)))
    attempt = (await app.store.list_attempts(uid))[0]
    out.append(shown(await app.service.handle_action(uid, f"look:{attempt.id}")))  # no LLM: second.none
    await app.service.handle_action(uid, f"rate:{attempt.id}:3")
    out.append(shown(await app.service.handle_action(uid, tick)))  # rated already: check.tick_stale
    out.append(shown(await app.service.handle_action(uid, f"fu:{attempt.id}")))
    out.append(shown(await app.service.handle_text(uid, "I would clip it." if lang == "en" else "我会做梯度裁剪。")))
    ticked = (await app.store.list_attempts(uid))[0]
    out.append(checklist.checklist_text(ticked.grade, q, lang, ticked.ticked))  # type: ignore[arg-type]
    await app.close()

    # an LLM grade: Disagree, a borderline confirmation (both reasons), a second look, its refusals
    for n, (verdicts, offline) in enumerate((("pppm", None), ("hm", 20))):
        llm = ScriptedGrader(70, verdicts, offline)
        estimate = FakeGrader(60 if offline is None else offline, grader="offline")
        app = await app_with(tmp_path / f"llm{n}", q, llm, estimator=estimate)
        uid = await drill_user(app, lang)
        out.append(shown(await app.service.handle_text(uid, answer)))
        attempt = (await app.store.list_attempts(uid))[0]
        out.append(shown(await app.service.handle_action(uid, f"dis:{attempt.id}")))
        if n == 0:
            await app.service.handle_action(uid, f"rate:{attempt.id}:2")
            out.append(shown(await app.service.handle_action(uid, f"look:{attempt.id}")))  # kept_yours
            out.append(shown(await app.service.handle_action(uid, f"look:{attempt.id}")))  # done_before
        else:
            app.service.deps.limits = Limits(fuzz=False, llm_daily_limit=1)
            out.append(shown(await app.service.handle_action(uid, f"look:{attempt.id}")))  # second.limit
            app.service.deps.limits = Limits(fuzz=False, llm_daily_tokens=100)  # the grading spent 100
            out.append(shown(await app.service.handle_action(uid, f"look:{attempt.id}")))  # second.budget
            app.service.deps.limits = Limits(fuzz=False)
            app.service.deps.grader.primary = Down()
            out.append(shown(await app.service.handle_action(uid, f"look:{attempt.id}")))  # second.failed
        await app.close()

    # regrades: the estimate's answer the user rated, and one left unrated
    for n, rate in enumerate((True, False)):
        llm = ScriptedGrader(90, "hm", None)
        app = await app_with(tmp_path / f"regrade{n}", q, Down(), estimator=FakeGrader(30, grader="offline"))
        uid = await drill_user(app, lang)
        await app.service.handle_text(uid, answer)
        attempt = (await app.store.list_attempts(uid))[0]
        if rate:
            await app.service.handle_action(uid, f"rate:{attempt.id}:2")
        app.service.deps.grader.primary = llm
        sent = Sent()
        await regrade_pending(build(Regrading, app.service.deps.provided()), sent.notify)
        out.append(shown(sent.replies))
        await app.close()

    # renderers: a question with only a reference answer, quotes missing, a mistake spotted
    bare = example_question().model_copy(update={"rubric": Rubric()})
    grade = Grade(score=40, dimensions={"coverage": 40}, grader="offline")
    out.append(checklist.checklist_text(grade, bare, lang))
    kinds = (("hit", ""), ("partial", ""), ("partial", "the sentence that made it in part"))
    points = [
        KeyPointResult(id=k.id, verdict=v, evidence=e) for k, (v, e) in zip(q.rubric.key_points, kinds, strict=False)
    ]
    spotted = Grade(score=50, dimensions={"coverage": 50}, grader="offline", key_points=points, mistakes=["x"])
    out.append(checklist.checklist_text(spotted, q, lang))
    att = Attempt(id=1, user_id=1, card_id=1, question_id=q.id, answer="a", grade=spotted, created_at=NOW)
    out.append(shown([checklist.rate_reply(att, q, lang, False)]))
    for kind in GENERIC_FOLLOW_UPS:
        typed: Question = q.model_copy(update={"type": kind if kind != "practical" else "fault", "follow_ups": []})
        out.append(OfflineGrader(semantic=False).grade_sync(typed, "I measure first.", lang).follow_up or "")
    return "\n".join(out)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_verdict_message_is_shown_by_its_flow(tmp_path: Path, lang: Lang) -> None:
    text = await collect(tmp_path, lang)
    missing = [
        key for key, entry in VERDICT_MESSAGES.items() if not all(part in text for part in fixed_parts(entry[lang]))
    ]
    assert missing == []
    for kind, texts in GENERIC_FOLLOW_UPS.items():
        assert texts[lang] in text, kind
    if lang == "zh":  # Chinese output keeps Chinese punctuation around its own words
        assert not re.search(r"[\u4e00-\u9fff][,;:?!](?=[\u4e00-\u9fff])", text)


def test_the_check_finds_a_template_no_flow_shows() -> None:
    """Control: a template that no flow shows is found missing."""
    assert fixed_parts("Never shown: {x} at all") == ["Never shown:", "at all"]
    assert not all(part in "some output" for part in fixed_parts("Never shown: {x} at all"))
