"""Honest verdicts through the service on a real SQLite file (issue #32): offline the bot shows what it found and
the user rates; it never claims correctness; non-answers are not graded; an LLM grade can be disagreed with.

The three confidently wrong answers are the issue's reproductions (written from its table, not tuned on)."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest

from bot.bootstrap import App, build_app
from bot.content.loader import load_file
from bot.features.deps import Limits
from bot.grading.offline import OfflineGrader
from bot.kernel import srs
from bot.kernel.bank import Bank
from bot.kernel.models import Grade, KeyPointResult, Question, Rating
from bot.kernel.session import Answering, Idle
from bot.platforms.console.chat import cut_by_terminal, run_console
from tests.fakes import FakeClock, FakeGrader
from tests.integration.test_app import settings_for

ROOT = Path(__file__).resolve().parents[2]
OFFLINE = OfflineGrader()  # the real estimate, with its sentence encoder (loaded once for the module)

WRONG = {
    "pipe-actckpt-nograd-001": (
        "en",
        "This warning comes from reentrant checkpointing. The fix is to set use_reentrant=True, which is the newer "
        "implementation; use_reentrant=False is the legacy path that breaks LoRA. To confirm, I check after one "
        "backward whether the LoRA parameters' grad is None. With DDP, use_reentrant=True also avoids the 'mark a "
        "variable ready only once' error. HF models also need use_cache=False, and checkpointing makes each step "
        "20-30% slower.",
    ),
    "pipe-lora-vs-full-001": (
        "zh",
        "QLoRA 是把 LoRA 的 adapter 量化成 4-bit 来省显存的。7B 模型全参数微调大约只要 16 GB 显存，所以一张卡就够。"
        "LoRA 的效果在任何数据规模上都和全参数微调一样，包括大规模继续预训练。target modules 只需要 q_proj 和 "
        "v_proj，加到 MLP 上没有用。LoRA 的学习率和全参数微调一样就行，比如 1e-5。遗忘方面两者差不多。",
    ),
    "stab-precision-002": (
        "en",
        "Loss scaling divides the loss by a scale factor before backward so that FP16 gradients do not overflow. "
        "If a step has Inf or NaN gradients, GradScaler doubles the scale and retries the step. The defaults are "
        "init_scale 65536, growth_factor 2, backoff_factor 0.5 and growth_interval 2000. With clipping, clip first "
        "with clip_grad_norm_, then call scaler.unscale_, then scaler.step and scaler.update.",
    ),
}


def bank_question(qid: str) -> Question:
    path = next((ROOT / "content").glob(f"*/{qid}.yaml"))
    q, problems = load_file(path)
    assert q is not None and not problems
    return q


async def app_with(tmp_path: Path, q: Question, grader: object = OFFLINE, **more: object) -> App:
    return await build_app(
        settings_for(tmp_path),
        grader=grader,
        clock=FakeClock(),
        bank=Bank([q]),
        fuzz=False,
        **more,  # type: ignore[arg-type]
    )


async def drill_user(app: App, lang: str) -> int:
    uid = (await app.service.user_for("console", "local", lang)).id  # type: ignore[arg-type]
    replies = await app.service.handle_text(uid, "/drill")
    assert replies[0].kind == "question"
    return uid


@pytest.mark.parametrize("qid", sorted(WRONG))
async def test_a_confidently_wrong_answer_is_never_shown_correct_nor_passed_unless_the_user_says(
    tmp_path: Path, qid: str
) -> None:
    q = bank_question(qid)
    lang, answer = WRONG[qid]
    app = await app_with(tmp_path, q)
    uid = await drill_user(app, lang)
    card_before = (await app.store.list_cards(uid))[0]
    check, rate = await app.service.handle_text(uid, answer)
    shown = check.text + rate.text
    for claim in ("correctness", "正确性", "/100", "Score", "得分", "Correct"):
        assert claim not in shown
    assert ("Offline check, not a verdict" if lang == "en" else "离线检查，不是评分结论") in check.text
    assert (t := q.reference_answer.get(lang).strip()[:40]) and t in rate.text  # the reference, to judge by
    (attempt,) = await app.store.list_attempts(uid)
    assert attempt.rating == 1 and attempt.rating_by == "unrated"  # scheduled as Again until the user rates
    again, _ = srs.review(card_before.fsrs, Rating.AGAIN, attempt.created_at, 0.9, False)
    assert (await app.store.list_cards(uid))[0].fsrs == again
    await app.service.handle_text(uid, "/drill")  # the user moves on without rating: still no pass
    (attempt,) = await app.store.list_attempts(uid)
    assert attempt.rating == 1 and attempt.rating_by == "unrated"
    await app.close()


async def test_offline_the_user_rates_and_one_press_accepts_the_suggestion(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    app = await app_with(tmp_path, q)
    uid = await drill_user(app, "en")
    card_before = (await app.store.list_cards(uid))[0]
    answer = (
        "First I reproduce from the last checkpoint with the same data order. Then I check the batch for NaN or Inf "
        "and out-of-range labels. I log per-layer gradient norms and turn on detect_anomaly to find the first op."
    )
    check, rate = await app.service.handle_text(uid, answer)
    (attempt,) = await app.store.list_attempts(uid)
    found = [k for k in attempt.grade.key_points if k.verdict != "missed"]  # type: ignore[union-attr]
    assert f"Found {len(found)} of {len(q.rubric.key_points)}:" in check.text
    assert "  ✓ " in check.text and "  ✗ " in check.text and "“" in check.text  # the sentence that matched
    assert "Suggested rating:" in rate.text and "Until you rate, this card comes back tomorrow." in rate.text
    assert "), if what you said is right." in rate.text  # coverage cannot tell a right claim from a wrong one
    first = rate.buttons[0][0]
    assert first.label.endswith("(suggested)") and first.action == rate.default_action
    assert first.action.startswith(f"rate:{attempt.id}:")
    suggested = int(first.action.rsplit(":", 1)[1])
    assert [b.action for b in rate.buttons[0]] == [first.action] + [
        f"rate:{attempt.id}:{n}" for n in (1, 2, 3, 4) if n != suggested
    ]
    replies = await app.service.handle_action(uid, first.action)
    assert "Rating set to" in replies[0].text
    (attempt,) = await app.store.list_attempts(uid)
    assert attempt.rating == suggested and attempt.rating_by == "user"
    state, _ = srs.review(card_before.fsrs, Rating(suggested), attempt.graded_at, 0.9, False)  # type: ignore[arg-type]
    assert (await app.store.list_cards(uid))[0].fsrs == state
    await app.close()


async def test_a_ticked_point_is_stored_moves_the_suggestion_and_survives_a_restart(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    app = await app_with(tmp_path, q)
    uid = await drill_user(app, "zh")
    _, rate = await app.service.handle_text(uid, "我会先从最近的 checkpoint 复现，看是不是同一步出问题。")
    ticks = [b for row in rate.buttons for b in row if b.action.startswith("tick:")]
    assert ticks and all(b.label.startswith("我讲了：") for b in ticks)
    (attempt,) = await app.store.list_attempts(uid)
    index = int(ticks[0].action.rsplit(":", 1)[1])
    point = attempt.grade.key_points[index].id  # type: ignore[union-attr]
    replies = await app.service.handle_action(uid, ticks[0].action)
    assert replies[0].text.startswith("已标记：") and "现在的建议评级：" in replies[0].text
    assert not any(b.action == ticks[0].action for row in replies[0].buttons for b in row)  # ticked: gone
    await app.close()
    app = await app_with(tmp_path, q)
    (attempt,) = await app.store.list_attempts(uid)
    assert attempt.ticked == [point] and attempt.rating_by == "unrated"  # a tick is not a rating
    await app.close()


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "🤔🔥💯🚀"), ("en", "idk"), ("en", "???"), ("zh", "不知道"), ("zh", "。。。")],
)
async def test_a_non_answer_is_not_graded_stored_or_reviewed(tmp_path: Path, lang: str, text: str) -> None:
    q = bank_question("stab-nan-debug-001")
    grader = FakeGrader()
    app = await app_with(tmp_path, q, grader)
    uid = await drill_user(app, lang)
    card_before = (await app.store.list_cards(uid))[0]
    (reply,) = await app.service.handle_text(uid, text)
    assert ("does not look like an answer" if lang == "en" else "不像回答") in reply.text
    assert reply.actions() == ["ref"] and reply.ask_text
    assert await app.store.list_attempts(uid) == [] and grader.calls == []
    assert (await app.store.list_cards(uid))[0] == card_before
    assert isinstance(await app.store.get_session(uid), Answering)  # the question stays open for another try
    replies = await app.service.handle_action(uid, "ref")  # "I don't know": an explicit Again with the reference
    assert q.reference_answer.get(lang)[:30] in replies[0].text  # type: ignore[arg-type]
    (attempt,) = await app.store.list_attempts(uid)
    assert attempt.status == "revealed" and attempt.rating == 1
    await app.close()


class ScriptedGrader(FakeGrader):
    """An LLM-like grader whose verdicts and offline score beside it are set per test."""

    def __init__(self, score: int, verdicts: str, offline: int | None) -> None:
        super().__init__(score)
        self.verdicts, self.offline = verdicts, offline

    async def grade(self, question: Question, answer: str, lang: str, level: str = "engineer") -> Grade:  # type: ignore[override]
        g = await super().grade(question, answer, lang)  # type: ignore[arg-type]
        names = {"h": "hit", "p": "partial", "m": "missed"}
        points = [
            KeyPointResult(id=k.id, verdict=names[self.verdicts[i % len(self.verdicts)]])  # type: ignore[arg-type]
            for i, k in enumerate(question.rubric.key_points)
        ]
        update = {"key_points": points, "offline_score": self.offline, "grader": "llm:fake", "tokens": 100}
        return g.model_copy(update=update)


async def test_an_llm_grade_can_be_disagreed_with_and_both_are_kept(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    app = await app_with(tmp_path, q, ScriptedGrader(70, "hm", None))
    uid = await drill_user(app, "en")
    (reply,) = await app.service.handle_text(uid, "I check the data, then per-layer gradient norms.")
    (attempt,) = await app.store.list_attempts(uid)
    assert reply.text.startswith("Score: 70/100 (Good)") and attempt.rating == 3 and attempt.rating_by == "grade"
    assert f"dis:{attempt.id}" in reply.actions() and reply.default_action is None
    (choose,) = await app.service.handle_action(uid, f"dis:{attempt.id}")
    assert "instead of the grader's Good" in choose.text
    await app.service.handle_action(uid, f"rate:{attempt.id}:1")
    (attempt,) = await app.store.list_attempts(uid)
    assert attempt.rating == 1 and attempt.rating_by == "user" and attempt.grade.score == 70  # type: ignore[union-attr]
    await app.close()


@pytest.mark.parametrize(
    ("verdicts", "offline", "why"),
    [("pppm", None, "most key points are only partly covered"), ("hm", 40, "of 70 and the offline check's 40 are far")],
)
async def test_a_borderline_llm_grade_asks_the_user_to_confirm(
    tmp_path: Path, verdicts: str, offline: int | None, why: str
) -> None:
    q = bank_question("stab-nan-debug-001")
    app = await app_with(tmp_path, q, ScriptedGrader(70, verdicts, offline))
    uid = await drill_user(app, "en")
    (reply,) = await app.service.handle_text(uid, "I check the data, then per-layer gradient norms.")
    (attempt,) = await app.store.list_attempts(uid)
    assert why in reply.text and "please confirm the rating" in reply.text
    assert reply.buttons[1][0].label == "✓ Keep Good" and reply.default_action == f"rate:{attempt.id}:3"
    await app.close()


async def test_a_calm_llm_grade_does_not_ask_for_confirmation(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    app = await app_with(tmp_path, q, ScriptedGrader(70, "hm", 50))  # 20 apart: within the margin
    uid = await drill_user(app, "en")
    (reply,) = await app.service.handle_text(uid, "I check the data, then per-layer gradient norms.")
    assert "please confirm the rating" not in reply.text and reply.default_action is None
    await app.close()


async def test_an_offline_session_ends_idle_with_the_attempt_to_rate(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    app = await app_with(tmp_path, q)
    uid = await drill_user(app, "en")
    await app.service.handle_text(uid, "I check the data first and log per-layer gradient norms.")
    (attempt,) = await app.store.list_attempts(uid)
    assert await app.store.get_session(uid) == Idle(last_attempt=attempt.id)
    await app.close()


class TypedInput(StringIO):
    """Standard input as a terminal: what is typed, line by line."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_in_the_terminal_enter_accepts_the_suggestion(tmp_path: Path, lang: str) -> None:
    q = bank_question("stab-nan-debug-001")
    app = await app_with(tmp_path, q)
    await app.service.user_for("console", "local", lang)  # type: ignore[arg-type]
    out = StringIO()
    answer = "我会先检查数据里有没有 NaN，再看逐层梯度范数。" if lang == "zh" else "I check the data for NaN first."
    await run_console(app.service, "local", StringIO(f"/drill\n{answer}\n\n"), out, tmp_path)
    printed = out.getvalue()
    accept = "（建议）" if lang == "zh" else "(suggested)"
    assert "[1] ✓ " in printed and accept in printed and "/100" not in printed
    assert ("评级已改为" if lang == "zh" else "Rating set to") in printed  # the empty line pressed [1]
    uid = (await app.service.user_for("console", "local")).id
    (attempt,) = await app.store.list_attempts(uid)
    assert attempt.rating_by == "user"
    await app.close()


