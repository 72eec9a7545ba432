"""/company: the companies a user logged, and merging two names of one company that the alias table does not
know (a typo, a lab's names in two languages), confirmed by the command itself. Through the service on the
fake store, and in the terminal chat on a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.bootstrap import build_app
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.models import InterviewLog, ReviewItem
from bot.kernel.parsing import parse_line
from bot.kernel.service import Service
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.integration.test_app import settings_for
from tests.platforms.console.test_first_hour import Terminal


async def user_with(service: Service, store: FakeStore, lang: str = "en", external: str = "u1") -> int:
    user = await service.user_for("test", external, lang)  # type: ignore[arg-type]
    await store.save_user(user.model_copy(update={"onboarded": True}))
    return user.id


async def log(store: FakeStore, clock: FakeClock, uid: int, interviews: list[str], questions: list[str]) -> None:
    now = clock.now()
    for i, company in enumerate(interviews):
        at = now + timedelta(days=1 + i)
        await store.add_interview(InterviewLog(id=0, user_id=uid, company=company, at=at, created_at=now))
    for company in questions:
        await store.add_review_item(ReviewItem(id=0, user_id=uid, company=company, question_id="pipe-zero-001",
                                               question_text="q?", matched_bank=True, topic="pipeline",
                                               subtopic="test", created_at=now))  # fmt: skip


def companies_of(store: FakeStore, uid: int) -> list[str]:
    rows = [*store.interviews.values(), *store.review_items.values()]
    return sorted(x.company for x in rows if x.user_id == uid)


@pytest.mark.parametrize(
    "line",
    ["/company Tencnet = Tencent", "/company Tencnet ＝ Tencent", "/companies Tencnet->Tencent",
     "/公司 Tencnet → Tencent", "/company  Tencnet=Tencent  "],
)  # fmt: skip
def test_every_way_of_writing_a_merge_parses_to_the_same_command(line: str) -> None:
    assert parse_line(7, line) == c.MergeCompanies(7, "Tencnet", "Tencent")


def test_company_alone_lists_and_a_line_without_an_arrow_shows_the_usage() -> None:
    assert parse_line(7, "/company") == parse_line(7, "/公司") == c.ShowCompanies(7)
    assert parse_line(7, "/company Tencnet Tencent") == c.Invalid(7, "usage", "company", "company.usage")
    assert parse_line(7, "/company = Tencent") == c.MergeCompanies(7, "", "Tencent")


async def test_a_merge_renames_every_entry_whose_name_folds_to_the_old_one(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await user_with(service, store)
    await log(store, clock, uid, ["Tencnet", "tencnet inc.", "Tencent"], ["TENCNET", "Acme"])
    (reply,) = await service.handle_text(uid, "/company Tencnet = Tencent")
    assert reply.text == 'Merged: I moved 2 interviews and 1 question from "Tencnet" to "Tencent".'
    assert companies_of(store, uid) == ["Acme", "Tencent", "Tencent", "Tencent", "Tencent"]
    (listed,) = await service.handle_text(uid, "/company")
    assert "- Tencent: 3 interviews, 1 question" in listed.text and "- Acme: 1 question" in listed.text
    assert "Tencnet" not in listed.text.split("e.g.")[0]


async def test_a_known_company_in_one_language_merges_every_spelling_of_it(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await user_with(service, store, "zh")
    await log(store, clock, uid, ["上海人工智能实验室", "上海AI Lab"], ["Shanghai AI Lab"])
    await log(store, clock, uid, ["Shanghai Artificial Intelligence Laboratory"], [])  # a name the table lacks
    (listed,) = await service.handle_text(uid, "/company")
    assert "- 上海人工智能实验室：2 场面试、1 道题" in listed.text  # grouped as /stats groups them
    assert "- Shanghai Artificial Intelligence Laboratory：1 场面试" in listed.text
    (reply,) = await service.handle_text(uid, "/公司 Shanghai Artificial Intelligence Laboratory ＝ 上海AI Lab")
    assert reply.text == "已合并：记为“Shanghai Artificial Intelligence Laboratory”的 1 场面试已改记为“上海AI Lab”。"
    (stats,) = await service.handle_text(uid, "/stats")
    assert "- 上海人工智能实验室：3 场面试、1 道题" in stats.text and "/company" not in stats.text  # one company now


@pytest.mark.parametrize(
    ("interviews", "questions", "en", "zh"),
    [
        (1, 0, "I moved 1 interview from", "的 1 场面试已改记为"),
        (0, 1, "I moved 1 question from", "的 1 道题已改记为"),
        (1, 1, "I moved 1 interview and 1 question from", "的 1 场面试和 1 道题已改记为"),
        (2, 3, "I moved 2 interviews and 3 questions from", "的 2 场面试和 3 道题已改记为"),
    ],
)
async def test_the_reply_counts_what_changed_in_the_right_plural_forms(
    service: Service, store: FakeStore, clock: FakeClock, interviews: int, questions: int, en: str, zh: str
) -> None:
    for lang, expected, external in (("en", en, "u1"), ("zh", zh, "u2")):
        uid = await user_with(service, store, lang, external)
        await log(store, clock, uid, ["Tencnet"] * interviews, ["Tencnet"] * questions)
        (reply,) = await service.handle_text(uid, "/company Tencnet -> Tencent")
        assert expected in reply.text and reply.kind != "error", reply.text


async def test_another_users_entries_are_never_touched(service: Service, store: FakeStore, clock: FakeClock) -> None:
    mine, theirs = await user_with(service, store, external="u1"), await user_with(service, store, external="u2")
    await log(store, clock, mine, ["Tencnet"], [])
    await log(store, clock, theirs, ["Tencnet", "Beta"], ["Tencnet"])
    (reply,) = await service.handle_text(mine, "/company Tencnet = Tencent")
    assert "I moved 1 interview from" in reply.text
    assert companies_of(store, theirs) == ["Beta", "Tencnet", "Tencnet"]
    (reply,) = await service.handle_text(mine, "/company Beta = Gamma")  # only the other user has a Beta
    assert reply.kind == "error" and 'no interview or question logged as "Beta"' in reply.text
    assert companies_of(store, theirs) == ["Beta", "Tencnet", "Tencnet"]


async def test_a_name_the_user_never_logged_gets_the_names_they_have(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await user_with(service, store)
    (reply,) = await service.handle_text(uid, "/company Tencnet = Tencent")
    assert reply.kind == "error" and "not logged any company yet" in reply.text
    await log(store, clock, uid, ["Tencent", "ByteDance"], ["Acme"])
    (reply,) = await service.handle_text(uid, "/company Alibaba = Acme")
    assert reply.text.startswith('You have no interview or question logged as "Alibaba". Your companies: ')
    assert "Your companies: Acme, ByteDance, Tencent. Send /company to see them with their counts." in reply.text
    zh = await user_with(service, store, "zh", "u2")
    await log(store, clock, zh, ["Tencent", "ByteDance"], [])
    (reply,) = await service.handle_text(zh, "/company 阿里 = 蚂蚁")
    known = "你记录过的公司：字节跳动、腾讯。"  # known companies by their Chinese names, listed with 、
    assert reply.text.startswith("你没有以“阿里”记录的面试或问题。" + known)
    assert companies_of(store, uid) == ["Acme", "ByteDance", "Tencent"]


async def test_an_empty_long_or_same_new_name_is_refused_and_nothing_changes(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid = await user_with(service, store)
    zh = await user_with(service, store, "zh", "u2")
    for who in (uid, zh):
        await log(store, clock, who, ["Tencnet", "字节"], [])
    cases = [
        ("/company Tencnet =", 'Write the new name after the "=": /company Tencnet = new name',
         "请在“=”后写上新名字：/company Tencnet = 新名"),
        ("/company = Tencent", 'Write the name to replace before the "="', "请在“=”前写上要替换的名字"),
        ("/company Tencnet = " + "x" * 201, "The new name is 201 characters; the limit is 200.",
         "新名字有 201 个字符，上限是 200。"),
        ("/company 字节 = ByteDance Inc.", '"字节" and "ByteDance Inc." already count as one company',
         "“字节”和“ByteDance Inc.”已经算作同一家公司，无需合并。"),
        ("/company tencnet = Tencnet", "already count as one company", "已经算作同一家公司"),
        ("/company Tencnet Tencent", "Usage: /company OLD = NEW merges two names", "用法：/company 旧名 = 新名"),
    ]  # fmt: skip
    for line, en, zh_text in cases:
        for who, expected in ((uid, en), (zh, zh_text)):
            (reply,) = await service.handle_text(who, line)
            assert reply.kind == "error" and expected in reply.text, (line, reply.text)
    assert companies_of(store, uid) == companies_of(store, zh) == ["Tencnet", "字节"]
    (reply,) = await service.handle_text(uid, "/company Tencnet = " + "x" * 200)  # the longest name taken
    assert "I moved 1 interview from" in reply.text
    (reply,) = await service.handle_text(uid, "/company 字节 = Byte\n  Planet\t Labs")  # one line, single spaces
    assert reply.text == 'Merged: I moved 1 interview from "字节" to "Byte Planet Labs".'
    assert companies_of(store, uid) == ["Byte Planet Labs", "x" * 200]


async def test_the_list_shows_counts_and_how_to_merge_in_both_languages(
    service: Service, store: FakeStore, clock: FakeClock
) -> None:
    uid, zh = await user_with(service, store), await user_with(service, store, "zh", "u2")
    (reply,) = await service.handle_text(uid, "/company")
    assert "not logged any company yet" in reply.text and "/interview" in reply.text
    for who in (uid, zh):
        await log(store, clock, who, ["Tencnet", "ByteDance"], ["字节跳动", "字节"])
    (en,) = await service.handle_text(uid, "/companies")
    assert en.text.splitlines() == [
        "Companies you have logged, counted as in /stats:",
        "- ByteDance: 1 interview, 2 questions",
        "- Tencnet: 1 interview",
        "Two names for one company? Merge them: /company OLD = NEW, e.g. /company Tencnet = Tencent",
    ]
    (zh_reply,) = await service.handle_text(zh, "/公司")
    assert zh_reply.text.splitlines()[1:3] == ["- 字节跳动：1 场面试、2 道题", "- Tencnet：1 场面试"]
    assert zh_reply.text.splitlines()[-1].startswith("同一家公司记成了两个名字？可以这样合并：/company 旧名 = 新名")


async def test_a_failed_write_renames_nothing_and_says_so(service: Service, store: FakeStore, clock: FakeClock) -> None:
    uid = await user_with(service, store)
    await log(store, clock, uid, ["Tencnet"], ["Tencnet"])
    store.fail_company_rename = True
    (reply,) = await service.handle_text(uid, "/company Tencnet = Tencent")
    assert reply.kind == "error" and "NOT saved" in reply.text
    assert companies_of(store, uid) == ["Tencnet", "Tencnet"]


@pytest.fixture
async def terminal(tmp_path: Path, bank: Bank) -> AsyncIterator[Terminal]:
    app = await build_app(settings_for(tmp_path), grader=FakeGrader(), clock=FakeClock(), bank=bank, fuzz=False)
    yield Terminal(app, tmp_path)
    await app.close()


async def test_in_the_terminal_two_spellings_become_one_company_in_stats(terminal: Terminal) -> None:
    replies = await terminal.run(
        "/interview Tencnet | MLE | tomorrow 14:00",
        "/interview Tencent | MLE | tomorrow 16:00",
        "/stats",
        "/company Tencnet = Tencent",
        "/stats",
    )
    before = replies[2][1]
    assert "- Tencnet: 1 interview" in before and "- Tencent: 1 interview" in before
    assert "Two names for one company? /company merges them." in before
    assert 'Merged: I moved 1 interview from "Tencnet" to "Tencent".' in replies[3][1]
    after = replies[4][1]
    assert "- Tencent: 2 interviews" in after and "Tencnet" not in after and "/company" not in after
    logs = await terminal.app.store.list_interviews(await terminal.uid())
    assert [x.company for x in logs] == ["Tencent", "Tencent"]  # stored on the real SQLite file
