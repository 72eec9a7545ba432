"""Study servers through the core with fakes: /setup, the question of the day, answers, leaderboards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.features.deps import Deps
from bot.features.study_server.study_server import board_source, daily_post, daily_question, server_source
from bot.kernel import commands as c
from bot.kernel.models import Guild
from bot.kernel.replies import Reply
from bot.kernel.service import Service
from tests.fakes import FakeClock, FakeGrader, FakeRubricWriter, FakeStore

GUILD = "900"


async def member(service: Service, external_id: str, lang: str = "en") -> int:
    return (await service.user_for("discord", external_id, lang)).id  # type: ignore[arg-type]


def setup_cmd(uid: int, **kw: object) -> c.SetupServer:
    values: dict[str, object] = dict(
        server_id=GUILD, channel_id="77", channel_label="<#77>", daily_time="20:00", timezone="Asia/Shanghai"
    )
    values.update(kw)
    return c.SetupServer(uid, **values)  # type: ignore[arg-type]


async def test_setup_needs_a_manager_and_valid_values(service: Service, store: FakeStore) -> None:
    uid = await member(service, "1", "zh")
    r = await service.handle(setup_cmd(uid, manager=False))
    assert "管理服务器" in r[0].text and r[0].kind == "error" and store.guilds == {}
    r = await service.handle(setup_cmd(uid, manager=True, daily_time="25:61"))
    assert "无法识别时间" in r[0].text and store.guilds == {}
    r = await service.handle(setup_cmd(uid, manager=True, timezone="Mars/Base"))
    assert "不是有效的时区" in r[0].text and store.guilds == {}
    r = await service.handle(setup_cmd(uid, manager=True, language="fr"))
    assert r[0].kind == "error" and store.guilds == {}
    r = await service.handle(setup_cmd(uid, manager=True, daily_time="7:05", timezone="上海"))
    assert "<#77>" in r[0].text and "07:05" in r[0].text
    saved = store.guilds[GUILD]
    assert (saved.channel_id, saved.daily_time, saved.timezone, saved.language, saved.enabled) == (
        "77",
        "07:05",
        "Asia/Shanghai",
        "zh",
        True,
    )


async def test_setup_again_keeps_what_is_not_given_and_can_turn_it_off(service: Service, store: FakeStore) -> None:
    uid = await member(service, "1")
    await service.handle(setup_cmd(uid, manager=True, language="zh"))
    created = store.guilds[GUILD].created_at
    r = await service.handle(setup_cmd(uid, manager=True, channel_id="88", daily_time="", timezone="", enabled=False))
    assert "off" in r[0].text
    g = store.guilds[GUILD]
    assert (g.channel_id, g.daily_time, g.timezone, g.language, g.enabled) == (
        "88",
        "20:00",
        "Asia/Shanghai",
        "zh",
        False,
    )
    assert g.created_at == created
    assert await store.list_guilds() == [] and len(await store.list_guilds(enabled_only=False)) == 1


def guild(tz: str = "Asia/Shanghai", lang: str = "en") -> Guild:
    return Guild(id=GUILD, channel_id="77", timezone=tz, language=lang, created_at=datetime(2026, 1, 1, tzinfo=UTC))  # type: ignore[arg-type]


async def test_daily_post_is_one_question_per_local_day_with_an_answer_button(deps: Deps) -> None:
    # 2026-03-02 17:00 UTC is already 03-03 01:00 in Shanghai: the post follows the server's day.
    late = datetime(2026, 3, 2, 17, 0, tzinfo=UTC)
    post = daily_post(guild(), late, deps.bank)
    assert post is not None and "2026-03-03" in post.text
    q = daily_question(deps.bank, GUILD, late.date() + timedelta(days=1))
    assert q is not None and q.prompt.en in post.text
    assert post.actions() == [f"answer:{q.id}"]
    zh = daily_post(guild(lang="zh"), late, deps.bank)
    assert zh is not None and "每日一题" in zh.text and q.prompt.zh in zh.text
    days = [daily_question(deps.bank, GUILD, late.date() + timedelta(days=i)) for i in range(len(deps.bank))]
    assert len({x.id for x in days if x}) == len(deps.bank)  # every question once before any repeats


async def test_answering_in_a_server_grades_privately_and_keeps_the_open_question(
    service: Service, store: FakeStore, deps: Deps
) -> None:
    uid = await member(service, "1")
    await service.handle_text(uid, "/drill")  # a question is open in the member's DMs
    opened = store.sessions[uid]
    q = deps.bank.get("pipe-zero-001")
    assert q is not None and store.cards[store.open_card(uid)].question_id != q.id
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "I check data, then the grad norm."))
    assert r[0].kind == "grade" and "Score: 70/100" in r[0].text
    attempt = max(store.attempts.values(), key=lambda a: a.id)
    assert attempt.question_id == q.id and attempt.source == server_source("discord", GUILD) == "discord:guild:900"
    assert store.sessions[uid] == opened  # the DM question is still open
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "   "))
    assert r[0].kind == "error" and store.sessions[uid] == opened
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, "no-such-question", "text"))
    assert "no longer" in r[0].text


async def test_answer_in_a_server_creates_the_card_and_schedules_it(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock
) -> None:
    uid = await member(service, "1")
    q = daily_question(deps.bank, GUILD, clock.now().date())
    assert q is not None
    await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "An answer."))
    card = await store.card_for_question(uid, q.id)
    assert card is not None and card.due > clock.now() and not card.is_new


async def answer_in(service: Service, uid: int, server: str, text: str = "answer", days_ago: int = 0) -> list[Reply]:
    """Answer the question of the day (of `days_ago` days before today) in `server`, set up on UTC if new."""
    store = service.deps.store
    if await store.get_guild(server) is None:
        await store.save_guild(guild(tz="UTC").model_copy(update={"id": server}))
    day = service.deps.clock.now().date() - timedelta(days=days_ago)
    q = daily_question(service.deps.bank, server, day)
    assert q is not None
    return await service.handle(c.AnswerServerQuestion(uid, "discord", server, q.id, text))


async def test_leaderboard_counts_this_server_only_by_week_and_month(
    service: Service, store: FakeStore, grader: FakeGrader, clock: FakeClock
) -> None:
    await store.save_guild(guild(tz="UTC"))
    clock.current = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
    ann, bob, cid = await member(service, "11"), await member(service, "22"), await member(service, "33")
    clock.current -= timedelta(days=1)  # Sunday 1 March: this month, last week
    grader.score = 90
    await answer_in(service, ann, GUILD)
    clock.current += timedelta(days=1)
    grader.score = 60
    await answer_in(service, bob, GUILD)
    grader.score = 80
    await answer_in(service, ann, "other-server")  # another server does not count here
    await service.handle_text(cid, "/drill")
    await service.handle_text(cid, "a DM answer")  # nor do answers outside the server
    r = await service.handle(c.ShowLeaderboard(ann, "discord", GUILD, mention="<@{id}>"))
    week, month = r[0].text.split("\n\n")
    assert "since 2026-03-02" in week and "1. <@22>: 60 points (questions answered: 1)" in week and "<@11>" not in week
    assert "since 2026-03-01" in month
    assert month.index("<@11>: 90 points") < month.index("<@22>: 60 points") and "<@33>" not in month
    other = await service.handle(c.ShowLeaderboard(ann, "discord", "other-server", mention="<@{id}>"))
    assert "<@11>: 80 points" in other[0].text and "<@22>" not in other[0].text


async def test_leaderboard_skips_follow_ups_and_shows_an_empty_board(service: Service, store: FakeStore) -> None:
    uid = await member(service, "11", "zh")
    r = await service.handle(c.ShowLeaderboard(uid, "discord", GUILD))
    assert r[0].text.count("还没有人作答") == 2
    await answer_in(service, uid, GUILD)
    attempt = max(store.attempts.values(), key=lambda a: a.id)
    await service.handle_action(uid, f"fu:{attempt.id}")
    await service.handle(c.SubmitAnswer(uid, "the follow-up answer", source=board_source("discord", GUILD)))
    assert max(store.attempts.values(), key=lambda a: a.id).is_follow_up
    r = await service.handle(c.ShowLeaderboard(uid, "discord", GUILD))
    assert "1. 11：70 分（答题 1 道）" in r[0].text


async def test_a_member_who_left_shows_as_former_member(service: Service, store: FakeStore) -> None:
    uid = await member(service, "11")
    await answer_in(service, uid, GUILD)
    store.ids.clear()  # the identity is gone (account deleted), the attempt is not
    viewer = await member(service, "22")
    r = await service.handle(c.ShowLeaderboard(viewer, "discord", GUILD, mention="<@{id}>"))
    assert "a former member: 70 points" in r[0].text


async def test_daily_dm_is_a_setting(service: Service, store: FakeStore) -> None:
    uid = (await service.user_for("discord", "5", "en", dm_opt_in=False)).id
    assert not store.users[uid].dm_opt_in
    r = await service.handle_text(uid, "/settings dm on")
    assert store.users[uid].dm_opt_in and "direct message at 09:00" in r[0].text
    r = await service.handle(c.ChangeSetting(uid, "dm_opt_in", "maybe"))
    assert r[0].kind == "error" and store.users[uid].dm_opt_in
    await service.handle(c.ChangeSetting(uid, "dm_opt_in", "off"))
    assert not store.users[uid].dm_opt_in


async def board(service: Service, uid: int, server: str = GUILD) -> str:
    return (await service.handle(c.ShowLeaderboard(uid, "discord", server, mention="<@{id}>")))[0].text


async def test_ten_answers_to_the_question_of_the_day_count_once_at_their_best(
    service: Service, grader: FakeGrader, deps: Deps
) -> None:
    """issue #16: pasting the reference answer into the daily form 10 times made 1,000 points."""
    uid, other = await member(service, "11"), await member(service, "22")
    q = daily_question(deps.bank, GUILD, service.deps.clock.now().date())
    assert q is not None
    grader.score = 100
    for _ in range(10):
        await answer_in(service, uid, GUILD, q.reference_answer.en)
    week = (await board(service, uid)).split("\n\n")[0]
    assert "1. <@11>: 100 points (questions answered: 1)" in week
    for score in (40, 90, 60):  # the best answer counts, not the first or the last
        grader.score = score
        await answer_in(service, other, GUILD)
    week = (await board(service, uid)).split("\n\n")[0]
    assert "2. <@22>: 90 points (questions answered: 1)" in week
    grader.score = 50  # yesterday's question is another question: it counts, once, too
    await answer_in(service, other, GUILD, days_ago=1)
    assert "1. <@22>: 140 points (questions answered: 2)" in await board(service, uid)