async def test_a_blank_line_with_nothing_suggested_does_nothing(tmp_path: Path) -> None:
    app = await app_with(tmp_path, bank_question("stab-nan-debug-001"), FakeGrader())
    out = StringIO()
    await run_console(app.service, "local", StringIO("/help\n\n\n/drill\n"), out, tmp_path)
    assert [line for line in out.getvalue().splitlines() if line.startswith("> ")] == ["> /help", "> /drill"]
    await app.close()


@pytest.mark.parametrize(("lang", "says"), [("en", "4,095 bytes"), ("zh", "4095 字节")])
async def test_a_typed_line_cut_by_the_terminal_is_not_sent(tmp_path: Path, lang: str, says: str) -> None:
    grader = FakeGrader()
    app = await app_with(tmp_path, bank_question("stab-nan-debug-001"), grader)
    await app.service.user_for("console", "local", lang)  # type: ignore[arg-type]
    out = StringIO()
    typed = TypedInput("/drill\n" + "x" * 4095 + "\n" + "a short answer\n")
    await run_console(app.service, "local", typed, out, tmp_path, lang)
    assert says in out.getvalue() and '"""' in out.getvalue()
    assert [answer for _, answer, _ in grader.calls] == ["a short answer"]  # the cut line was not graded
    assert not cut_by_terminal("y" * 4094) and cut_by_terminal("y" * 4095) and cut_by_terminal("é" * 2048)
    await app.close()


