"""The SQLite engine's fast paths: the store's statements run on a synchronous connection on the event loop's
thread, writes group-committed and reads queued on one connection."""

from __future__ import annotations

import asyncio
import itertools
import shutil
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import greenlet
import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.engine import make_engines
from bot.storage.group_commit import Claim, Guarded, Keyed, Lookup, Plain

NOTES = sa.Table(
    "notes",
    sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(20), unique=True, nullable=False),
    sa.Column("body", sa.JSON, nullable=False),
)


def add_note(key: str):  # type: ignore[no-untyped-def]
    """A write unit that inserts a note under `key` and returns the key."""

    async def unit(conn: AsyncConnection) -> str:
        await conn.execute(NOTES.insert(), {"key": key, "body": {}})
        return key

    return unit


async def engines_with_notes(tmp_path: Path):  # type: ignore[no-untyped-def]
    engines = make_engines(f"sqlite+aiosqlite:///{tmp_path / 'fast.db'}")
    async with engines.writer.begin() as conn:
        await conn.run_sync(NOTES.metadata.create_all)
    return engines


async def test_queued_statements_run_on_the_event_loops_thread_with_no_greenlet_or_thread_hop(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)
    assert engines.batcher is not None and engines.read_queue is not None
    seen: list[tuple[str, int, bool]] = []

    for name, engine in (("write", engines.batcher.engine), ("read", engines.read_queue.engine)):
        assert engine.dialect.driver == "pysqlite"  # synchronous: no adapter awaiting a driver per statement

        @sa.event.listens_for(engine, "before_cursor_execute")
        def _where(*_args: Any, name: str = name) -> None:
            seen.append((name, threading.get_ident(), greenlet.getcurrent().parent is None))

    async def add(conn: AsyncConnection) -> None:
        await conn.execute(NOTES.insert(), {"key": "a", "body": {}})

    async def count(conn: AsyncConnection) -> int:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(NOTES))).scalar_one())

    await engines.write(add)
    assert await engines.read(count) == 1
    here = threading.get_ident()
    assert ("write", here, True) in seen and ("read", here, True) in seen
    assert {(thread, top) for _, thread, top in seen} == {(here, True)}  # the loop's thread, its top greenlet
    await engines.dispose()


