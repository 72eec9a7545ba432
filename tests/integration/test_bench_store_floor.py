"""The store-before-grade floor of the load benches (bench/store_floor.py) does what its figures claim."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bench.store_floor import StoreFloor


async def test_it_stores_each_update_once_and_then_its_grade(tmp_path: Path) -> None:
    floor = await StoreFloor(tmp_path / "floor.db").open()
    try:
        first = await floor.store("update-1", "42", "clip at 1.0")
        second = await floor.store("update-2", "42", "warm up")
        assert first is not None and second is not None and first != second
        assert await floor.store("update-1", "42", "clip at 1.0") is None  # a redelivery is not stored again
        assert await floor.stored() == (2, 0)
        await floor.grade(first, 50)
        assert await floor.stored() == (2, 1)
    finally:
        await floor.close()
    with sqlite3.connect(tmp_path / "floor.db") as db:  # on disk, in WAL as the bot's file
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT user, answer, score FROM answers ORDER BY id").fetchall() == [
            ("42", "clip at 1.0", 50),
            ("42", "warm up", None),
        ]
