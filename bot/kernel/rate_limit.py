"""Per-account rate limit: a token bucket per platform identity ("telegram:123", bot/kernel/identity.py), on the
injected clock. Keyed on the account, not the internal user id, so a /forget (a new user for the same account)
does not refill it.

An account may send `burst` messages at once and `per_minute` a minute after that. A message over the
limit is not read; the first one of a run of refused messages gets a "slow down" reply saying
when to send again, the rest of that run get no reply (replying to a flood would be a flood).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

PRUNE_AT = 10_000  # buckets kept before the full ones are dropped (then twice what is left)


class Admission(Enum):
    ADMIT = "admit"
    REFUSE_AND_TELL = "refuse_and_tell"
    REFUSE_QUIETLY = "refuse_quietly"


@dataclass
class _Bucket:
    tokens: float
    at: datetime
    told: bool = False


class RateLimiter:
    def __init__(self, per_minute: int, burst: int) -> None:
        """`per_minute` 0 turns the limit off."""
        self.per_minute = per_minute
        self.burst = max(burst, 1)
        self._buckets: dict[Hashable, _Bucket] = {}
        self._prune_at = PRUNE_AT

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    def take(self, key: Hashable, now: datetime) -> Admission:
        if not self.enabled:
            return Admission.ADMIT
        if len(self._buckets) >= self._prune_at:
            self._prune(now)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        elapsed = max((now - bucket.at).total_seconds(), 0.0)
        bucket.tokens = min(float(self.burst), bucket.tokens + elapsed * self.per_minute / 60)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.told = False
            return Admission.ADMIT
        if bucket.told:
            return Admission.REFUSE_QUIETLY
        bucket.told = True
        return Admission.REFUSE_AND_TELL

    def retry_after(self, key: Hashable) -> int:
        """Whole seconds until `key` may send one message again (at least 1)."""
        if not self.enabled:
            return 0
        bucket = self._buckets.get(key)
        missing = max(1 - bucket.tokens, 0.0) if bucket is not None else 0.0
        return max(1, math.ceil(missing * 60 / self.per_minute))

    def _prune(self, now: datetime) -> None:
        """Drop the buckets that have refilled: they hold nothing a new bucket would not (memory stays bounded)."""
        for key, b in list(self._buckets.items()):
            if b.tokens + (now - b.at).total_seconds() * self.per_minute / 60 >= self.burst:
                del self._buckets[key]
        self._prune_at = max(PRUNE_AT, 2 * len(self._buckets))
