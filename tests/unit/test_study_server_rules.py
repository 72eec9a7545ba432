"""The study-server rules (bot/features/study_server/study_server.py) one by one: the daily post, /setup's defaults and
refusals, where an answer in a server leaves the member's session, which answers score, and the
leaderboard's periods, size and language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.features.deps import Deps
from bot.features.study_server.study_server import daily_post, daily_question
from bot.kernel import commands as c
from bot.kernel import render, srs
from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.replies import Button
from bot.kernel.service import Service
from bot.kernel.session import Answering, Idle, open_card_id
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.unit.test_study_server import GUILD, guild, member, setup_cmd


async def zh_member(service: Service, external_id: str = "1") -> int:
    return await member(service, external_id, "zh")


def test_the_daily_post_is_the_date_the_question_and_the_hint_with_an_answer_button(deps: Deps) -> None:
    now = datetime(2026, 3, 2, 17, 0, tzinfo=UTC)  # already 3 March in Shanghai
    post = daily_post(guild(lang="zh"), now, deps.bank)
    q = daily_question(deps.bank, GUILD, now.date() + timedelta(days=1))
    assert post is not None and q is not None
    lines = [t("zh", "server.daily", date="2026-03-03"), render.question_text(q, "zh", "")]
    assert post.text == "\n".join([*lines, "", t("zh", "server.daily_hint")])
    assert f" · {q.id}]\n" in post.text  # no tag after the header
    assert post.buttons == [[Button(t("zh", "btn.answer"), f"answer:{q.id}")]] and post.kind == "daily"


def test_an_empty_bank_has_no_question_of_the_day(store: FakeStore, clock: FakeClock) -> None:
    deps = build_test_app(Bank([]), grader=FakeGrader(), store=store, clock=clock).deps
    assert daily_question(deps.bank, GUILD, clock.now().date()) is None
    assert daily_post(guild(), clock.now(), deps.bank) is None


async def test_a_first_setup_takes_nine_o_clock_and_the_admins_timezone(service: Service, store: FakeStore) -> None:
    uid = await member(service, "1")
    user = await store.get_user(uid)
    assert user is not None
    await store.save_user(user.model_copy(update={"timezone": "Europe/Berlin"}))
    r = await service.handle(setup_cmd(uid, manager=True, daily_time="", timezone="", language=" EN "))
    saved = await store.get_guild(GUILD)
    assert saved is not None and (saved.daily_time, saved.timezone, saved.language) == ("09:00", "Europe/Berlin", "en")
    done = t("en", "server.setup_done", channel="<#77>", time="09:00", timezone="Europe/Berlin", language="English")
    assert r[0].text == done


async def test_setup_replies_in_the_admins_language_and_names_the_servers(service: Service, store: FakeStore) -> None:
    uid = await zh_member(service)
    r = await service.handle(setup_cmd(uid, manager=True, language="en"))
    saved = await store.get_guild(GUILD)
    assert saved is not None and saved.language == "en"
    done = t("zh", "server.setup_done", channel="<#77>", time="20:00", timezone="Asia/Shanghai", language="English")
    assert r[0].text == done
    r = await service.handle(setup_cmd(uid, manager=True, language="zh"))
    done = t("zh", "server.setup_done", channel="<#77>", time="20:00", timezone="Asia/Shanghai", language="中文")
    assert r[0].text == done
    r = await service.handle(setup_cmd(uid, manager=True, enabled=False))
    assert r[0].text == t("zh", "server.setup_off")


async def test_setup_refusals_are_errors_in_the_admins_language(service: Service, store: FakeStore) -> None:
    uid = await zh_member(service)
    bad_time = "half past nine in the evening, please"
    r = await service.handle(setup_cmd(uid, manager=True, daily_time=bad_time))
    assert (r[0].text, r[0].kind) == (t("zh", "bad_time", value=bad_time[:32]), "error")
    bad_zone = "Mars/" + "Olympus_Mons_" * 6
    r = await service.handle(setup_cmd(uid, manager=True, timezone=bad_zone))
    assert (r[0].text, r[0].kind) == (t("zh", "bad_timezone", value=bad_zone[:64]), "error")
    r = await service.handle(setup_cmd(uid, manager=True, language="fr"))
    assert (r[0].text, r[0].kind) == (t("zh", "bad_lang"), "error")
    assert await store.get_guild(GUILD) is None


async def test_setup_again_keeps_when_the_server_was_set_up(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await member(service, "1")
    await service.handle(setup_cmd(uid, manager=True))
    first = await store.get_guild(GUILD)
    clock.advance(days=3)
    await service.handle(setup_cmd(uid, manager=True, daily_time="08:00"))
    again = await store.get_guild(GUILD)
    assert first is not None and again is not None
    assert again.created_at == first.created_at != clock.now() and again.daily_time == "08:00"


async def test_a_question_that_left_the_bank_is_an_error_in_the_members_language(service: Service) -> None:
    uid = await zh_member(service)
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, "no-such-question", "text"))
    assert (r[0].text, r[0].kind) == (t("zh", "server.question_gone"), "error")


async def test_an_answer_starts_a_new_deck_card_from_a_fresh_state(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock
) -> None:
    uid = await member(service, "1")
    q = daily_question(deps.bank, GUILD, clock.now().date())
    assert q is not None
    await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "An answer."))
    card = await store.card_for_question(uid, q.id)
    (attempt,) = await store.list_attempts(uid)
    assert card is not None and not card.personal and attempt.card_id == card.id
    assert attempt.card_before == srs.new_state(clock.now())


async def test_an_idle_member_is_left_idle_after_their_answer(service: Service, store: FakeStore, deps: Deps) -> None:
    uid = await member(service, "1")
    q = daily_question(deps.bank, GUILD, deps.clock.now().date())
    assert q is not None
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "   "))
    assert r[0].kind == "error" and await store.get_session(uid) == Idle()  # a rejected answer opens nothing
    await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "An answer."))
    (attempt,) = await store.list_attempts(uid)
    assert await store.get_session(uid) == Idle(last_attempt=attempt.id)  # so the reference button shows it
    r = await service.handle_text(uid, "/reveal")
    assert r[0].kind == "reference"


async def test_answering_in_the_server_the_question_open_in_dms_closes_it(
    service: Service, store: FakeStore, deps: Deps
) -> None:
    uid = await member(service, "1")
    await service.handle_text(uid, "/drill")
    card_id = open_card_id(await store.get_session(uid))
    card = await store.get_card(card_id or 0)
    assert card is not None
    day = deps.clock.now().date()
    server = next(s for s in (f"s{i}" for i in range(500)) if daily_question(deps.bank, s, day).id == card.question_id)  # type: ignore[union-attr]
    await service.handle(c.AnswerServerQuestion(uid, "discord", server, card.question_id, "An answer."))
    session = await store.get_session(uid)
    assert session != Answering(card_id=card.id) and open_card_id(session) is None  # answered: not asked again


async def test_an_unscored_answer_says_so_in_the_members_language(service: Service, store: FakeStore) -> None:
    uid = await zh_member(service)
    await store.save_guild(guild(tz="UTC"))
    q = daily_question(service.deps.bank, GUILD, service.deps.clock.now().date() - timedelta(days=2))
    assert q is not None
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "一个回答。"))
    assert r[0].kind == "grade" and r[0].text.endswith("\n" + t("zh", "server.not_scored"))


async def test_the_question_of_the_day_is_the_servers_local_day(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    """At 12:00 UTC on 2 March it is already 3 March on Kiritimati (UTC+14): that day's question scores."""
    await store.save_guild(guild(tz="Pacific/Kiritimati"))
    clock.current = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    q = daily_question(service.deps.bank, GUILD, datetime(2026, 3, 3).date())
    utc_days = [daily_question(service.deps.bank, GUILD, clock.now().date() - timedelta(days=i)) for i in (0, 1)]
    assert q is not None and q.id not in [d.id for d in utc_days if d]
    uid = await member(service, "1")
    r = await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "An answer."))
    assert r[0].kind == "grade" and t("en", "server.not_scored") not in r[0].text