async def test_a_personal_question_or_a_deck_question_answered_in_a_server_scores_nothing(
    service: Service, store: FakeStore, deps: Deps
) -> None:
    """issue #16: /answer in a server on a question the member wrote with /review scored on the board."""
    await store.save_guild(guild(tz="UTC"))
    deps.rubric_writer = FakeRubricWriter()
    uid = await member(service, "11")
    await service.handle_text(uid, "/review Acme | How would you shard a 70B model's optimizer state on 64 GPUs?")
    r = await service.handle_text(uid, "/drill")  # the personal question is due first
    card = store.cards[store.open_card(uid)]
    assert card.personal and card.question_id in store.personal and "70B" in r[0].text
    here = server_source("discord", GUILD)  # as Discord's /answer in a server builds it
    r = await service.handle(c.SubmitAnswer(uid, "ZeRO stage 1 across the data-parallel ranks.", source=here))
    assert r[0].kind == "grade" and "Score: 70/100" in r[0].text
    await service.handle_text(uid, "/drill")  # a bank question of the member's own deck, answered there too
    assert store.cards[store.open_card(uid)].question_id not in store.personal
    r = await service.handle(c.SubmitAnswer(uid, "An answer.", source=here))
    assert r[0].kind == "grade" and "Score: 70/100" in r[0].text
    assert (await board(service, uid)).count("No graded answers yet.") == 2
    # and were a personal question's answer to carry the board's own source, it still would not count
    personal = next(a for a in store.attempts.values() if a.question_id in store.personal)
    store.attempts[personal.id] = personal.model_copy(update={"source": board_source("discord", GUILD)})
    assert (await board(service, uid)).count("No graded answers yet.") == 2