async def test_a_second_look_is_kept_beside_the_first_and_reschedules_unless_the_user_rated(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    llm = ScriptedGrader(70, "hm", None)
    app = await app_with(tmp_path, q, llm, estimator=FakeGrader(60, grader="offline"))
    uid = await drill_user(app, "zh")
    await app.service.handle_text(uid, "先查数据，再看逐层梯度范数。")
    (first,) = await app.store.list_attempts(uid)
    (choose,) = await app.service.handle_action(uid, f"dis:{first.id}")
    assert f"look:{first.id}" in choose.actions() and "也可以请 AI 评分器" in choose.text
    llm.score = 90
    (looked,) = await app.service.handle_action(uid, f"look:{first.id}")
    assert looked.text.startswith("复核结果：70 → 90。") and "得分：90/100（简单）" in looked.text
    (after,) = await app.store.list_attempts(uid)
    assert after.grade.score == 90 and after.grade.first_score == 70 and after.grade.checked_twice  # type: ignore[union-attr]
    assert after.rating == 4 and after.rating_by == "grade" and len(llm.calls) == 2
    state, _ = srs.review(first.card_before, Rating.EASY, first.graded_at, 0.9, False)  # type: ignore[arg-type]
    assert (await app.store.list_cards(uid))[0].fsrs == state
    (again,) = await app.service.handle_action(uid, f"look:{first.id}")
    assert again.text == "这个回答已经复核过一次了。" and len(llm.calls) == 2
    (choose,) = await app.service.handle_action(uid, f"dis:{first.id}")
    assert not any(a.startswith("look:") for a in choose.actions())  # one second look per answer
    await app.close()


async def test_a_second_look_keeps_the_users_own_rating_and_counts_in_the_budget(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    llm = ScriptedGrader(70, "hm", None)
    app = await app_with(tmp_path, q, llm, estimator=FakeGrader(60, grader="offline"))
    uid = await drill_user(app, "en")
    await app.service.handle_text(uid, "I check the data, then per-layer gradient norms.")
    (first,) = await app.store.list_attempts(uid)
    await app.service.handle_action(uid, f"rate:{first.id}:2")  # the user's own Hard
    card = (await app.store.list_cards(uid))[0]
    (looked,) = await app.service.handle_action(uid, f"look:{first.id}")
    assert "Your own rating (Hard) still schedules the card." in looked.text
    (after,) = await app.store.list_attempts(uid)
    assert after.rating == 2 and after.rating_by == "user" and (await app.store.list_cards(uid))[0] == card
    await app.close()


async def test_a_second_look_over_the_llm_budget_is_refused(tmp_path: Path) -> None:
    q = bank_question("stab-nan-debug-001")
    llm = ScriptedGrader(70, "hm", None)
    app = await app_with(tmp_path, q, llm, estimator=FakeGrader(60, grader="offline"))
    app.service.deps.limits = Limits(fuzz=False, llm_daily_limit=1)
    uid = await drill_user(app, "en")
    await app.service.handle_text(uid, "I check the data, then per-layer gradient norms.")
    (first,) = await app.store.list_attempts(uid)
    (refused,) = await app.service.handle_action(uid, f"look:{first.id}")
    assert (
        refused.text.startswith("You have used your AI gradings for the last 24 hours, so the grade stays")
        and len(llm.calls) == 1
    )
    (same,) = await app.store.list_attempts(uid)
    assert same == first  # nothing changed
    await app.close()


STORIES = {
    "pipe-actckpt-case-001": (
        "At my last job we fine-tuned a 13B model with 4K context on 16 A100s with ZeRO-3, and it ran out of memory at "
        "micro-batch 2. I took a memory snapshot first: activations were about 60% of the peak, the optimizer states "
        "were already sharded. I turned on full activation checkpointing, which made it fit but the step was 30% "
        "slower, so I measured tokens/s and peak memory before and after, then checkpointed only half of the layers: "
        "peak memory went from 78 GB to 66 GB and the slowdown dropped to about 15%. The loss curve matched our "
        "control run. The lesson: measure before choosing, and keep headroom for the longest samples."
    ),
    "stab-tradeoff-002": (
        "We had a 7B SFT run that had to ship in five days, and on day two the median grad norm started rising with "
        "small spikes. I laid out three options: keep going and risk a rollback costing two days, stop for full "
        "ablations costing three days for sure, or lower the learning rate by 30% and replay the bad batches on two "
        "GPUs in parallel. I chose the reversible one, with a trigger rule written in advance: if the grad norm "
        "doubled again we would roll back. There were no further spikes, we delivered on time, and the final eval "
        "was within 0.5 points of the original projection; the replay found two corrupted shards for the next run."
    ),
}


@pytest.mark.parametrize("qid", sorted(STORIES))
def test_a_case_story_gets_credit_for_its_own_result_and_no_follow_up_presumes_the_references(qid: str) -> None:
    q = bank_question(qid)
    g = OFFLINE.grade_sync(q, STORIES[qid], "en")
    verdict = {k.id: k.verdict for k in g.key_points}
    assert verdict["result"] != "missed" and verdict["situation"] != "missed"
    reference_numbers = set(re.findall(r"\d+(?:\.\d+)?", q.reference_answer.en)) - set(
        re.findall(r"\d+(?:\.\d+)?", STORIES[qid] + q.prompt.en)
    )
    asked = set(re.findall(r"\d+(?:\.\d+)?", g.follow_up or ""))
    assert not asked & reference_numbers, g.follow_up  # no number of the reference's story
