"""/mock: start a mock interview (a focus, a level and a length, or the suggested one in one tap), take it
up again where it stopped, stop it early, list past ones, share the last score; and the commands that mean
something else while one runs (an answer, /skip, /reveal). The turns themselves: bot/features/mock/turn.py;
the questions: mock_plan.py; the debrief: mock_report.py."""

from __future__ import annotations

from bot.features.drill import drill
from bot.features.mock import plan as mock_plan
from bot.features.mock import turn as mock_turn
from bot.features.mock.models import DEFAULT_LENGTH, MAX_LENGTH, MIN_LENGTH, FocusKind, MockItem, MockSession
from bot.features.mock.plan import BUDGET, Planning, Setup
from bot.features.mock.ports import MocksPort
from bot.features.mock.report import focus_name
from bot.features.mock.turn import Turns, ask_current, finish, submit
from bot.features.review.companies import public_company
from bot.kernel import actions
from bot.kernel import commands as c
from bot.kernel.i18n import t, tn
from bot.kernel.models import LEVEL_WORDS, User
from bot.kernel.ports import Clock
from bot.kernel.replies import Button, Reply
from bot.kernel.session import InMock, Session
from bot.kernel.store_ports import InterviewsPort
from bot.kernel.timeutil import fmt_local
from bot.text.fold import squash

__all__ = ["answer", "history", "mock_command", "reveal", "share", "skip", "start", "stats_line", "stop", "submit"]

FOCUS_WORDS: dict[str, FocusKind] = {
    "stability": "stability", "稳定性": "stability", "pipeline": "pipeline", "流水线": "pipeline",
    "mixed": "mixed", "mix": "mixed", "综合": "mixed", "混合": "mixed",
    "weakest": "weakest", "weak": "weakest", "薄弱": "weakest", "薄弱点": "weakest",
}  # fmt: skip
STOP_WORDS = {"stop", "end", "结束", "停止"}
HISTORY_WORDS = {"history", "历史", "记录"}
SHARE_WORDS = {"share", "分享"}
GO_WORDS = {"go", "start", "开始"}


async def answer(
    cmd: c.SubmitAnswer, user: User, session: Session, turns: Turns, answers: drill.Answers
) -> list[Reply]:
    """An explicit answer (Discord's /answer): to the mock's open question while one runs, else the drill's."""
    if isinstance(session, InMock):
        return await submit(cmd, turns, user, session)
    return await drill.submit_answer(cmd, answers, user, session)


async def skip(cmd: c.SkipQuestion, user: User, session: Session, turns: Turns) -> list[Reply]:
    """/skip: passes on the mock's open question while one runs, else the drill's skip."""
    if isinstance(session, InMock):
        return await mock_turn.skip(turns, user, session)
    return await drill.skip(cmd, user, turns.users, turns.cards, turns.clock)


async def reveal(cmd: c.RevealReference, user: User, session: Session, answers: drill.Answers) -> list[Reply]:
    """/reveal: not during a mock (the reference answers come in the debrief), else the drill's."""
    if cmd.attempt_id is None and isinstance(session, InMock):
        return [Reply(t(user.language, "mock.no_reference"))]
    return await drill.reveal(cmd, user, answers)


async def mock_command(cmd: c.MockCommand, user: User, turns: Turns, planning: Planning) -> list[Reply]:
    mocks, clock = turns.mocks, turns.clock
    words = cmd.args.split()
    head = words[0].lower() if words else ""
    if head in STOP_WORDS and len(words) == 1:
        return await stop(turns, user)
    if head in HISTORY_WORDS and len(words) == 1:
        return await history(mocks, user)
    if head in SHARE_WORDS and len(words) == 1:
        return await share(mocks, user)
    running = await mocks.running_mock(user.id)
    if running is not None:
        return [Reply(t(user.language, "mock.running")), *await ask_current(turns, user, running)]
    if not words:
        return await _suggest(planning, clock, user)
    if head in GO_WORDS and len(words) == 1:
        return await start(turns, planning, user, await mock_plan.suggest(planning, user, clock.now()))
    setup = await _parse(words, planning.interviews, user)
    if isinstance(setup, Reply):
        return [setup]
    return await start(turns, planning, user, setup)


async def _parse(words: list[str], interviews: InterviewsPort, user: User) -> Setup | Reply:
    focus: FocusKind = "mixed"
    level, length, company = user.level, DEFAULT_LENGTH, []
    for word in words:
        low = word.lower()
        if low in FOCUS_WORDS:
            focus = FOCUS_WORDS[low]
        elif low in LEVEL_WORDS:
            level = LEVEL_WORDS[low]
        elif word.isascii() and word.isdigit():
            length = int(word)
            if not MIN_LENGTH <= length <= MAX_LENGTH:
                return Reply(t(user.language, "mock.bad_length", value=word), kind="error")
        else:
            company.append(word)
    if not company:
        return Setup(focus, level, length)
    name = " ".join(company)
    known = {squash(k): k for k in await mock_plan.companies(interviews, user)}  # ＯｐｅｎＡＩ is OpenAI
    if squash(name) not in known:
        return Reply(t(user.language, "mock.no_company", company=name[:60]), kind="error")
    return Setup("company", level, length, known[squash(name)])


