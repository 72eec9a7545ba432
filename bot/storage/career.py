"""The career tools' ports on SQL: job descriptions, notebook entries and applications, each a row with the
columns queries need and the rest of the record in a JSON column (as mock sessions are)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.features.career.models import Application, JobDescription, NoteEntry
from bot.storage import tables as T
from bot.storage.base import SqlBase

M = TypeVar("M", bound=BaseModel)

_J, _N, _A = T.job_descriptions.c, T.notebook_entries.c, T.applications.c
_JD_FIXED = {"id", "user_id", "active_until", "created_at"}
_NOTE_FIXED = {"id", "user_id", "question_id", "version", "best", "created_at"}
_APP_FIXED = {"id", "user_id", "company", "stage", "created_at", "updated_at"}


def _record(model: type[M], fixed: set[str], row: dict[str, Any]) -> M:
    return model.model_validate({**row["data"], **{k: row[k] for k in fixed}})


def _data(record: BaseModel, fixed: set[str]) -> dict[str, Any]:
    return record.model_dump(mode="json", exclude=fixed)


def _by_user(table: sa.Table, *order: sa.ColumnElement[Any]) -> sa.Select[Any]:
    return sa.select(table).where(table.c.user_id == sa.bindparam("user_id")).order_by(*order)


def _by_id(table: sa.Table) -> sa.Select[Any]:
    return sa.select(table).where(table.c.id == sa.bindparam("id"))


def _count(table: sa.Table) -> sa.Select[Any]:
    return sa.select(sa.func.count()).select_from(table).where(table.c.user_id == sa.bindparam("user_id"))


class _Rows(SqlBase):
    async def _update(self, table: sa.Table, row_id: int, values: dict[str, Any]) -> None:
        async def _unit(conn: AsyncConnection) -> None:
            await conn.execute(table.update().where(table.c.id == row_id).values(**values))

        await self.engines.write(_unit)

    async def _delete_own(self, table: sa.Table, user_id: int, row_id: int) -> bool:
        async def _unit(conn: AsyncConnection) -> bool:
            done = await conn.execute(table.delete().where(table.c.id == row_id, table.c.user_id == user_id))
            return bool(done.rowcount)

        return await self.engines.write(_unit)


_ACTIVE_JD = (  # built once: /drill and the daily push read it whenever they pick a new question
    _by_user(T.job_descriptions, _J.active_until.desc()).where(_J.active_until > sa.bindparam("now")).limit(1)
)


class SqlJobs(_Rows):
    """Mixed into SqlStore: the JobsPort (bot/features/jd/ports.py)."""

    async def add_jd(self, jd: JobDescription) -> JobDescription:
        values = {
            "user_id": jd.user_id,
            "data": _data(jd, _JD_FIXED),
            "active_until": None,
            "created_at": jd.created_at,
        }
        new_id = await self._insert(T.job_descriptions, values)
        return jd.model_copy(update={"id": new_id, "active_until": None})

    async def get_jd(self, jd_id: int) -> JobDescription | None:
        found = await self._one(_by_id(T.job_descriptions), {"id": jd_id})
        return _record(JobDescription, _JD_FIXED, found) if found else None

    async def list_jds(self, user_id: int) -> list[JobDescription]:
        rows = await self._all(_by_user(T.job_descriptions, _J.created_at, _J.id), {"user_id": user_id})
        return [_record(JobDescription, _JD_FIXED, r) for r in rows]

    async def save_jd(self, jd: JobDescription) -> None:
        await self._update(T.job_descriptions, jd.id, {"data": _data(jd, _JD_FIXED)})

    async def activate_jd(self, user_id: int, jd_id: int | None, until: datetime | None) -> bool:
        async def _unit(conn: AsyncConnection) -> bool:
            if jd_id is not None:
                mine = sa.select(_J.id).where(_J.id == jd_id, _J.user_id == user_id)
                if (await conn.execute(mine)).first() is None:
                    return False
            others = T.job_descriptions.update().where(_J.user_id == user_id, _J.active_until.is_not(None))
            await conn.execute(others.values(active_until=None))
            if jd_id is not None:
                await conn.execute(T.job_descriptions.update().where(_J.id == jd_id).values(active_until=until))
            return True

        return await self.engines.write(_unit)

    async def active_jd(self, user_id: int, now: datetime) -> JobDescription | None:
        found = await self._one(_ACTIVE_JD, {"user_id": user_id, "now": now})
        return _record(JobDescription, _JD_FIXED, found) if found else None

    async def delete_jd(self, user_id: int, jd_id: int) -> bool:
        return await self._delete_own(T.job_descriptions, user_id, jd_id)


class SqlNotebook(_Rows):
    """Mixed into SqlStore: the NotebookPort; the unique (user, question, version) index makes the
    next version number safe across processes (a clash is retried)."""

    async def add_note(self, entry: NoteEntry) -> NoteEntry:
        async def _unit(conn: AsyncConnection) -> tuple[int, int]:
            last = sa.select(sa.func.max(_N.version)).where(
                _N.user_id == entry.user_id, _N.question_id == entry.question_id
            )
            version = int((await conn.execute(last)).scalar_one() or 0) + 1
            values = {"user_id": entry.user_id, "question_id": entry.question_id, "version": version,
                      "best": False, "data": _data(entry, _NOTE_FIXED), "created_at": entry.created_at}  # fmt: skip
            result = await conn.execute(T.notebook_entries.insert().returning(_N.id), values)
            return int(result.scalar_one()), version

        for tries in range(3):
            try:
                new_id, version = await self.engines.write(_unit)
                break
            except sa.exc.IntegrityError:  # another process took this version number: take the next
                if tries == 2:
                    raise
        return entry.model_copy(update={"id": new_id, "version": version, "best": False})

    async def get_note(self, note_id: int) -> NoteEntry | None:
        found = await self._one(_by_id(T.notebook_entries), {"id": note_id})
        return _record(NoteEntry, _NOTE_FIXED, found) if found else None

    async def list_notes(self, user_id: int, question_id: str | None = None) -> list[NoteEntry]:
        query = _by_user(T.notebook_entries, _N.question_id, _N.version)
        if question_id is not None:
            query = query.where(_N.question_id == question_id)
        rows = await self._all(query, {"user_id": user_id})
        return [_record(NoteEntry, _NOTE_FIXED, r) for r in rows]

    async def save_note(self, entry: NoteEntry) -> None:
        await self._update(T.notebook_entries, entry.id, {"data": _data(entry, _NOTE_FIXED)})

    async def mark_best(self, user_id: int, note_id: int) -> bool:
        async def _unit(conn: AsyncConnection) -> bool:
            found = (await conn.execute(
                sa.select(_N.question_id).where(_N.id == note_id, _N.user_id == user_id)
            )).first()  # fmt: skip
            if found is None:
                return False
            same = T.notebook_entries.update().where(_N.user_id == user_id, _N.question_id == found[0])
            await conn.execute(same.values(best=_N.id == note_id))
            return True

        return await self.engines.write(_unit)

    async def delete_note(self, user_id: int, note_id: int) -> bool:
        return await self._delete_own(T.notebook_entries, user_id, note_id)

    async def count_notes(self, user_id: int) -> int:
        return await self._scalar(_count(T.notebook_entries), {"user_id": user_id})


class SqlApplications(_Rows):
    """Mixed into SqlStore: the ApplicationsPort."""

    async def add_application(self, app: Application) -> Application:
        values = {"user_id": app.user_id, "company": app.company, "stage": app.stage,
                  "data": _data(app, _APP_FIXED), "created_at": app.created_at, "updated_at": app.updated_at}  # fmt: skip
        return app.model_copy(update={"id": await self._insert(T.applications, values)})

    async def get_application(self, app_id: int) -> Application | None:
        found = await self._one(_by_id(T.applications), {"id": app_id})
        return _record(Application, _APP_FIXED, found) if found else None

    async def list_applications(self, user_id: int) -> list[Application]:
        rows = await self._all(_by_user(T.applications, _A.created_at, _A.id), {"user_id": user_id})
        return [_record(Application, _APP_FIXED, r) for r in rows]

    async def save_application(self, app: Application) -> None:
        values = {"company": app.company, "stage": app.stage, "updated_at": app.updated_at,
                  "data": _data(app, _APP_FIXED)}  # fmt: skip
        await self._update(T.applications, app.id, values)

    async def delete_application(self, user_id: int, app_id: int) -> bool:
        return await self._delete_own(T.applications, user_id, app_id)

    async def count_applications(self, user_id: int) -> int:
        return await self._scalar(_count(T.applications), {"user_id": user_id})
