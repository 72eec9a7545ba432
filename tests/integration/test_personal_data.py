"""Personal data under load (issue #16): /review written whole or not at all and the reply saying which,
user text cleaned at the edge, caps on what one user logs, and an /export that fits the platform."""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import random
import zipfile
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import text

from bot.config import Settings
from bot.features.deps import Deps, Limits
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.models import InterviewLog, ReviewItem
from bot.kernel.ports import WriteFailed
from bot.kernel.service import Service
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader, FakeRubricWriter, FakeStore
from tests.sqlite_template import sqlite_url

QUESTION = "How would you shard a 70B model's optimizer state over 64 GPUs on 8 nodes?"


def sql_service(sql: SqlStore, bank: Bank, clock: FakeClock, **limits: Any) -> Service:
    return build_test_app(
        bank, grader=FakeGrader(), store=sql, clock=clock, limits=Limits(fuzz=False, **limits)
    ).service


async def counts(sql: SqlStore) -> dict[str, int]:
    async with sql.engines.writer.connect() as conn:
        return {
            table: int((await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one())
            for table in ("cards", "personal_questions", "review_items")
        }


async def fail_review_inserts(sql: SqlStore, db_url: str) -> None:
    """Make the third insert of /review (its review entry) fail, as a full disk did."""
    async with sql.engines.writer.begin() as conn:
        if db_url.startswith("sqlite"):
            await conn.execute(text("CREATE TRIGGER full_disk BEFORE INSERT ON review_items "
                                    "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"))  # fmt: skip
        else:
            await conn.execute(text("CREATE FUNCTION full_disk() RETURNS trigger AS $$ BEGIN "
                                    "RAISE EXCEPTION 'could not extend file: No space left on device'; END $$ "
                                    "LANGUAGE plpgsql"))  # fmt: skip
            await conn.execute(text("CREATE TRIGGER full_disk BEFORE INSERT ON review_items "
                                    "FOR EACH ROW EXECUTE FUNCTION full_disk()"))  # fmt: skip


async def test_a_review_whose_last_insert_fails_leaves_nothing_and_says_it_was_not_saved(
    sql: SqlStore, db_url: str, bank: Bank, clock: FakeClock
) -> None:
    """issue #16: on a full disk /review left a card and a personal question but no review entry, and the user
    was told that nothing they sent was lost."""
    for lang, words in (("en", "NOT saved"), ("zh", "没有保存")):
        service = sql_service(sql, bank, clock)
        uid = (await service.user_for("telegram", f"full-{lang}", lang)).id  # type: ignore[arg-type]
        await fail_review_inserts(sql, db_url)
        r = await service.handle_text(uid, f"/review Acme | {QUESTION} | ZeRO-1 over the data-parallel ranks")
        assert r[0].kind == "error" and words in r[0].text and "lost" not in r[0].text
        assert await counts(sql) == {"cards": 0, "personal_questions": 0, "review_items": 0}
        async with sql.engines.writer.begin() as conn:
            if db_url.startswith("sqlite"):
                await conn.execute(text("DROP TRIGGER full_disk"))
            else:
                await conn.execute(text("DROP TRIGGER full_disk ON review_items"))
                await conn.execute(text("DROP FUNCTION full_disk"))
        r = await service.handle_text(uid, f"/review Acme | {QUESTION} | ZeRO-1 over the data-parallel ranks")
        assert r[0].kind != "error"  # sent again, it is saved: all three rows
        (item,) = await sql.list_review_items(uid)
        assert await sql.get_personal_question(item.question_id) and await sql.card_for_question(uid, item.question_id)
        await sql.delete_user(uid)


async def test_the_fake_store_rolls_back_a_failed_review_as_the_sql_store_does(
    service: Service, store: FakeStore, deps: Deps
) -> None:
    deps.rubric_writer = FakeRubricWriter()
    uid = (await service.user_for("test", "full")).id
    store.fail_review_insert = True
    r = await service.handle_text(uid, f"/review Acme | {QUESTION}")
    assert r[0].kind == "error" and "NOT saved" in r[0].text
    assert (store.cards, store.personal, store.review_items) == ({}, {}, {})
    store.fail_review_insert = False
    r = await service.handle_text(uid, f"/review Acme | {QUESTION}")
    assert "personal question" in r[0].text and len(store.cards) == len(store.personal) == len(store.review_items) == 1


class BrokenInterviews(FakeStore):
    async def add_interview(self, log: InterviewLog) -> InterviewLog:
        raise RuntimeError("disk on fire")


async def test_a_write_that_fails_for_another_reason_still_says_it_may_not_have_been_saved(
    bank: Bank, clock: FakeClock
) -> None:
    """Only a write known to be rolled back says "not saved"; anything else says what is known."""
    service = build_test_app(bank, grader=FakeGrader(), limits=Limits(), store=BrokenInterviews(), clock=clock).service
    uid = (await service.user_for("test", "other")).id
    r = await service.handle_text(uid, "/interview Acme | MLE | 2026-12-03 14:00")
    assert r[0].kind == "error" and "may not have been saved" in r[0].text


async def test_nul_control_characters_and_lone_surrogates_are_stored_without_them(
    sql: SqlStore, db_url: str, bank: Bank, clock: FakeClock
) -> None:
    """issue #16: a NUL byte made the last insert of /review fail on PostgreSQL."""
    item = ReviewItem(id=0, user_id=0, company="Acme", question_text="What\x00 is ZeRO?", question_id="pipe-zero-001",
                      matched_bank=True, topic="pipeline", subtopic="test", created_at=clock.now())  # fmt: skip
    service = sql_service(sql, bank, clock)
    uid = (await service.user_for("telegram", "nul")).id
    if db_url.startswith("postgresql"):  # what the edge spares the store: PostgreSQL refuses NUL in text
        with pytest.raises(WriteFailed):
            await sql.log_review(item.model_copy(update={"user_id": uid}), None, {}, clock.now())
    r = await service.handle_text(uid, f"/review Acme\x00 | {QUESTION}\x00\x1b[2J | I said\x00 ZeRO-1\x07,\tthen\nmore")
    assert r[0].kind != "error"
    await service.handle(c.LogReview(uid, "Beta\x00", "Why\x00 warm up the learning rate?\ud800", "no idea\x7f"))
    first, second = await sql.list_review_items(uid)
    assert (first.company, first.question_text) == ("Acme", QUESTION + "[2J")  # the escape is gone, not its text
    assert first.answer_text == "I said ZeRO-1,\tthen\nmore"  # tabs and line breaks stay
    assert (second.company, second.answer_text) == ("Beta", "no idea")
    assert second.question_text == "Why warm up the learning rate?"  # the lone surrogate is gone too
    personal = await sql.get_personal_question(first.question_id)
    assert personal is not None and personal.prompt.en == QUESTION + "[2J"


# --- caps -----------------------------------------------------------------------------------------------------


def capped(deps: Deps, **limits: Any) -> None:
    deps.limits = dataclasses.replace(deps.limits, **limits)


async def test_reviews_are_capped_per_local_day_at_the_exact_boundary(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock
) -> None:
    """issue #16: 3,000 /review entries made a 27 MB /export. N a day are taken, the N+1st is refused and saved
    nowhere (not even an LLM rubric is asked for), and the next local day takes more."""
    capped(deps, max_reviews_per_day=3, max_reviews=5)
    writer = deps.rubric_writer = FakeRubricWriter()
    uid = (await service.user_for("test", "caps")).id
    user = store.users[uid]
    store.users[uid] = user.model_copy(update={"timezone": "Asia/Shanghai"})
    clock.current = datetime(2026, 3, 2, 15, 59, tzinfo=UTC)  # 23:59 in Shanghai
    for n in range(3):
        r = await service.handle_text(uid, f"/review Acme | {QUESTION} (variant {n})")
        assert r[0].kind != "error", n
    r = await service.handle_text(uid, f"/review Acme | {QUESTION} (one too many)")
    assert r[0].kind == "error" and "3 interview questions today" in r[0].text and "not saved" in r[0].text
    assert len(store.review_items) == len(store.personal) == 3 and len(writer.calls) == 3
    clock.advance(minutes=1)  # midnight in Shanghai: a new day
    for n in range(2):
        r = await service.handle_text(uid, f"/review Acme | {QUESTION} (day two, {n})")
        assert r[0].kind != "error", n
    store.users[uid] = store.users[uid].model_copy(update={"language": "zh"})
    r = await service.handle_text(uid, f"/review Acme | {QUESTION} (over the total)")
    assert r[0].kind == "error" and "5 道面试题" in r[0].text and "每人的上限" in r[0].text
    assert len(store.review_items) == 5 and len(writer.calls) == 5
    r = await service.handle_text(uid, "/export")
    assert r[0].file is not None  # what the cap points to still works


async def test_interviews_are_capped_per_local_day_and_in_all(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock
) -> None:
    capped(deps, max_interviews_per_day=2, max_interviews=3)
    uid = (await service.user_for("test", "interviews")).id
    for n in range(2):
        r = await service.handle_text(uid, f"/interview Acme{n} | MLE | 2026-12-03 14:00")
        assert "Interview logged" in r[0].text
    r = await service.handle(c.LogInterview(uid, "Acme", "MLE", "2026-12-04 14:00"))
    assert r[0].kind == "error" and "2 interviews today" in r[0].text
    assert len(store.interviews) == 2 and len(store.reminders) == 2  # no reminder either
    clock.advance(days=1)
    r = await service.handle_text(uid, "/interview Acme | MLE | 2026-12-05 14:00")
    assert "Interview logged" in r[0].text
    r = await service.handle_text(uid, "/interview Acme | MLE | 2026-12-06 14:00")
    assert r[0].kind == "error" and "3 interviews, the most" in r[0].text and len(store.interviews) == 3


async def test_personal_questions_are_listed_per_user_in_one_read(sql: SqlStore, bank: Bank, clock: FakeClock) -> None:
    service = sql_service(sql, bank, clock)
    ann, bob = (await service.user_for("telegram", "ann")).id, (await service.user_for("telegram", "bob")).id
    for uid, n in ((ann, 1), (bob, 2), (ann, 3)):
        await service.handle_text(uid, f"/review Acme | {QUESTION} ({n})")
    assert [q.prompt.en for q in await sql.list_personal_questions(ann)] == [f"{QUESTION} (1)", f"{QUESTION} (3)"]
    r = await service.handle_text(ann, "/export")
    assert r[0].file is not None and len(json.loads(r[0].file.data)["personal_questions"]) == 2


def test_the_caps_have_defaults_and_come_from_the_settings() -> None:
    lim = Limits()
    assert (lim.max_reviews_per_day, lim.max_reviews, lim.max_interviews_per_day, lim.max_interviews) == (
        50, 2000, 20, 500
    )  # fmt: skip
    s = Settings(_env_file=None, max_reviews_per_day=7, max_reviews=70, max_interviews_per_day=3, max_interviews=30)
    assert (s.max_reviews_per_day, s.max_reviews, s.max_interviews_per_day, s.max_interviews) == (7, 70, 3, 30)
    with pytest.raises(ValueError, match="max_reviews"):
        Settings(_env_file=None, max_reviews=0)


async def test_bootstrap_passes_the_caps_and_the_platform_upload_limits(tmp_path: Any, bank: Bank) -> None:
    from bot.bootstrap import build_app

    settings = Settings(
        _env_file=None, database_url=sqlite_url(tmp_path), max_reviews_per_day=7,
        max_reviews=70, max_interviews_per_day=3, max_interviews=30,
    )  # fmt: skip
    app = await build_app(settings, grader=FakeGrader(), bank=bank)
    try:
        lim = app.service.deps.limits
        assert (lim.max_reviews_per_day, lim.max_reviews, lim.max_interviews_per_day, lim.max_interviews) == (
            7, 70, 3, 30
        )  # fmt: skip
        assert dict(lim.upload_limits) == {"discord": 8_000_000, "telegram": 50_000_000}
    finally:
        await app.close()


# --- export size ----------------------------------------------------------------------------------------------


def prose(rng: random.Random, n: int) -> str:
    words = ["loss", "spike", "gradient", "norm", "clip", "warmup", "learning rate", "checkpoint", "optimizer"]
    return " ".join(rng.choice(words) for _ in range(n // 6))[:n]


def noise(rng: random.Random, n: int) -> str:
    """Text that does not compress: what a worst case looks like to zip."""
    return base64.b64encode(rng.randbytes(n)).decode()[:n]


async def seed(store: FakeStore, uid: int, n: int, make: Any, now: datetime) -> None:
    rng = random.Random(n)
    for i in range(n):
        item = ReviewItem(id=0, user_id=uid, company=f"Co{i}", question_text=make(rng, 1800), answer_text=make(rng, 5900),
                          question_id="pipe-zero-001", matched_bank=True, topic="pipeline", subtopic="test",
                          created_at=now)  # fmt: skip
        await store.add_review_item(item)


def stamp(clock: FakeClock) -> str:
    """The export's name: the user's local date and time (UTC here), never their id."""
    return clock.now().strftime("%Y-%m-%d-%H%M")


def unzip(blob: bytes) -> dict[str, Any]:
    with zipfile.ZipFile(io.BytesIO(blob)) as archive:
        (name,) = archive.namelist()
        return json.loads(archive.read(name))  # type: ignore[no-any-return]


async def export(service: Service, uid: int) -> list[Any]:
    """The JSON replies of /export (the Markdown of the answers follows them: tests/unit/test_export_markdown.py)."""
    r = await service.handle(c.ExportData(uid))
    assert all(x.file is not None for x in r)
    assert r[-1].file.mime == "text/markdown"
    return [x for x in r if x.file.mime != "text/markdown"]


async def test_an_export_that_fits_is_plain_json_and_one_over_the_limit_is_zipped(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock
) -> None:
    uid = (await service.user_for("discord", "exporter")).id
    await seed(store, uid, 20, prose, clock.now())
    (whole,) = await export(service, uid)  # no limit known: as before
    assert whole.file.filename.endswith(".json")
    size = len(whole.file.data)
    capped_limits = dataclasses.replace(deps.limits, upload_limits={"discord": size})
    deps.limits = capped_limits
    (at_limit,) = await export(service, uid)
    assert at_limit.file.filename.endswith(".json") and at_limit.file.data == whole.file.data
    deps.limits = dataclasses.replace(capped_limits, upload_limits={"discord": size - 1, "telegram": 10**9})
    (zipped,) = await export(service, uid)
    assert zipped.file.filename == f"drill-export-{stamp(clock)}.zip" and zipped.file.mime == "application/zip"
    assert len(zipped.file.data) < size and unzip(zipped.file.data) == json.loads(whole.file.data)
    assert "MB of JSON, zipped to fit" in zipped.text
    deps.limits = dataclasses.replace(capped_limits, upload_limits={"telegram": size - 1})  # not this user's platform
    (other,) = await export(service, uid)
    assert other.file.filename.endswith(".json")


async def test_an_export_too_large_even_zipped_comes_in_parts_that_each_fit(
    service: Service, store: FakeStore, deps: Deps, clock: FakeClock
) -> None:
    uid = (await service.user_for("discord", "hoarder", "zh")).id
    await seed(store, uid, 60, noise, clock.now())  # about 0.5 MB that zip cannot shrink much
    (whole,) = await export(service, uid)
    full = json.loads(whole.file.data)
    limit = 120_000
    deps.limits = dataclasses.replace(deps.limits, upload_limits={"discord": limit})
    replies = await export(service, uid)
    assert len(replies) >= 4 and all(len(r.file.data) <= limit for r in replies)
    assert "分成" in replies[0].text and f"第 2 部分，共 {len(replies)} 部分" in replies[1].text
    parts = [unzip(r.file.data) for r in replies]
    assert [(p["part"], p["parts"]) for p in parts] == [(n, len(replies)) for n in range(1, len(replies) + 1)]
    assert all(p["user"] == full["user"] and p["identities"] == full["identities"] for p in parts)
    for section in ("cards", "attempts", "personal_questions", "interviews", "review_items", "reminders"):
        assert [x for p in parts for x in p[section]] == full[section], section  # every record once, in order
    names = [r.file.filename for r in replies]
    assert names[0] == f"drill-export-{stamp(clock)}-part1of{len(replies)}.zip" and len(set(names)) == len(names)


def test_packing_holds_when_compression_varies_across_the_export() -> None:
    """The first half compresses 20x and the second hardly at all: the estimate from samples and the retries
    still give parts that all fit, with every record once and in order."""
    from bot.features.account.export_files import pack

    rng = random.Random(5)
    easy = [{"answer": "warmup " * 1000} for _ in range(100)]
    hard = [{"answer": noise(rng, 7000)} for _ in range(100)]
    data = {"user": {"id": 1}, "identities": [{"platform": "discord", "id": "1"}], "review_items": easy + hard}
    for limit in (150_000, 400_000):
        packed = pack(data, "x", limit)
        assert len(packed.files) > 1 and all(len(f.data) <= limit for f in packed.files)
        parts = [unzip(f.data) for f in packed.files]
        assert [x for p in parts for x in p["review_items"]] == easy + hard
        assert all(p["identities"] == data["identities"] for p in parts)
