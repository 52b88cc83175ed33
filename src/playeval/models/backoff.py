"""Retry delays: exponential backoff with full jitter."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    """Delay before retry ``n`` (1-based): uniform in ``[0, min(cap, base * 2**(n-1))]``."""

    base_s: float = 0.5
    cap_s: float = 20.0

    def delay(self, retry: int, rng: random.Random) -> float:
        ceiling = min(self.cap_s, self.base_s * (2.0 ** max(0, retry - 1)))
        return rng.uniform(0.0, ceiling)