async def test_the_board_uses_the_servers_week_and_month_in_chinese(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    """Monday 1 June 2026, 01:00 in Shanghai (31 May in UTC): this week and this month both began at midnight."""
    await store.save_guild(guild(tz="Asia/Shanghai"))
    clock.current = datetime(2026, 5, 31, 17, 0, tzinfo=UTC)
    viewer = await zh_member(service, "2")
    r = await service.handle(c.ShowLeaderboard(viewer, "discord", GUILD))
    week, month = r[0].text.split("\n\n")
    assert week == t("zh", "board.week", since="2026-06-01") + "\n" + t("zh", "board.empty")
    assert month == t("zh", "board.month", since="2026-06-01") + "\n" + t("zh", "board.empty")
    assert r[0].kind == "leaderboard"


async def test_the_board_shows_ten_members_and_a_former_one_in_the_viewers_language(
    service: Service, store: FakeStore, grader: FakeGrader
) -> None:
    await store.save_guild(guild(tz="UTC"))
    q = daily_question(service.deps.bank, GUILD, service.deps.clock.now().date())
    assert q is not None
    for i in range(11):  # the best has no Discord identity (met on Telegram): shown as a former member
        grader.score = 50 + i
        uid = (await service.user_for("telegram" if i == 10 else "discord", str(100 + i), "en")).id
        await service.handle(c.AnswerServerQuestion(uid, "discord", GUILD, q.id, "An answer."))
    viewer = await zh_member(service, "2")
    r = await service.handle(c.ShowLeaderboard(viewer, "discord", GUILD, mention="<@{id}>"))
    week = r[0].text.split("\n\n")[0].splitlines()
    assert len(week) == 1 + 10
    assert week[1] == t(
        "zh", "board.line", rank=1, name=t("zh", "board.someone"), earned=tn("zh", "count.point", 60), answers=1
    )
    assert week[10] == t(
        "zh", "board.line", rank=10, name="<@101>", earned=tn("zh", "count.point", 51), answers=1
    )  # 50 is 11th