async def test_the_queues_connections_use_wal_foreign_keys_and_immediate_write_transactions(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)
    assert engines.batcher is not None and engines.read_queue is not None
    statements: list[str] = []
    sa.event.listen(engines.batcher.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))

    async def pragmas(conn: AsyncConnection) -> tuple[Any, ...]:
        return (
            (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar(),
            (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar(),
        )

    assert await engines.read(pragmas) == ("wal", 1)
    assert await engines.write(pragmas) == ("wal", 1)
    assert statements[0] == "BEGIN IMMEDIATE"  # a write transaction takes the lock first: no upgrade to fail
    await engines.dispose()


async def test_rows_rowcounts_returning_and_errors_come_through(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def write(conn: AsyncConnection) -> tuple[int, int]:
        new_id = (
            await conn.execute(NOTES.insert().returning(NOTES.c.id), {"key": "a", "body": {"x": [1, "二"]}})
        ).scalar_one()
        await conn.execute(NOTES.insert(), [{"key": "b", "body": {}}, {"key": "c", "body": {}}])  # executemany
        changed = (await conn.execute(NOTES.update().where(NOTES.c.key != "a").values(body={"y": 1}))).rowcount
        return new_id, changed

    assert await engines.write(write) == (1, 2)

    async def read(conn: AsyncConnection) -> list[tuple[str, object]]:
        return [(r.key, r.body) for r in (await conn.execute(sa.select(NOTES).order_by(NOTES.c.id))).all()]

    assert await engines.read(read) == [("a", {"x": [1, "二"]}), ("b", {"y": 1}), ("c", {"y": 1})]

    async def duplicate(conn: AsyncConnection) -> None:
        await conn.execute(NOTES.insert(), {"key": "a", "body": {}})

    with pytest.raises(IntegrityError):
        await engines.write(duplicate)
    assert len(await engines.read(read)) == 3  # nothing half-written
    await engines.dispose()


async def test_queued_reads_see_committed_writes_and_one_failure_fails_only_itself(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def count(conn: AsyncConnection) -> int:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(NOTES))).scalar_one())

    async def broken(conn: AsyncConnection) -> int:
        await conn.execute(sa.text("SELECT * FROM no_such_table"))
        return -1

    async def add(key: str):  # type: ignore[no-untyped-def]
        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(NOTES.insert(), {"key": key, "body": {}})

        await engines.write(unit)

    results = await asyncio.gather(
        *(engines.read(broken if i == 3 else count) for i in range(8)), return_exceptions=True
    )
    assert [r if isinstance(r, int) else "error" for r in results] == [0, 0, 0, "error", 0, 0, 0, 0]
    for i in range(3):
        await add(f"k{i}")
        assert await engines.read(count) == i + 1  # a read after a write returns sees it
    await engines.dispose()


async def test_concurrent_writes_share_transactions_and_a_bad_one_fails_alone(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)
    transactions = 0

    @sa.event.listens_for(engines.batcher.engine, "commit")
    def _counted(_conn: object) -> None:
        nonlocal transactions
        transactions += 1

    keys = [f"k{i}" for i in range(50)]
    keys[17] = "k3"  # a duplicate: this write fails, and only this one
    results = await asyncio.gather(*(engines.write(add_note(k)) for k in keys), return_exceptions=True)
    assert [type(r).__name__ for r in results].count("IntegrityError") == 1
    assert isinstance(results[17], IntegrityError)
    assert [r for i, r in enumerate(results) if i != 17] == [k for i, k in enumerate(keys) if i != 17]

    async def stored(conn: AsyncConnection) -> set[str]:
        return set((await conn.execute(sa.select(NOTES.c.key))).scalars())

    assert await engines.read(stored) == set(keys)  # 49 rows, none lost to the bad write

    transactions = 0
    more = [f"m{i}" for i in range(50)]
    assert await asyncio.gather(*(engines.write(add_note(k)) for k in more)) == more
    assert transactions <= 2  # group-committed, not one transaction each
    assert len(await engines.read(stored)) == 99
    await engines.dispose()


async def test_a_write_whose_caller_was_cancelled_is_still_made(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    gone = asyncio.ensure_future(engines.write(add_note("gone")))
    kept = asyncio.ensure_future(engines.write(add_note("kept")))
    await asyncio.sleep(0)  # both are queued
    gone.cancel()
    await kept
    with pytest.raises(asyncio.CancelledError):
        await gone

    async def stored(conn: AsyncConnection) -> set[str]:
        return set((await conn.execute(sa.select(NOTES.c.key))).scalars())

    assert await engines.read(stored) == {"gone", "kept"}
    await engines.dispose()


async def test_a_unit_that_awaits_anything_but_its_connection_fails_alone_with_a_clear_error(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def sleeper(conn: AsyncConnection) -> None:
        await conn.execute(NOTES.insert(), {"key": "slept", "body": {}})
        await asyncio.sleep(0)  # would hold the transaction open across other work

    async def fine(conn: AsyncConnection) -> str:
        await conn.execute(NOTES.insert(), {"key": "fine", "body": {}})
        return "fine"

    results = await asyncio.gather(engines.write(sleeper), engines.write(fine), return_exceptions=True)
    assert isinstance(results[0], RuntimeError) and "awaited something other than its connection" in str(results[0])
    assert results[1] == "fine"

    async def stored(conn: AsyncConnection) -> set[str]:
        return set((await conn.execute(sa.select(NOTES.c.key))).scalars())

    assert await engines.read(stored) == {"fine"}  # the failed unit's insert was rolled back

    async def slow_read(conn: AsyncConnection) -> None:
        await conn.execute(sa.select(NOTES.c.key))
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="awaited something other"):
        await engines.read(slow_read)
    await engines.dispose()


COUNTS = sa.Table(
    "counts",
    NOTES.metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("v", sa.Integer, nullable=False),
    sa.Column("w", sa.Integer, nullable=False, server_default="0"),
)
SET_V = COUNTS.update().where(COUNTS.c.id == sa.bindparam("_id"))


async def test_plain_writes_of_many_callers_run_as_one_executemany_in_their_order(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def seed(conn: AsyncConnection) -> None:
        await conn.execute(COUNTS.insert(), [{"id": 1, "v": 0}, {"id": 2, "v": 0}])

    await engines.write(seed)
    calls: list[tuple[str, bool]] = []

    @sa.event.listens_for(engines.batcher.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, many: bool) -> None:
        calls.append((statement.split()[0], many))

    writes = [Plain([(SET_V, {"_id": 1 + i % 2, "v": i})]) for i in range(40)]
    assert await asyncio.gather(*(engines.write(w) for w in writes)) == [None] * 40
    assert [c for c in calls if c[0] == "UPDATE"] == [("UPDATE", True)]  # forty rows, one call into SQLite

    async def values(conn: AsyncConnection) -> list[int]:
        return list((await conn.execute(sa.select(COUNTS.c.v).order_by(COUNTS.c.id))).scalars())

    assert await engines.read(values) == [38, 39]  # the last write of each row wins, as one by one
    await engines.dispose()


async def test_plain_writes_keep_their_order_on_a_table_when_the_statement_changes(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def seed(conn: AsyncConnection) -> None:
        await conn.execute(COUNTS.insert(), {"id": 1, "v": 0})

    await engines.write(seed)
    sequence = [
        Plain([(SET_V, {"_id": 1, "v": 1})]),
        Plain([(SET_V, {"_id": 1, "v": 2, "w": 2})]),  # another shape (SET v, w) on the same table
        Plain([(SET_V, {"_id": 1, "v": 3})]),  # the first shape again: it must not join the first group
    ]
    await asyncio.gather(*(engines.write(p) for p in sequence))

    async def row(conn: AsyncConnection) -> tuple[int, int]:
        r = (await conn.execute(sa.select(COUNTS.c.v, COUNTS.c.w))).one()
        return int(r.v), int(r.w)

    assert await engines.read(row) == (3, 2)
    await engines.dispose()


async def test_a_unit_after_plain_writes_in_its_batch_sees_them(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def seed(conn: AsyncConnection) -> None:
        await conn.execute(COUNTS.insert(), {"id": 1, "v": 0})

    await engines.write(seed)

    async def read_back(conn: AsyncConnection) -> int:
        return int((await conn.execute(sa.select(COUNTS.c.v))).scalar_one())

    results = await asyncio.gather(engines.write(Plain([(SET_V, {"_id": 1, "v": 7})])), engines.write(read_back))
    assert results == [None, 7]
    await engines.dispose()


async def test_a_failing_plain_write_fails_alone(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)
    add = NOTES.insert()
    results = await asyncio.gather(
        engines.write(Plain([(add, {"key": "a", "body": {}})])),
        engines.write(Plain([(add, {"key": "a", "body": {}})])),  # the same key again: unique
        engines.write(Plain([(add, {"key": "b", "body": {}})])),
        return_exceptions=True,
    )
    assert results[0] is None and isinstance(results[1], IntegrityError) and results[2] is None

    async def keys(conn: AsyncConnection) -> list[str]:
        return list((await conn.execute(sa.select(NOTES.c.key).order_by(NOTES.c.key))).scalars())

    assert await engines.read(keys) == ["a", "b"]
    await engines.dispose()


CLAIM_NOTE = sqlite.insert(NOTES).on_conflict_do_nothing(index_elements=["key"]).returning(NOTES.c.key)
DROP_NOTE = NOTES.delete().where(NOTES.c.key == sa.bindparam("_key"))


def claim(key: str) -> Claim:
    params = {"key": key, "body": {}}
    return Claim(CLAIM_NOTE, params, key)


async def test_the_claims_of_a_batch_run_as_one_insert_and_each_learns_whether_it_was_first(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)
    assert await engines.write(claim("taken")) is True
    assert await engines.write(claim("taken")) is False  # alone, as a claim out of a batch runs
    calls: list[str] = []

    @sa.event.listens_for(engines.batcher.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, _many: bool) -> None:
        calls.append(statement.split()[0])

    keys = ["a", "taken", "b", "a", "c"]  # "a" twice: new only to its first claim
    assert await asyncio.gather(*(engines.write(claim(k)) for k in keys)) == [True, False, True, False, True]
    assert calls.count("INSERT") == 1

    async def stored(conn: AsyncConnection) -> list[str]:
        return list((await conn.execute(sa.select(NOTES.c.key).order_by(NOTES.c.key))).scalars())

    assert await engines.read(stored) == ["a", "b", "c", "taken"]
    await engines.dispose()


def claim_or_look(key: str, ran: list[str]) -> Claim:
    """A claim that, when its key is taken, reads the note's body instead (its `otherwise`); "new" when it inserted."""

    async def otherwise(conn: AsyncConnection) -> str:
        ran.append(key)
        inserted = (await conn.execute(CLAIM_NOTE, {"key": key, "body": {"n": 0}})).first()
        if inserted is not None:
            return "new"
        body = (await conn.execute(sa.select(NOTES.c.body).where(NOTES.c.key == key))).scalar_one()
        return f"had {body}"

    return Claim(CLAIM_NOTE, {"key": key, "body": {"n": 0}}, key, won="new", otherwise=otherwise)


async def test_a_claim_whose_key_is_taken_runs_its_otherwise_and_a_new_one_only_joins_the_insert(
    tmp_path: Path,
) -> None:
    engines = await engines_with_notes(tmp_path)
    ran: list[str] = []
    assert await engines.write(claim_or_look("old", ran)) == "new" and ran == []  # a batch of one: its insert
    async with engines.writer.begin() as conn:  # off the batcher (PostgreSQL's way): `otherwise` itself
        assert await claim_or_look("alone", ran)(conn) == "new" and ran == ["alone"]
        assert await claim_or_look("alone", ran)(conn) == "had {'n': 0}"
    ran.clear()
    inserts: list[str] = []

    @sa.event.listens_for(engines.batcher.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, _many: bool) -> None:
        inserts.append(statement.split()[0])

    keys = ["a", "old", "b", "a"]  # "old" is taken; "a" twice: the second finds it taken in the same batch
    results = await asyncio.gather(*(engines.write(claim_or_look(k, ran)) for k in keys))
    assert results == ["new", "had {'n': 0}", "new", "had {'n': 0}"]
    assert sorted(ran) == ["a", "old"]  # only the taken ones ran their `otherwise`
    assert inserts.count("INSERT") == 1 + 2  # the batch's one insert, and one in each `otherwise`
    await engines.dispose()


MOVE_COUNT = COUNTS.update().where(COUNTS.c.id == sa.bindparam("_id"), COUNTS.c.v == sa.bindparam("was"))
NOTE_ID = NOTES.insert().returning(NOTES.c.id)


def move_then_note(count_id: int, was: int, key: str) -> Guarded:
    """Count `count_id` from `was` to `was + 1`, only if it is still `was`; then a note `key`, its id returned."""
    return Guarded(MOVE_COUNT, {"_id": count_id, "was": was, "v": was + 1}, NOTE_ID, {"key": key, "body": {}})


async def seeded_counts(tmp_path: Path, n: int):  # type: ignore[no-untyped-def]
    engines = await engines_with_notes(tmp_path)

    async def seed(conn: AsyncConnection) -> None:
        await conn.execute(COUNTS.insert(), [{"id": i, "v": 0} for i in range(1, n + 1)])
        await conn.execute(NOTES.insert(), [{"key": "first", "body": {}}])  # the notes' ids start at 2

    await engines.write(seed)
    return engines


async def notes_by_id(engines: Any) -> dict[int, str]:
    async def read(conn: AsyncConnection) -> dict[int, str]:
        return {row.id: row.key for row in await conn.execute(sa.select(NOTES.c.id, NOTES.c.key))}

    return dict(await engines.read(read))


async def counts(engines: Any) -> dict[int, int]:
    async def read(conn: AsyncConnection) -> dict[int, int]:
        return {row.id: row.v for row in await conn.execute(sa.select(COUNTS.c.id, COUNTS.c.v))}

    return dict(await engines.read(read))


async def test_guarded_units_of_a_batch_run_as_one_update_and_one_insert_and_each_gets_its_own_id(
    tmp_path: Path,
) -> None:
    engines = await seeded_counts(tmp_path, 5)
    calls: list[tuple[str, bool]] = []

    @sa.event.listens_for(engines.batcher.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, many: bool) -> None:
        calls.append((statement.split()[0], many))

    units = [move_then_note(i, 0, f"n{i}") for i in (3, 1, 5, 2, 4)]
    ids = await asyncio.gather(*(engines.write(u) for u in units))
    assert ids == [2, 3, 4, 5, 6]  # in the callers' order
    notes = await notes_by_id(engines)
    assert [notes[i] for i in ids] == ["n3", "n1", "n5", "n2", "n4"]  # each id is its own caller's row
    assert await counts(engines) == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
    assert [c for c in calls if c[0] in ("UPDATE", "INSERT")] == [("UPDATE", True), ("INSERT", True)]  # one each
    calls.clear()
    assert await asyncio.gather(engines.write(move_then_note(1, 1, "x")), engines.write(move_then_note(2, 1, "y"))) == [
        7, 8,
    ]  # fmt: skip
    assert [c for c in calls if c[0] in ("UPDATE", "INSERT")] == [("UPDATE", True), ("INSERT", True)]  # two: together
    await engines.dispose()


async def test_a_guard_that_matches_nothing_gets_none_and_the_others_of_its_batch_still_get_their_rows(
    tmp_path: Path,
) -> None:
    engines = await seeded_counts(tmp_path, 3)
    calls: list[str] = []

    @sa.event.listens_for(engines.batcher.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, _many: bool) -> None:
        calls.append(" ".join(statement.split()[:2]))

    @sa.event.listens_for(engines.batcher.engine, "commit")
    def _committed(_conn: object) -> None:
        calls.append("COMMIT")

    assert await engines.write(move_then_note(2, 0, "alone")) == 2  # count 2 is at 1 now
    assert await engines.write(move_then_note(2, 0, "stale")) is None  # alone: no row inserted
    assert "SAVEPOINT" not in " ".join(calls)  # a batch of one runs as itself: no savepoint
    calls.clear()
    units = [move_then_note(1, 0, "a"), move_then_note(2, 0, "b"), move_then_note(3, 0, "c")]  # "b" saw 0: stale
    ids = await asyncio.gather(*(engines.write(u) for u in units))
    assert ids[1] is None and ids[0] is not None and ids[2] is not None
    # the guards together, undone, then each unit alone in the same transaction: one commit
    assert [c for c in calls if c.split()[0] in ("UPDATE", "INSERT", "ROLLBACK", "COMMIT")] == [
        "UPDATE counts", "ROLLBACK TO", "UPDATE counts", "INSERT INTO", "UPDATE counts", "UPDATE counts",
        "INSERT INTO", "COMMIT",
    ]  # fmt: skip
    notes = await notes_by_id(engines)
    assert notes[ids[0]] == "a" and notes[ids[2]] == "c"
    assert sorted(notes.values()) == ["a", "alone", "c", "first"]  # "b" and "stale" inserted nothing
    assert await counts(engines) == {1: 1, 2: 1, 3: 1}  # count 2 moved once: the undone guards are not kept
    await engines.dispose()


async def test_guarded_units_see_the_writes_queued_before_them_and_keep_their_order(tmp_path: Path) -> None:
    engines = await seeded_counts(tmp_path, 2)
    sequence = [
        move_then_note(1, 0, "a"),  # 0 -> 1
        Plain([(COUNTS.update().where(COUNTS.c.id == sa.bindparam("_id")), {"_id": 1, "v": 7})]),
        move_then_note(1, 7, "b"),  # sees the 7 written before it in the same batch
        move_then_note(1, 1, "c"),  # saw 1: stale by now
        move_then_note(2, 0, "d"),
    ]
    results = await asyncio.gather(*(engines.write(u) for u in sequence))
    assert results[1] is None and results[3] is None
    notes = await notes_by_id(engines)
    assert [notes[results[i]] for i in (0, 2, 4)] == ["a", "b", "d"]
    assert await counts(engines) == {1: 8, 2: 1}
    await engines.dispose()


async def test_claims_keep_their_order_with_other_writes_on_their_table(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)
    await engines.write(claim("a"))
    sequence = [claim("a"), Plain([(DROP_NOTE, {"_key": "a"})]), claim("a"), claim("b")]
    assert await asyncio.gather(*(engines.write(u) for u in sequence)) == [False, None, True, True]
    await engines.dispose()


async def test_a_batch_gathers_each_tables_writes_and_a_new_statement_shape_starts_a_new_group(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def seed(conn: AsyncConnection) -> None:
        await conn.execute(COUNTS.insert(), [{"id": 1, "v": 0}, {"id": 2, "v": 0}])
        await conn.execute(NOTES.insert(), [{"key": "a", "body": {}}, {"key": "b", "body": {}}])

    await engines.write(seed)
    calls: list[tuple[str, str, bool]] = []

    @sa.event.listens_for(engines.batcher.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, many: bool) -> None:
        words = statement.split()
        calls.append((words[0], words[1] if words[0] == "UPDATE" else "", many))

    set_body = NOTES.update().where(NOTES.c.key == sa.bindparam("_key"))
    writes = [Plain([(SET_V, {"_id": 1 + i % 2, "v": i}), (set_body, {"_key": "ab"[i % 2], "body": {"n": i}})])
              for i in range(10)]  # fmt: skip
    writes += [Plain([(SET_V, {"_id": 1, "v": 100 + i, "w": i})]) for i in range(5)]  # another shape on counts
    assert await asyncio.gather(*(engines.write(w) for w in writes)) == [None] * 15
    assert [c for c in calls if c[0] == "UPDATE"] == [
        ("UPDATE", "counts", True), ("UPDATE", "notes", True),  # two tables, interleaved: one call each
        ("UPDATE", "counts", True),  # the new shape: its five rows in one call after the first group
    ]  # fmt: skip
    assert calls.count(("BEGIN", "", False)) == 1  # one transaction: nothing failed and ran again alone

    async def state(conn: AsyncConnection) -> list[Any]:
        counts = (await conn.execute(sa.select(COUNTS.c.v, COUNTS.c.w).order_by(COUNTS.c.id))).all()
        bodies = (await conn.execute(sa.select(NOTES.c.body).order_by(NOTES.c.key))).scalars().all()
        return [tuple(r) for r in counts] + list(bodies)

    assert await engines.read(state) == [(104, 4), (9, 0), {"n": 8}, {"n": 9}]
    await engines.dispose()


async def test_one_plain_write_in_a_batch_commits_with_it(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    async def seed(conn: AsyncConnection) -> None:
        await conn.execute(COUNTS.insert(), {"id": 1, "v": 0})

    await engines.write(seed)
    begins: list[str] = []

    @sa.event.listens_for(engines.batcher.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, _many: bool) -> None:
        if statement.startswith("BEGIN"):
            begins.append(statement)

    async def read_back(conn: AsyncConnection) -> int:
        return int((await conn.execute(sa.select(COUNTS.c.v))).scalar_one())

    results = await asyncio.gather(engines.write(Plain([(SET_V, {"_id": 1, "v": 5})])), engines.write(read_back))
    assert results == [None, 5] and len(begins) == 1  # one batch, not run again unit by unit
    await engines.dispose()


async def test_waiting_reads_fail_clearly_when_the_reader_cannot_connect(tmp_path: Path) -> None:
    engines = make_engines(f"sqlite+aiosqlite:///{tmp_path / 'gone' / 'x.db'}")
    assert engines.read_queue is not None
    async with engines.writer.begin() as conn:
        await conn.run_sync(NOTES.metadata.create_all)

    async def count(conn: AsyncConnection) -> int:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(NOTES))).scalar_one())

    assert await engines.read(count) == 0
    engines.read_queue.engine.dispose()  # its connection closed: the next read opens another
    shutil.rmtree(tmp_path / "gone")  # which cannot open the file

    results = await asyncio.gather(*(engines.read(count) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(r, RuntimeError) and str(r) == "the database reader is unavailable" for r in results)
    await engines.dispose()


async def test_a_synchronous_write_runs_after_the_writes_queued_before_it(tmp_path: Path) -> None:
    engines = await engines_with_notes(tmp_path)

    def keys_then_add(conn: sa.Connection, key: str) -> list[str]:
        found = [row.key for row in conn.execute(sa.select(NOTES.c.key).order_by(NOTES.c.id))]
        conn.execute(NOTES.insert(), {"key": key, "body": {}})
        return found

    queued = [asyncio.ensure_future(engines.write(add_note(k))) for k in ("a", "b")]
    await asyncio.sleep(0)  # both are queued; the worker that will commit them has not run yet
    assert await engines.run_sync_write(keys_then_add, "c") == ["a", "b"]
    await asyncio.gather(*queued)
    statements: list[str] = []
    for engine in engines.sync_engines():
        sa.event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))

    async def keys(conn: AsyncConnection) -> list[str]:
        return [row.key for row in await conn.execute(sa.select(NOTES.c.key).order_by(NOTES.c.id))]

    assert await engines.read(keys) == ["a", "b", "c"]
    assert [s for s in statements if s.startswith("SELECT")] != []  # every engine a statement runs on is listed
    await engines.dispose()


async def test_a_thousand_queued_statements_let_the_loop_turn_between_slices(tmp_path: Path) -> None:
    """Queued reads run at most 64 to a turn of the event loop and writes 200 to a batch, so a burst of them never
    holds the loop's thread for the whole burst (they run on it)."""
    engines = await engines_with_notes(tmp_path)
    done = {"read": 0, "write": 0}

    def counted(kind: str, unit: Any):  # type: ignore[no-untyped-def]
        async def run(conn: AsyncConnection) -> None:
            await unit(conn)
            done[kind] += 1

        return run

    async def one(conn: AsyncConnection) -> None:
        await conn.execute(sa.select(sa.literal(1)))

    seen: list[tuple[int, int]] = []

    async def watch() -> None:
        while done["read"] < 150 or done["write"] < 450:
            seen.append((done["read"], done["write"]))
            await asyncio.sleep(0)

    watcher = asyncio.create_task(watch())
    await asyncio.gather(
        *(engines.read(counted("read", one)) for _ in range(150)),
        *(engines.write(counted("write", add_note(f"n{i}"))) for i in range(450)),
    )
    await watcher
    reads = sorted({r for r, _ in seen})
    writes = sorted({w for _, w in seen})
    assert max(b - a for a, b in itertools.pairwise(reads)) <= 64 and 64 in reads and 128 in reads
    assert 200 in writes and 400 in writes  # the loop turned after each batch of 200
    await engines.dispose()


async def test_a_committed_batchs_callers_wake_32_to_a_turn_of_the_loop(tmp_path: Path) -> None:
    """Each caller woken runs its next step in the loop's next turn: a batch of 70 wakes 32, then 32, then 6, with a
    turn between, so no one turn runs all 70 steps while a /help or a timer waits behind them."""
    engines = await engines_with_notes(tmp_path)
    turn = 0
    woke_at: list[int] = []

    async def count_turns() -> None:
        nonlocal turn
        while True:
            await asyncio.sleep(0)
            turn += 1

    async def write_then_note(key: str) -> None:
        await engines.write(add_note(key))
        woke_at.append(turn)

    ticker = asyncio.create_task(count_turns())
    await asyncio.gather(*(write_then_note(f"w{i}") for i in range(70)))
    ticker.cancel()
    assert sorted(Counter(woke_at).values(), reverse=True) == [32, 32, 6]
    assert woke_at == sorted(woke_at)  # in their order
    await engines.dispose()


def note_by_key() -> Keyed:
    """Made in each test (not at import), so a change to Keyed's making is seen by the test that uses it."""
    return Keyed(sa.select(NOTES.c.id, NOTES.c.body), NOTES.c.key, "key")


def note_by_key_above() -> Keyed:
    return Keyed(sa.select(NOTES.c.body).where(NOTES.c.id > sa.bindparam("above")), NOTES.c.key, "key")


async def test_lookups_waiting_together_run_as_one_query_and_each_gets_its_own_row(tmp_path: Path) -> None:
    NOTE_BY_KEY, NOTE_BY_KEY_AND_ID = note_by_key(), note_by_key_above()
    engines = await engines_with_notes(tmp_path)
    for n, key in enumerate(["a", "b", "c"]):

        async def add(conn: AsyncConnection, key: str = key, n: int = n) -> None:
            await conn.execute(NOTES.insert(), {"key": key, "body": {"n": n}})

        await engines.write(add)
    selects: list[str] = []

    @sa.event.listens_for(engines.read_queue.engine, "before_cursor_execute")
    def _seen(_c: object, _cur: object, statement: str, _p: object, _ctx: object, _many: bool) -> None:
        selects.append(statement)

    keys = ["c", "a", "zz", "a", "b"]  # "zz" is no note; "a" asked twice
    rows = await asyncio.gather(*(engines.read(Lookup(NOTE_BY_KEY, {"key": k})) for k in keys))
    assert rows == [{"id": 3, "body": {"n": 2}}, {"id": 1, "body": {"n": 0}}, None, {"id": 1, "body": {"n": 0}},
                    {"id": 2, "body": {"n": 1}}]  # fmt: skip
    assert len(selects) == 1 and " IN (" in selects[0]
    rows[1]["body"] = "changed"  # each caller has its own copy: the other "a" is untouched
    assert rows[3] == {"id": 1, "body": {"n": 0}}
    # one lookup alone: the one-key statement, the same row
    selects.clear()
    assert await engines.read(Lookup(NOTE_BY_KEY, {"key": "b"})) == {"id": 2, "body": {"n": 1}}
    assert len(selects) == 1 and " IN (" not in selects[0]
    # the other parameters differ: one query for each value of them, each lookup its own answer
    selects.clear()
    asked = [("a", 0), ("b", 0), ("a", 1), ("c", 1)]
    rows = await asyncio.gather(*(engines.read(Lookup(NOTE_BY_KEY_AND_ID, {"key": k, "above": a})) for k, a in asked))
    assert rows == [{"body": {"n": 0}}, {"body": {"n": 1}}, None, {"body": {"n": 2}}]
    assert len(selects) == 2
    await engines.dispose()


async def test_a_lookup_the_database_refuses_fails_alone_and_its_round_still_answers_the_others(tmp_path: Path) -> None:
    NOTE_BY_KEY = note_by_key()
    engines = await engines_with_notes(tmp_path)

    async def add(conn: AsyncConnection) -> None:
        await conn.execute(NOTES.insert(), {"key": "a", "body": {}})

    await engines.write(add)
    bad = {"not": "a key"}  # the driver cannot bind a dict: the round's one query fails, then each runs alone
    results = await asyncio.gather(
        *(engines.read(Lookup(NOTE_BY_KEY, {"key": k})) for k in ["a", bad, "a", "b"]), return_exceptions=True
    )
    assert results[0] == results[2] == {"id": 1, "body": {}} and results[3] is None
    assert isinstance(results[1], Exception)
    await engines.dispose()


async def test_lookups_run_on_postgresql_and_the_fake_path_alone(tmp_path: Path) -> None:
    """Off the read queue (PostgreSQL's pooled connection, or any caller running the unit itself) a lookup is the
    one-key statement, and a claim its own insert."""
    NOTE_BY_KEY = note_by_key()
    engines = await engines_with_notes(tmp_path)

    async def add(conn: AsyncConnection) -> None:
        await conn.execute(NOTES.insert(), {"key": "a", "body": {"x": 1}})

    await engines.write(add)
    async with engines.reader.connect() as conn:
        assert await Lookup(NOTE_BY_KEY, {"key": "a"})(conn) == {"id": 1, "body": {"x": 1}}
        assert await Lookup(NOTE_BY_KEY, {"key": "b"})(conn) is None
    async with engines.writer.begin() as conn:
        assert await claim("fresh")(conn) is True
        assert await claim("fresh")(conn) is False
    await engines.dispose()