async def test_only_the_current_question_of_the_day_scores_and_an_older_one_says_so(
    service: Service, store: FakeStore, grader: FakeGrader
) -> None:
    uid = await member(service, "11")
    for days_ago, score in ((0, 70), (1, 60), (2, 90), (5, 80)):
        grader.score = score
        r = await answer_in(service, uid, GUILD, days_ago=days_ago)
        assert r[0].kind == "grade" and f"Score: {score}/100" in r[0].text
        assert ("earns none" in r[0].text) is (days_ago >= 2), days_ago  # graded all the same, and told
    week = (await board(service, uid)).split("\n\n")[0]
    assert "1. <@11>: 130 points (questions answered: 2)" in week  # today's and yesterday's only
    sources = sorted(str(a.source) for a in store.attempts.values())
    assert sources == ["discord:guild:900"] * 2 + ["discord:guild:900:daily"] * 2


async def test_an_answer_in_a_server_that_was_never_set_up_scores_nothing(service: Service, deps: Deps) -> None:
    uid = await member(service, "11")
    q = daily_question(deps.bank, "never-set-up", service.deps.clock.now().date())
    assert q is not None
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", "never-set-up", q.id, "An answer."))
    assert r[0].kind == "grade" and "earns none" in r[0].text
    assert "No graded answers yet." in await board(service, uid, "never-set-up")


async def test_a_self_rating_never_raises_the_leaderboard(service: Service, deps: Deps) -> None:
    """issue #32: offline the member rates themselves; the board keeps counting the machine's grade."""
    deps.grader.primary = FakeGrader(40, grader="offline")  # an offline estimate: the member is asked to rate
    uid = await member(service, "11")
    replies = await answer_in(service, uid, GUILD, "my answer")
    accept = next(a for r in replies for a in r.actions() if a.startswith("rate:"))
    attempt_id = accept.split(":")[1]
    await service.handle_action(uid, f"rate:{attempt_id}:4")  # Easy, by the member
    (attempt,) = await deps.store.list_attempts(uid)
    assert attempt.rating == 4 and attempt.rating_by == "user"
    assert "1. <@11>: 40 points (questions answered: 1)" in await board(service, uid)
