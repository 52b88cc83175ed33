"""Per-client token buckets.

Each client (by address) has a bucket per kind of request; a request takes one token, and tokens come back
at a steady rate up to the bucket's size. An empty bucket means 429 with the seconds to wait. The limiter
is an ordinary object on ``app.state``; idle buckets are forgotten once they are full again.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from playeval.web.settings import RateLimit

MAX_BUCKETS = 10_000


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """Token buckets for one kind of request, keyed by client."""

    def __init__(self, limit: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = limit.per_minute / 60.0
        self._size = float(limit.burst)
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> float:
        """Take a token for ``client``: 0 when granted, else the seconds until one is available."""
        now = self._clock()
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is None:
                if len(self._buckets) >= MAX_BUCKETS:
                    self._forget_full(now)
                bucket = self._buckets[client] = _Bucket(tokens=self._size, stamp=now)
            bucket.tokens = min(self._size, bucket.tokens + (now - bucket.stamp) * self._rate)
            bucket.stamp = now
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return (1.0 - bucket.tokens) / self._rate

    def _forget_full(self, now: float) -> None:
        full = [key for key, bucket in self._buckets.items()
                if bucket.tokens + (now - bucket.stamp) * self._rate >= self._size]
        for key in full:
            del self._buckets[key]
        if len(self._buckets) >= MAX_BUCKETS:  # every client is busy: start over rather than grow
            self._buckets.clear()


def retry_after(seconds: float) -> str:
    """The ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))
