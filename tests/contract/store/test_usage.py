"""The usage ledgers' contract (issue #34): LLM calls and transcribed seconds count per platform identity, a
deleted user's rows are kept with no user and no kind (so /forget gives no limit back), and housekeeping drops
those rows once they can no longer count."""

from __future__ import annotations

import importlib

import pytest
import sqlalchemy as sa

from bot.kernel.identity import identity_key
from bot.kernel.store_ports import Store
from bot.storage import tables as T
from bot.storage.store import SqlStore
from tests.contract.store.helpers import DAY, HOUR, NOW, new_user


async def test_a_forgotten_users_calls_count_for_the_same_account_and_no_other(store: Store) -> None:
    a, b = await new_user(store, "42"), await new_user(store, "42", platform="discord")
    for _ in range(3):
        await store.record_llm_call(a.id, "grading", 100, NOW)
    await store.record_llm_call(b.id, "grading", 10, NOW)
    await store.delete_user(a.id)
    again = await new_user(store, "42")  # the same Telegram account, a new user
    assert again.id != b.id
    assert await store.count_llm_calls_since(again.id, NOW) == 3
    assert await store.count_llm_calls_since(again.id, NOW + HOUR) == 0
    assert await store.count_llm_calls_since(b.id, NOW) == 1  # the same external id on Discord is another account
    assert await store.llm_tokens_since(NOW) == 310
    await store.record_llm_call(again.id, "grading", 5, NOW + HOUR)
    assert await store.count_llm_calls_since(again.id, NOW) == 4


async def test_transcribed_seconds_count_per_account_and_over_everyone(store: Store) -> None:
    a, b = await new_user(store, "1"), await new_user(store, "2")
    await store.record_transcription(a.id, 120.5, NOW - DAY)
    await store.record_transcription(a.id, 60.25, NOW)
    await store.record_transcription(b.id, 30.0, NOW + HOUR)
    await store.record_transcription(b.id, -4.0, NOW + HOUR)  # a backend's nonsense counts as 0
    assert await store.transcribed_seconds_since(a.id, NOW) == pytest.approx(60.25)
    assert await store.transcribed_seconds_since(a.id, NOW - DAY) == pytest.approx(180.75)
    assert await store.transcribed_seconds_since(b.id, NOW) == pytest.approx(30.0)
    assert await store.all_transcribed_seconds_since(NOW) == pytest.approx(90.25)
    await store.delete_user(a.id)
    again = await new_user(store, "1")
    assert await store.transcribed_seconds_since(again.id, NOW - DAY) == pytest.approx(180.75)
    assert await store.all_transcribed_seconds_since(NOW - DAY) == pytest.approx(210.75)


async def test_housekeeping_drops_only_forgotten_rows_older_than_the_cutoff(store: Store) -> None:
    gone, kept = await new_user(store, "gone"), await new_user(store, "kept")
    for user in (gone, kept):
        await store.record_llm_call(user.id, "grading", 100, NOW - 3 * DAY)
        await store.record_llm_call(user.id, "grading", 10, NOW)
        await store.record_transcription(user.id, 50.0, NOW - 3 * DAY)
        await store.record_transcription(user.id, 5.0, NOW)
    await store.delete_user(gone.id)
    assert await store.forget_usage_before(NOW - 2 * DAY) == 2  # the forgotten user's old call and transcription
    assert await store.forget_usage_before(NOW - 2 * DAY) == 0
    assert await store.llm_tokens_since(NOW - 4 * DAY) == 120  # the kept user's 110, the forgotten user's recent 10
    assert await store.all_transcribed_seconds_since(NOW - 4 * DAY) == pytest.approx(60.0)
    again = await new_user(store, "gone")
    assert await store.count_llm_calls_since(again.id, NOW - DAY) == 1


async def test_a_forgotten_users_rows_keep_no_user_and_no_kind(sql_store: SqlStore) -> None:
    u = await new_user(sql_store, "42")
    await sql_store.record_llm_call(u.id, "rubric", 70, NOW)
    await sql_store.record_transcription(u.id, 12.0, NOW)
    await sql_store.delete_user(u.id)
    key = identity_key("telegram", "42")
    async with sql_store.engines.writer.connect() as conn:
        calls = (await conn.execute(sa.select(T.llm_calls.c.user_id, T.llm_calls.c.kind, T.llm_calls.c.identity))).all()
        heard = (await conn.execute(sa.select(T.transcriptions.c.user_id, T.transcriptions.c.identity))).all()
    assert [tuple(r) for r in calls] == [(None, "", key)] and [tuple(r) for r in heard] == [(None, key)]
    assert len(key) == 32 and int(key, 16) >= 0  # 32 hex digits, not the platform's id


def test_the_migration_keys_identities_as_the_kernel_does() -> None:
    migration = importlib.import_module("bot.storage.migrations.versions.0010_usage_by_identity")
    for platform, external_id in [("telegram", "42"), ("discord", "123456789012345678"), ("console", "local")]:
        assert migration._key(platform, external_id) == identity_key(platform, external_id)
    assert identity_key("telegram", "42") != identity_key("discord", "42")
