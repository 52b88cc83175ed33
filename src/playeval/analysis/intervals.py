"""Confidence intervals for the rates the analysis reports."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

Z_95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z_95) -> tuple[float | None, float | None]:
    """The Wilson score interval of a proportion ``wins / n`` (``None``s when ``n`` is 0). ``wins`` may be a
    fraction (a mean result over ``n`` matches, see :func:`cluster_rate_interval`)."""
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


_T_975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622)
"""Student's t 0.975 quantiles for 1 to 9 degrees of freedom."""


def t_quantile_95(df: int) -> float:
    """Student's t 0.975 quantile (the two-sided 95% critical value) for ``df`` degrees of freedom: a table up to
    9, the Cornish-Fisher expansion in 1/df above (within 1e-4 of the exact value from 10 on)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df <= len(_T_975):
        return _T_975[df - 1]
    z, v = Z_95, float(df)
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4))


def t_interval(values: Sequence[float], *, bounds: tuple[float, float] | None = None
               ) -> tuple[float | None, float | None]:
    """The t 95% interval of the mean of ``values`` (``None``s with fewer than two values), clipped to ``bounds``
    when given (for measures that cannot leave them, such as shares in [0, 1])."""
    if len(values) < 2:
        return None, None
    mean = statistics.fmean(values)
    half = t_quantile_95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return low, high


def bootstrap_interval(items: Sequence[T], statistic: Callable[[Sequence[T]], float | None], *,
                       resamples: int = 1000, level: float = 0.95, seed: int = 0) -> tuple[float | None, float | None]:
    """The percentile bootstrap interval of ``statistic`` over ``items``: each resample draws as many items as
    there are, with replacement (``random.Random(seed)``, so the interval is the same on every run). A resample on
    which the statistic is undefined (``None``: a kappa of raters who all said the same) is left out; ``None``s
    when none is defined."""
    if resamples < 1 or not 0.0 < level < 1.0:
        raise ValueError("resamples must be at least 1 and level within (0, 1)")
    if not items:
        return None, None
    rng = random.Random(seed)
    values: list[float] = []
    for _ in range(resamples):
        value = statistic([items[rng.randrange(len(items))] for _ in items])
        if value is not None:
            values.append(value)
    if not values:
        return None, None
    values.sort()
    tail = (1.0 - level) / 2.0
    low = values[min(len(values) - 1, int(tail * len(values)))]
    high = values[max(0, math.ceil((1.0 - tail) * len(values)) - 1)]
    return low, high


CLUSTER_RESAMPLES = 2000
"""Resamples of the matches behind a cluster bootstrap interval (:func:`cluster_rate_interval`)."""


def cluster_rate_interval(clusters: Sequence[tuple[int, int]], *, resamples: int = CLUSTER_RESAMPLES,
                          level: float = 0.95, seed: int = 0) -> tuple[float | None, float | None]:
    """The 95% interval of a rate counted over seats that come in clusters: ``clusters`` holds one
    ``(wins, seats)`` per match, for a model that held several seats of one table (Undercover's civilians).

    Seats of one table share its fate (a team wins or loses together), so they are not independent trials and a
    Wilson interval over seats would be about sqrt(seats per match) times too narrow. The unit that varies is the
    match: this is the percentile bootstrap of the rate (all wins over all seats) with the matches resampled, with
    replacement, ``random.Random(seed)`` drawing them (the same interval on every run).

    When every match gave the same share (3 of 3 tables all won), resampling matches cannot show any spread and
    would give a point; the interval is then Wilson's over the matches as trials (the share as the count of
    wins), which is what the same matches would give were each one seat. ``None``s when no match has a seat."""
    kept = [(wins, seats) for wins, seats in clusters if seats > 0]
    if any(not 0 <= wins <= seats for wins, seats in kept):
        raise ValueError("each match's wins must be between 0 and its seats")
    if not kept:
        return None, None
    shares = {wins / seats for wins, seats in kept}
    if len(shares) == 1:
        return wilson_interval(shares.pop() * len(kept), len(kept))

    def rate(sample: Sequence[tuple[int, int]]) -> float:
        return sum(wins for wins, _ in sample) / sum(seats for _, seats in sample)

    return bootstrap_interval(kept, rate, resamples=resamples, level=level, seed=seed)


def match_rate_interval(clusters: Sequence[tuple[int, int]]) -> tuple[float | None, float | None]:
    """The 95% interval of a rate over matches, ``clusters`` holding one ``(wins, seats)`` per match: Wilson's
    over the matches where each gave one seat (each a trial of its own), else :func:`cluster_rate_interval`. The
    one rule every table that shows a win rate over seats follows (``results``, a team game's side tables)."""
    kept = [(wins, seats) for wins, seats in clusters if seats > 0]
    if all(seats == 1 for _, seats in kept):
        return wilson_interval(sum(wins for wins, _ in kept), len(kept))
    return cluster_rate_interval(kept)


def cluster_mean_interval(clusters: Sequence[Sequence[float]], *, resamples: int = CLUSTER_RESAMPLES,
                          level: float = 0.95, seed: int = 0) -> tuple[float | None, float | None]:
    """The 95% interval of the mean of a measure in [0, 1] over seats that come in clusters: ``clusters`` holds
    each match's values (a model's seats of one table, those that have the measure).

    The seats of one table see the same words, the same votes and the same judges, so their values move
    together; as for a rate (:func:`cluster_rate_interval`), the match is the unit that varies. This is the
    percentile bootstrap of the mean over all the seats, the matches resampled with replacement
    (``random.Random(seed)``: the same interval on every run); the mean is that of the per-match means, each
    weighted by its seats.

    When every match gave the same mean (a judge that scored every sentence 1.0), the matches show no spread and
    the bootstrap would give a point; the interval is then Wilson's over the matches, taking the mean as a share
    of them. A measure in [0, 1] with that mean varies at most as a share does, so this is the widest the
    matches allow, as ``cluster_rate_interval`` does for a rate. ``None``s when no match has a value."""
    kept = [tuple(values) for values in clusters if values]
    if any(not 0.0 <= value <= 1.0 for values in kept for value in values):
        raise ValueError("a clustered mean's values must lie in [0, 1]")
    if not kept:
        return None, None
    means = {round(math.fsum(values) / len(values), 12) for values in kept}
    if len(means) == 1:
        return wilson_interval(min(1.0, means.pop()) * len(kept), len(kept))

    def mean(sample: Sequence[tuple[float, ...]]) -> float:
        return math.fsum(value for values in sample for value in values) / sum(len(values) for values in sample)

    return bootstrap_interval(kept, mean, resamples=resamples, level=level, seed=seed)
