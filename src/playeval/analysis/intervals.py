"""Confidence intervals for the rates the analysis reports."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054


def wilson_interval(wins: int, n: int, z: float = Z_95) -> tuple[float | None, float | None]:
    """The Wilson score interval of a proportion ``wins / n`` (``None``s when ``n`` is 0)."""
    if n <= 0:
        return None, None
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be between 0 and n, got {wins} of {n}")
    p = wins / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    low = 0.0 if wins == 0 else max(0.0, min(p, centre - half))  # exact at the ends, never past p by rounding
    high = 1.0 if wins == n else min(1.0, max(p, centre + half))
    return low, high
