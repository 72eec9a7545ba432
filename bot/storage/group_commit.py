"""Queues in front of SQLite's connections: group commit for writes, one warm connection for reads.

SQLite has one writer at a time, and each transaction costs a round of BEGIN IMMEDIATE / COMMIT
through aiosqlite's thread. Under load (a thousand users answering at once) that serial cost
dominates, so write units queue here and a single worker runs whatever is waiting in one
transaction. A unit is a function of the connection; its future resolves only after the commit,
so a caller's write is durable (and visible to readers) when it returns. If any unit fails, the
batch is rolled back and every unit is run again in a transaction of its own, so one bad unit
never fails or loses another's write.

Reads queue the same way (`ReadQueue`): one worker keeps a reader connection checked out while
there is work and runs the waiting reads on it back to back, in autocommit, so each read sees
every write committed before it started. That skips the pool checkout and return per read (a
large share of a read's CPU through SQLAlchemy's async pool), and one connection's thread is as fast
as several here: the event loop, not SQLite, is the bottleneck.

Both run on SQLAlchemy's synchronous engine for the file (engine.py), on the event loop's own thread:
a batch, or a round of reads, is one synchronous call (`SyncConn` below gives the units the `execute`
they await). SQLAlchemy's async API would start a greenlet and make a trip through the driver's
adapter for every statement, which cost as much as the statement itself. A unit is still an
`async def` of the connection, so the same unit runs on PostgreSQL's pooled async connection
unchanged; here it must await nothing but the connection (it is run to completion without the
event loop, `drive` below).

A `Plain` unit is a list of statements whose effect depends on nothing they read: by-key
assignments (UPDATE ... WHERE id = :id) and upserts. It runs as any unit does, except in a
batch: there the same statement from many units runs as one executemany (one call into SQLite for
all their rows), which is most of the writes after a grade (the attempt, the card, the session,
the update marked done). Order is kept where it matters: each table sees one statement shape at a
time, in the callers' order, and any other unit first sees every plain write queued before it.

A `Lookup` is a read of at most one row by its key (a user by id, a card by id, a user by their platform
identity). In a round of reads, the lookups of one statement (and the same other parameters) run as one query,
`WHERE key IN (...)`, and each takes its row from the result: under load most reads are these, from many users at
once, and one query for all of them costs little more than one for each. A round runs between two turns of the
event loop, while no write can commit, so each lookup still sees every write committed before it was asked for.

A `Claim` unit inserts one row unless its key is taken (INSERT ... ON CONFLICT DO NOTHING RETURNING
the key) and returns whether it inserted: an event id seen for the first time. In a batch, the claims
of one statement run as one multi-row insert (SQLAlchemy's "insertmanyvalues"), and each learns its
answer from the keys it returned; a key claimed twice in one batch is new only to its first claim. A claim
may say what to do when its key is taken (`otherwise`: an update redelivered, done or in hand, or left by a
process that died): that unit runs for it alone, after the batch's insert, so the common case (a new update)
still costs one row of one statement.

A `Guarded` unit is a compare-and-set followed by an insert: an UPDATE of at most one row, only if that row is still
as the caller saw it, and when it matched, an INSERT returning the new row's id (an answer opening its attempt: the
session moved from "answering" to "grading", and the attempt stored). In a batch, the guards of one statement run as
one executemany inside a savepoint; when every one matched (the common case: one user's commands never overlap),
the inserts run as one multi-row insert, and SQLite gives a statement's rows increasing ids in the order of its
rows, so the ids sorted are the units' ids in order. When any guard did not match, the savepoint is rolled back and
each unit runs alone, as it would outside a batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncConnection

log = logging.getLogger(__name__)
T = TypeVar("T")
Unit = Callable[[AsyncConnection], Awaitable[Any]]


Statement = tuple[Any, dict[str, Any]]  # an executable DML statement and one row of its parameters


class Plain:
    """A unit of statements whose effect depends on nothing they read (see above)."""

    __slots__ = ("statements",)

    def __init__(self, statements: list[Statement]) -> None:
        self.statements = statements

    async def __call__(self, conn: AsyncConnection) -> None:
        for statement, params in self.statements:
            await conn.execute(statement, params)


class Claim:
    """A unit inserting one row unless its key is taken: True when it inserted (see above). `statement` is an
    INSERT ... ON CONFLICT DO NOTHING RETURNING <the key column>; `key` is that column's value in `params`.

    With `otherwise`, a claim that finds its key taken is not simply False: `otherwise` (a unit) runs then, in the
    same transaction, and says what it is, and an inserted row is `won` (bot/storage/users.py begin_event: an update
    claimed anew, or one already done or in hand, or a stale one taken over). Alone, such a claim is `otherwise`
    itself, which must insert the row when the key is free and return `won` then."""

    __slots__ = ("key", "otherwise", "params", "statement", "won")

    def __init__(
        self, statement: Any, params: dict[str, Any], key: Any, won: Any = True, otherwise: Unit | None = None
    ) -> None:
        self.statement, self.params, self.key = statement, params, key
        self.won, self.otherwise = won, otherwise

    async def __call__(self, conn: AsyncConnection) -> Any:
        if self.otherwise is not None:
            return await self.otherwise(conn)
        return (await conn.execute(self.statement, self.params)).first() is not None


class Guarded:
    """A compare-and-set, then an insert (see above): `guard` (an UPDATE matching at most one row) with `guard_params`;
    when it matched, `insert` (an INSERT ... RETURNING the new id, one column) with `values`, and the unit returns
    that id; None when the guard matched nothing (the row had changed), and nothing is inserted."""

    __slots__ = ("guard", "guard_params", "insert", "values")

    def __init__(self, guard: Any, guard_params: dict[str, Any], insert: Any, values: dict[str, Any]) -> None:
        self.guard, self.guard_params, self.insert, self.values = guard, guard_params, insert, values

    async def __call__(self, conn: AsyncConnection) -> int | None:
        if (await conn.execute(self.guard, self.guard_params)).rowcount != 1:
            return None
        return int((await conn.execute(self.insert, self.values)).scalar_one())


class Keyed:
    """A statement reading at most one row by a key column, in both forms: `one` for one key (`key == :<param>`), and
    `many` for a list of keys (`key IN :_keys`, with the key as a column `_key` to tell the rows apart). `base` is the
    statement without the key's condition; the key column must be unique among its rows."""

    __slots__ = ("many", "one", "param")

    def __init__(self, base: Any, key: Any, param: str) -> None:
        self.param = param
        self.one = base.where(key == sa.bindparam(param))
        self.many = base.add_columns(key.label("_key")).where(key.in_(sa.bindparam("_keys", expanding=True)))


