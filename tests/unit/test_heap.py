"""bot/heap.py: after start-up the heap is frozen and young collections run less often."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import heap


@pytest.fixture
def gc_restored() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settle_freezes_what_start_up_loaded_and_raises_only_the_young_threshold(gc_restored: None) -> None:
    kept = [object() for _ in range(1000)]  # stands in for the bank and the models
    _, middle, old = gc.get_threshold()
    heap.settle()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (heap.YOUNG_THRESHOLD, middle, old)
    assert heap.YOUNG_THRESHOLD > 700  # CPython's default
