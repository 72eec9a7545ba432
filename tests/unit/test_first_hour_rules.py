"""The core's rules behind a new user's first hour, through the service with fakes: a deleted user, typed
confirmations, a menu answered by number, why there is no question, per-setting usages, time of day."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.dates import parse_natural
from bot.features.deps import Deps
from bot.kernel import commands as c
from bot.kernel import srs
from bot.kernel.bank import Bank
from bot.kernel.parsing import parse_line
from bot.kernel.service import Service
from bot.kernel.session import InFlow
from bot.kernel.yes_no import DELETE, is_no, is_number, is_yes
from tests.conftest import make_question
from tests.fakes import FakeClock, FakeStore
from tests.unit.test_service import new_user


async def test_a_deleted_user_is_logged_by_id_and_told_to_start_again(
    service: Service, store: FakeStore, caplog: pytest.LogCaptureFixture
) -> None:
    uid = await new_user(service)
    await store.delete_user(uid)  # /forget on another device a moment ago
    with caplog.at_level(logging.WARNING, logger="bot"):
        (r,) = await service.handle_text(uid, "my secret answer")
    assert r.kind == "error" and "/start" in r.text and "went wrong" not in r.text
    (record,) = [x for x in caplog.records if x.name == "bot.kernel.service"]
    assert record.levelno == logging.WARNING and str(uid) in record.getMessage() and "FreeText" in record.getMessage()
    assert "secret" not in caplog.text
    fresh = await service.user_for("test", "u1")
    assert fresh.id != uid and (await service.handle_text(fresh.id, "/help"))[0].text.startswith("Commands:")


@pytest.mark.parametrize(
    "word", ["yes", "Y", "Yes!", "ＹＥＳ", "ok", "是", "好", "好的", "确认", "确定", "删除", "确认删除全部数据"]
)
async def test_typed_yes_confirms_forget(service: Service, store: FakeStore, word: str) -> None:
    uid = await new_user(service)
    await service.handle_text(uid, "/forget")
    (r,) = await service.handle_text(uid, word)
    assert "deleted" in r.text and uid not in store.users


@pytest.mark.parametrize("word", ["no", "不", "取消", "hmm", "yes please maybe", "2"])
async def test_anything_but_yes_keeps_the_data(service: Service, store: FakeStore, word: str) -> None:
    uid = await new_user(service)
    await service.handle_text(uid, "/forget")
    (r,) = await service.handle_text(uid, word)
    assert "Nothing was deleted" in r.text and uid in store.users


def test_yes_and_no_words_do_not_overlap() -> None:
    assert not any(is_no(w) for w in DELETE) and is_yes("好。") and is_no("算了") and not is_yes("no")


@pytest.mark.parametrize(
    ("limit", "expected", "absent"),
    [
        (1, "raise the limit with /settings new 6.", "the most a day"),
        (10, "raise the limit with /settings new 15.", "the most a day"),
        (48, "raise the limit with /settings new 50.", "the most a day"),
        (50, "today's 50 new questions, the most a day", "/settings new"),
        (0, "new questions are off (0 a day)", "raise the limit"),
    ],
)
async def test_nothing_due_says_what_would_give_a_question(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock, limit: int, expected: str, absent: str
) -> None:
    deps.bank = Bank([make_question(f"pipe-n-{i:03d}") for i in range(60)])
    user = await service.user_for("test", "u1")
    store.users[user.id] = user.model_copy(update={"new_per_day": limit})
    now, later = clock.now(), clock.now() + timedelta(days=30)
    for i in range(limit):  # today's new questions, taken and not due again for a month
        await store.create_card(user.id, f"pipe-n-{i:03d}", srs.new_state(now), later, False, now)
    (r,) = await service.handle_text(user.id, "/drill")
    assert expected in r.text and absent not in r.text


async def test_nothing_due_once_the_bank_is_used_up_suggests_more_topics(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock
) -> None:
    user = await service.user_for("test", "u1")
    store.users[user.id] = user.model_copy(update={"new_per_day": 50, "topics": ["stability"]})
    now, later = clock.now(), clock.now() + timedelta(days=30)
    for q in deps.bank.new_candidates(["stability"], "engineer", set()):
        await store.create_card(user.id, q.id, srs.new_state(now), later, False, now)
    (r,) = await service.handle_text(user.id, "/drill")
    assert "every bank question of your topics is already in your deck" in r.text and "topics both" in r.text
    store.users[user.id] = store.users[user.id].model_copy(update={"topics": ["stability", "pipeline"]})
    for q in deps.bank.new_candidates(["pipeline"], "engineer", set()):
        await store.create_card(user.id, q.id, srs.new_state(now), later, False, now)
    (r,) = await service.handle_text(user.id, "/drill")
    assert "already in your deck" in r.text and "topics both" not in r.text


def test_settings_with_no_value_shows_how_to_give_that_setting() -> None:
    assert parse_line(1, "/settings time") == c.Invalid(1, "usage", "settings", "usage.setting.daily_time")
    assert parse_line(1, "/settings quiet") == c.Invalid(1, "usage", "settings", "usage.setting.quiet_hours")
    assert parse_line(1, "/settings colour red") == c.Invalid(1, "usage", "settings", "usage.settings")


async def test_every_setting_name_has_its_usage(service: Service) -> None:
    from bot.features.onboarding.commands import SETTING_ALIASES

    uid = await new_user(service, "zh")
    for alias in SETTING_ALIASES:
        (r,) = await service.handle_text(uid, f"/settings {alias}")
        assert r.text.startswith("用法：/settings ") and r.kind == "error", alias


NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("08:30", "08:30"), ("7:05", "07:05"), ("8pm", "20:00"), ("8 am", "08:00"), ("8:15 pm", "20:15"),
        ("早上八点", "08:00"), ("晚上9点半", "21:30"), ("下午两点", "14:00"), ("中午", "12:00"), ("noon", "12:00"),
        ("tomorrow", None), ("8", None), ("8h", None), ("25:99", None), ("soon", None), ("", None),
    ],
)  # fmt: skip
def test_a_time_of_day_is_read_by_the_same_reader_as_dates(deps: Deps, text: str, clock: str | None) -> None:
    deps.natural_dates = parse_natural
    assert deps.parse_clock(text, NOW) == clock


async def test_quiet_hours_and_daily_time_take_natural_times(service: Service, deps: Deps, store: FakeStore) -> None:
    deps.natural_dates = parse_natural
    uid = await new_user(service, "zh")
    await service.handle_text(uid, "/settings quiet 晚上11点到早上7点")
    await service.handle_text(uid, "/settings time 晚上9点半")
    user = store.users[uid]
    assert (user.quiet_start, user.quiet_end, user.daily_time) == ("23:00", "07:00", "21:30")


async def test_an_interview_far_ahead_is_asked_about_and_save_logs_it(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await new_user(service)
    (r,) = await service.handle_text(uid, "/interview Acme | MLE | 2036-03-03 14:00")
    assert "days from now" in r.text and r.actions() == ["flow:ok", "flow:cancel"]
    assert not store.interviews and isinstance(store.sessions[uid], InFlow)
    (r,) = await service.handle_action(uid, "flow:ok")
    assert "Interview logged: Acme MLE, 2036-03-03 14:00" in r.text and len(store.interviews) == 1
    (r,) = await service.handle_text(uid, "/interview Acme | MLE | 2026-02-26 14:00")  # 4 days back: as it is
    assert "Interview logged" in r.text and "/review" in r.text


async def test_starting_the_same_form_again_asks_once(service: Service) -> None:
    uid = await new_user(service)
    await service.handle_text(uid, "/review")
    r = await service.handle_text(uid, "/review")
    assert len(r) == 1 and "Which company" in r[0].text


def test_only_plain_digits_are_menu_numbers() -> None:
    assert is_number("2") and is_number("12") and not is_number("²") and not is_number("١") and not is_number("")
    assert not is_number("2.") and not is_number("99999")


async def test_the_language_step_can_be_read_in_both_languages(service: Service) -> None:
    """A user whose language nobody could guess (the terminal, a Telegram client in French) sees the English
    welcome, so its language question is also written in Chinese."""
    user = await service.user_for("test", "no-hint", None)
    (r,) = await service.handle_text(user.id, "/start")
    assert "pick your language" in r.text and "请先选择语言" in r.text
    assert r.actions() == ["set:language:en", "set:language:zh"]