def _row(row: Any) -> dict[str, Any]:
    return dict(row._mapping)


class Lookup:
    """A read unit: the row of `keyed` whose key is `params[keyed.param]` as a dict, or None (see above)."""

    __slots__ = ("keyed", "params")

    def __init__(self, keyed: Keyed, params: dict[str, Any]) -> None:
        self.keyed, self.params = keyed, params

    async def __call__(self, conn: AsyncConnection) -> dict[str, Any] | None:
        row = (await conn.execute(self.keyed.one, self.params)).first()
        return _row(row) if row is not None else None

    def group(self) -> tuple[Any, tuple[tuple[str, Any], ...]]:
        """What lookups must share to run as one query: the statement and every parameter but the key."""
        key = self.keyed.param
        return self.keyed.many, tuple(sorted((k, v) for k, v in self.params.items() if k != key))


class SyncConn:
    """What a unit awaits (`execute`, `exec_driver_sql`, `run_sync`), on a synchronous connection: the call
    completes before it returns, so awaiting it never yields to the event loop."""

    def __init__(self, conn: Connection) -> None:
        self.sync_connection = conn

    async def execute(self, statement: Any, parameters: Any = None, **kwargs: Any) -> Any:
        return self.sync_connection.execute(statement, parameters, **kwargs)

    async def exec_driver_sql(self, statement: str, parameters: Any = None, **kwargs: Any) -> Any:
        return self.sync_connection.exec_driver_sql(statement, parameters, **kwargs)

    async def run_sync(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return fn(self.sync_connection, *args, **kwargs)

    @property
    def invalidated(self) -> bool:
        return self.sync_connection.invalidated


def drive(conn: Connection, unit: Unit) -> Any:
    """Run an async unit to completion on a synchronous connection."""
    coro = unit(SyncConn(conn))  # type: ignore[arg-type]  # SyncConn has the part of AsyncConnection units use
    try:
        coro.send(None)  # type: ignore[attr-defined]
    except StopIteration as done:
        return done.value
    coro.close()  # type: ignore[attr-defined]
    raise RuntimeError("a storage unit awaited something other than its connection")


class _UnitQueue:
    """Units wait in order; one worker task runs them while any are waiting, then ends."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine  # synchronous: each batch runs in one call on the event loop's thread
        self._pending: deque[tuple[Unit, asyncio.Future[Any]]] = deque()
        self._worker: asyncio.Task[None] | None = None

    async def run(self, unit: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((unit, future))
        if self._worker is None or self._worker.done():  # a worker that is not done re-checks the queue
            self._worker = loop.create_task(self._drain())
        # A caller cancelled while it waits cancels only its future: the unit stays queued and runs (the worker
        # never sets a result on a done future), so a write that was asked for is made either way.
        return await future  # type: ignore[no-any-return]

    async def _drain(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        """Wait for the units already queued."""
        if self._worker is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None


class WriteBatcher(_UnitQueue):
    """Writes group-committed (see above). After a commit, the batch's callers are woken `wake` at a time, with a
    turn of the loop between: each one woken runs its next step (render a reply, send it, queue its next read) in
    the loop's next turn, so waking a batch of 200 at once would make that one turn 200 steps long, and every other
    task (a /help, a timer) would wait behind all of them."""

    def __init__(self, engine: Engine, max_batch: int = 200, wake: int = 32) -> None:
        super().__init__(engine)
        self.max_batch = max_batch
        self.wake = wake

    async def _drain(self) -> None:
        while self._pending:
            batch = [self._pending.popleft() for _ in range(min(self.max_batch, len(self._pending)))]
            await self._commit(batch)
            await asyncio.sleep(0)  # a batch runs on the loop's thread: let the loop turn between batches

    async def _commit(self, batch: list[tuple[Unit, asyncio.Future[Any]]]) -> None:
        try:
            with self.engine.begin() as conn:
                results = _drive_all(conn, [unit for unit, _ in batch])
        except Exception:
            if len(batch) > 1:
                log.debug("a batch of %d writes failed; running them one by one", len(batch))
            for unit, future in batch:
                await self._alone(unit, future)
            return
        for n, ((_, future), result) in enumerate(zip(batch, results, strict=True)):
            if n and n % self.wake == 0:
                await asyncio.sleep(0)  # those woken so far take their turn first
            if not future.done():
                future.set_result(result)

    async def _alone(self, unit: Unit, future: asyncio.Future[Any]) -> None:
        try:
            with self.engine.begin() as conn:
                result = drive(conn, unit)
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(result)


class ReadQueue(_UnitQueue):
    """Reads run one after another on a connection held while reads are waiting (see above), at most
    `max_slice` of them before the loop gets a turn (they run on its thread: a thousand reads at once in one go
    would stall it past 100 ms)."""

    def __init__(self, engine: Engine, max_slice: int = 64) -> None:
        super().__init__(engine)
        self.max_slice = max_slice

    async def _drain(self) -> None:
        while self._pending:
            try:
                with self.engine.connect() as conn:
                    while self._read_all(conn):
                        await asyncio.sleep(0)  # the connection stays checked out for the rest
            except Exception:  # could not connect (or close): fail what waits, never hang it
                log.exception("reader connection failed")
                while self._pending:
                    _, future = self._pending.popleft()
                    if not future.done():
                        future.set_exception(RuntimeError("the database reader is unavailable"))

    def _read_all(self, conn: Connection) -> bool:
        """Up to `max_slice` waiting reads, lookups of one statement together (see above); True when more wait on
        this connection, False when none does or the connection broke."""
        units = [self._pending.popleft() for _ in range(min(self.max_slice, len(self._pending)))]
        try:
            return self._read_these(conn, units)
        except BaseException:  # never leave a caller waiting: what is unanswered goes back to the queue's front
            self._pending.extendleft(reversed([(u, f) for u, f in units if not f.done()]))
            raise

    def _read_these(self, conn: Connection, units: list[tuple[Unit, asyncio.Future[Any]]]) -> bool:
        groups: dict[Any, list[tuple[Lookup, asyncio.Future[Any]]]] = {}
        alone: list[tuple[Unit, asyncio.Future[Any]]] = []
        for unit, future in units:
            try:
                group = unit.group() if isinstance(unit, Lookup) else None
                if group is not None:
                    groups.setdefault(group, []).append((unit, future))  # type: ignore[arg-type]
                    continue
            except TypeError:  # a parameter that cannot be a key (a list, a dict): this lookup runs alone
                pass
            alone.append((unit, future))
        for (statement, shared), lookups in groups.items():
            if len(lookups) == 1:
                alone.extend(lookups)
            elif not _look_up_together(conn, statement, dict(shared), lookups):
                alone.extend(lookups)  # the query failed: each alone, so an error reaches only its own caller
        for n, (unit, future) in enumerate(alone):
            try:
                result = drive(conn, unit)
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
                if conn.invalidated:
                    self._pending.extendleft(reversed(alone[n + 1 :]))  # the rest wait for the next connection
                    return False
                continue
            if not future.done():
                future.set_result(result)
        return bool(self._pending)


def _look_up_together(
    conn: Connection, statement: Any, shared: dict[str, Any], lookups: list[tuple[Lookup, asyncio.Future[Any]]]
) -> bool:
    """The lookups' rows in one query, each future given its own copy of its row (or None); False when the query
    failed (nothing is set then)."""
    param = lookups[0][0].keyed.param
    try:
        keys = list(dict.fromkeys(unit.params[param] for unit, _ in lookups))
        rows = conn.execute(statement, {**shared, "_keys": keys}).all()
    except Exception:
        log.debug("a round of %d lookups failed; running them one by one", len(lookups), exc_info=True)
        return False
    found: dict[Any, dict[str, Any]] = {}
    for row in rows:
        values = _row(row)
        found[values.pop("_key")] = values
    for unit, future in lookups:
        its = found.get(unit.params[param])
        if not future.done():
            future.set_result(dict(its) if its is not None else None)
    return True


def _drive_all(conn: Connection, units: list[Unit]) -> list[Any]:
    """A batch's units in order; plain ones gathered into one executemany per statement, claims into one insert
    per statement (see above)."""
    results: list[Any] = [None] * len(units)
    rows: dict[tuple[Any, tuple[str, ...]], list[dict[str, Any]]] = {}  # statement shape -> rows, in order
    claims: dict[Any, list[tuple[int, Claim]]] = {}  # statement -> its claims, in order
    guarded: dict[tuple[Any, Any], list[tuple[int, Guarded]]] = {}  # (guard, insert) -> its units, in order
    shape_of: dict[Any, tuple[Any, tuple[str, ...]]] = {}  # table -> the one statement shape gathered for it

    def flush() -> None:
        for (statement, _), params in rows.items():
            conn.execute(statement, params if len(params) > 1 else params[0])
        for statement, waiting in claims.items():
            taken = {row[0] for row in conn.execute(statement, [claim.params for _, claim in waiting])}
            for index, claim in waiting:
                if claim.key in taken:
                    results[index] = claim.won
                    taken.discard(claim.key)  # the same key again in this batch: not new to that claim
                else:
                    results[index] = False if claim.otherwise is None else drive(conn, claim.otherwise)
        for (guard, insert), waiting in guarded.items():
            for (index, _), result in zip(waiting, _guard_together(conn, guard, insert, waiting), strict=True):
                results[index] = result
        rows.clear()
        claims.clear()
        guarded.clear()
        shape_of.clear()

    def gather(table: Any, shape: tuple[Any, tuple[str, ...]]) -> None:
        if shape_of.setdefault(table, shape) != shape:
            flush()  # another statement on that table: the ones before it go first
            shape_of[table] = shape

    for index, unit in enumerate(units):
        if isinstance(unit, Claim):
            gather(unit.statement.table, (unit.statement, ("<claim>",)))
            claims.setdefault(unit.statement, []).append((index, unit))
        elif isinstance(unit, Guarded):
            gather(unit.guard.table, (unit.guard, ("<guard>",)))
            gather(unit.insert.table, (unit.insert, ("<guarded insert>",)))
            guarded.setdefault((unit.guard, unit.insert), []).append((index, unit))
        elif isinstance(unit, Plain):
            for statement, params in unit.statements:
                shape = (statement, tuple(sorted(params)))
                gather(statement.table, shape)
                rows.setdefault(shape, []).append(params)
        else:
            flush()  # it may read what the plain units before it wrote
            results[index] = drive(conn, unit)
    flush()
    return results


def _guard_together(conn: Connection, guard: Any, insert: Any, waiting: list[tuple[int, Guarded]]) -> list[Any]:
    """The units' results, in order: every guard in one executemany, and when all matched, every insert in one
    statement; otherwise each unit alone, after the guards are undone (see above)."""
    units = [unit for _, unit in waiting]
    if len(units) > 1:
        savepoint = conn.begin_nested()
        if conn.execute(guard, [unit.guard_params for unit in units]).rowcount == len(units):
            savepoint.commit()
            ids = sorted(row[0] for row in conn.execute(insert, [unit.values for unit in units]))
            if len(ids) != len(units):
                raise RuntimeError(f"{len(units)} rows inserted, {len(ids)} ids returned")
            return ids
        savepoint.rollback()
    return [drive(conn, unit) for unit in units]
