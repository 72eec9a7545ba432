"""The per-user rate limit: a burst at once, then a steady rate; one "slow down", then quiet."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.kernel import rate_limit
from bot.kernel.rate_limit import Admission, RateLimiter
from bot.kernel.service import Service
from tests.fakes import FakeClock

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_a_burst_is_admitted_then_one_refusal_is_told_and_the_rest_are_quiet() -> None:
    limiter = RateLimiter(per_minute=30, burst=3)
    assert [limiter.take(1, T0) for _ in range(3)] == [Admission.ADMIT] * 3
    assert limiter.take(1, T0) is Admission.REFUSE_AND_TELL
    assert limiter.take(1, T0) is Admission.REFUSE_QUIETLY
    assert limiter.take(2, T0) is Admission.ADMIT  # another user has a bucket of their own


def test_the_bucket_refills_at_the_per_minute_rate() -> None:
    limiter = RateLimiter(per_minute=30, burst=2)  # one message every 2 s
    limiter.take(1, T0), limiter.take(1, T0)
    assert limiter.take(1, T0) is Admission.REFUSE_AND_TELL
    assert limiter.retry_after(1) == 2
    assert limiter.take(1, T0 + timedelta(seconds=1.9)) is Admission.REFUSE_QUIETLY
    assert limiter.retry_after(1) == 1  # 0.95 of a message back: 0.1 s to go, rounded up to a whole second
    assert limiter.take(1, T0 + timedelta(seconds=2)) is Admission.ADMIT
    assert limiter.take(1, T0 + timedelta(seconds=2)) is Admission.REFUSE_AND_TELL  # told again after an admit
    later = T0 + timedelta(hours=1)
    assert [limiter.take(1, later) for _ in range(3)] == [Admission.ADMIT] * 2 + [Admission.REFUSE_AND_TELL]


def test_zero_per_minute_turns_the_limit_off() -> None:
    limiter = RateLimiter(per_minute=0, burst=1)
    assert all(limiter.take(1, T0) is Admission.ADMIT for _ in range(100))
    assert limiter.retry_after(1) == 0


def test_refilled_buckets_are_dropped_so_memory_stays_bounded() -> None:
    limiter = RateLimiter(per_minute=60, burst=1)
    limiter._prune_at = 4  # as PRUNE_AT, small
    for user in range(4):
        limiter.take(user, T0)  # each bucket now empty
    limiter.take(99, T0 + timedelta(seconds=0.5))  # at the threshold, half a second later: nothing refilled
    assert len(limiter._buckets) == 5
    limiter._prune_at = 5
    limiter.take(100, T0 + timedelta(seconds=1))  # one second on, the first four have refilled
    assert sorted(limiter._buckets) == [99, 100] and limiter._prune_at == rate_limit.PRUNE_AT


async def test_the_service_says_slow_down_in_the_users_language(service: Service, clock: FakeClock) -> None:
    user = await service.user_for("telegram", "42", "zh")
    burst = service.deps.limits.rate_burst
    assert all(service.admit(user, "telegram", "42") is None for _ in range(burst))
    (told,) = service.admit(user, "telegram", "42") or []
    assert "太快" in told.text and "2 秒" in told.text and told.kind == "error"
    assert service.admit(user, "telegram", "42") == []  # the flood gets no more replies
    assert service.admit(user, "telegram", "42", every_time=True) is not None  # ...unless each request needs an answer
    clock.advance(seconds=60 / service.deps.limits.rate_per_minute)
    assert service.admit(user, "telegram", "42") is None


def test_a_burst_of_one_admits_one_and_an_unknown_user_waits_one_second_at_most() -> None:
    limiter = RateLimiter(per_minute=60, burst=1)
    assert [limiter.take(1, T0), limiter.take(1, T0)] == [Admission.ADMIT, Admission.REFUSE_AND_TELL]
    assert limiter.retry_after(2) == 1  # no bucket yet: nothing to wait for beyond the minimum


def test_pruning_keeps_twice_what_is_left_before_it_runs_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rate_limit, "PRUNE_AT", 2)
    limiter = RateLimiter(per_minute=60, burst=1)
    for user in range(3):
        limiter.take(user, T0)  # the third finds two empty buckets: a prune that drops nothing
    assert len(limiter._buckets) == 3 and limiter._prune_at == 2 * 2  # the next prune waits until the count doubles


async def test_the_limit_is_the_accounts_so_a_forget_does_not_refill_it(service: Service) -> None:
    user = await service.user_for("telegram", "42")
    assert all(service.admit(user, "telegram", "42") is None for _ in range(12))
    await service.handle_text(user.id, "/forget")
    await service.handle_action(user.id, "forget:yes")
    fresh = await service.user_for("telegram", "42")
    assert fresh.id != user.id  # a new user for the same account...
    assert service.admit(fresh, "telegram", "42") is not None  # ...with the account's empty bucket
    assert service.admit(fresh, "discord", "42") is None  # the same number on another platform: another account


def test_the_stored_key_of_an_account_is_32_hex_digits_of_its_sha256() -> None:
    from bot.kernel.identity import identity, identity_key

    key = identity_key("telegram", "123")
    assert key == "d6c557eaae88843e4efb99e4a9844700" and len(key) == 32
    assert identity_key("discord", "123") != key and identity("telegram", "123") == "telegram:123"
