"""Regrade claims across replicas: a claim is stamped, and one left by a worker that died is put back in
the queue once stale (fresh claims stay with their worker)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.kernel.models import Attempt, User
from bot.kernel.store_ports import Store

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def _queued(store: Store, n: int) -> list[int]:
    user = await store.get_or_create_user("telegram", "1", User(id=0, created_at=NOW))
    ids = []
    for i in range(n):
        attempt = Attempt(id=0, user_id=user.id, card_id=None, question_id="q", answer=f"a{i}", created_at=NOW)
        saved = await store.add_attempt(attempt.model_copy(update={"status": "regrade"}))
        ids.append(saved.id)
    return ids


async def test_only_stale_regrade_claims_are_put_back(store: Store) -> None:
    old, fresh, queued = await _queued(store, 3)
    assert await store.claim_attempt(old, "regrade", "regrading", NOW)  # its worker died
    assert await store.claim_attempt(fresh, "regrade", "regrading", NOW + timedelta(minutes=9))  # still at it
    assert not await store.claim_attempt(old, "regrade", "regrading", NOW)  # claimed once
    assert await store.requeue_stale_attempts("regrading", "regrade", NOW + timedelta(minutes=5)) == 1
    statuses = {a.id: a.status for a in await store.list_attempts((await store.get_attempt(old)).user_id)}  # type: ignore[union-attr]
    assert statuses == {old: "regrade", fresh: "regrading", queued: "regrade"}
    assert await store.claim_attempt(old, "regrade", "regrading", NOW + timedelta(minutes=5))  # another worker's now
