"""The board's own fields of an application (its number, dated notes, stage history) on the SQL store:
they live in the record's JSON column and read back as stored."""

from __future__ import annotations

from datetime import timedelta

from bot.features.career.models import AppNote
from bot.storage.store import SqlStore
from tests.contract.store.helpers import new_user
from tests.unit.test_apps_attach import T0, app


async def test_numbers_notes_and_history_read_back_from_sql(sql: SqlStore) -> None:
    user = await new_user(sql, "apps-1")
    stored = await sql.add_application(
        app(0, "字节跳动", 0, ("technical", 2, 3)).model_copy(
            update={"user_id": user.id, "number": 7, "note_log": [AppNote(text="内推：李", at=T0)]}
        )
    )
    assert await sql.get_application(stored.id) == stored
    moved = stored.model_copy(
        update={"note_log": [*stored.note_log, AppNote(text="HR call", at=T0 + timedelta(days=4))]}
    )
    await sql.save_application(moved)
    again = await sql.get_application(stored.id)
    assert again is not None and again.number == 7 and [n.text for n in again.note_log] == ["内推：李", "HR call"]
    assert [(c.stage, c.round) for c in again.history] == [("applied", 0), ("technical", 2)]