async def _suggest(planning: Planning, clock: Clock, user: User) -> list[Reply]:
    lang = user.language
    setup = await mock_plan.suggest(planning, user, clock.now())
    minutes = round(setup.length * (sum(BUDGET.values()) / len(BUDGET) + 120) / 60)
    probe = MockSession(id=0, user_id=user.id, focus=setup.focus, company=setup.company, level=setup.level,
                        items=[], created_at=clock.now())  # fmt: skip
    text = t(lang, "mock.suggest", focus=focus_name(probe, lang), level=t(lang, f"level.{setup.level}"),
             questions=tn(lang, "count.question", setup.length), minutes=minutes, usage=t(lang, "mock.usage"))  # fmt: skip
    others = [
        Button(t(lang, f"mock.focus.{f}"), actions.Mock(words=f).encode())
        for f in ("stability", "pipeline", "mixed", "weakest")
    ]
    for name in (await mock_plan.companies(planning.interviews, user))[:3]:
        payload = actions.Mock(words=name)
        if payload.fits() and not name.isdigit():
            others.append(Button(t(lang, "mock.focus.company", company=name), payload.encode()))
    rows = [[Button(t(lang, "btn.mock_start"), actions.Mock(words="go").encode())], others[:4]] + (
        [others[4:]] if others[4:] else []
    )
    return [Reply(text, rows, waits_for="waits.mock")]


async def start(turns: Turns, planning: Planning, user: User, setup: Setup) -> list[Reply]:
    lang, now = user.language, turns.clock.now()
    questions = await mock_plan.plan(planning, user, setup, now)
    if not questions:
        return [Reply(t(lang, "mock.no_questions"))]
    items = [MockItem(question_id=q.id, budget_seconds=BUDGET[q.type]) for q in questions]
    new = MockSession(id=0, user_id=user.id, focus=setup.focus, company=setup.company, level=setup.level,
                      items=items, created_at=now)  # fmt: skip
    mock = await turns.mocks.create_mock(new)
    if mock is None:  # another process started one a moment ago
        running = await turns.mocks.running_mock(user.id)
        if running is None:
            return [Reply(t(lang, "error"), kind="error")]
        return [Reply(t(lang, "mock.running")), *await ask_current(turns, user, running)]
    count = tn(lang, "count.question", len(items))
    intro = t(lang, "mock.intro", focus=focus_name(mock, lang), level=t(lang, f"level.{mock.level}"), questions=count)
    if len(items) < setup.length:
        intro += "\n" + t(lang, "mock.shorter", questions=count)
    return [Reply(intro), *await ask_current(turns, user, mock)]


async def stop(turns: Turns, user: User) -> list[Reply]:
    mock = await turns.mocks.running_mock(user.id)
    if mock is None:
        return [Reply(t(user.language, "mock.none_running"))]
    return await finish(turns, user, mock, "stopped")


async def history(mocks: MocksPort, user: User) -> list[Reply]:
    lang = user.language
    rounds = await mocks.list_mocks(user.id)
    if not rounds:
        return [Reply(t(lang, "mock.history.none"))]
    lines = [t(lang, "mock.history.head")]
    for m in rounds[-20:]:
        if m.state == "running":
            score = t(lang, "mock.history.running")
        elif m.summary is None:
            score = "-"
        else:
            score = t(
                lang, "mock.history.score", score=m.summary.score, verdict=t(lang, f"mock.verdict.{m.summary.verdict}")
            )
        line = t(lang, "mock.history.line", date=fmt_local(m.created_at, user.timezone), focus=focus_name(m, lang),
                 answered=len(m.answered()), n=len(m.items), score=score)  # fmt: skip
        lines.append(line + (t(lang, "mock.history.stopped") if m.state == "stopped" else ""))
    return [Reply("\n".join(lines))]


async def share(mocks: MocksPort, user: User) -> list[Reply]:
    """The last finished mock's summary to post where others see it (a study server): its focus and score,
    never an answer."""
    lang = user.language
    done = [m for m in await mocks.list_mocks(user.id) if m.summary is not None]
    if not done:
        return [Reply(t(lang, "mock.share_none"))]
    m = done[-1]
    assert m.summary is not None
    focus = focus_name(m, lang)
    if m.focus == "company":  # the name as typed is the member's text under the bot's name: a plain one only
        company = public_company(m.company, lang) or t(lang, "mock.share.a_company")
        focus = t(lang, "mock.focus.company", company=company)
    text = t(lang, "mock.share", focus=focus, answered=m.summary.answered, n=len(m.items),
             score=m.summary.score, verdict=t(lang, f"mock.verdict.{m.summary.verdict}"))  # fmt: skip
    return [Reply(text, kind="share")]


TREND_MOCKS = 5


async def stats_line(mocks: MocksPort, user: User) -> str | None:
    """/stats's line on mock interviews: how many, the last scores in order, the last verdict; None if none."""
    done = [m for m in await mocks.list_mocks(user.id) if m.summary is not None]
    if not done:
        return None
    last = done[-1].summary
    assert last is not None
    scores = " → ".join(str(m.summary.score) for m in done[-TREND_MOCKS:] if m.summary)
    return t(
        user.language,
        "mock.stats",
        n=len(done),
        scores=scores,
        verdict=t(user.language, f"mock.verdict.{last.verdict}"),
    )
