"""How many matches a run needs: the sample size to tell two models apart, before paying for the run.

The question ``playeval plan`` answers: two models whose true win rates on a game differ by ``detect`` (say 0.45
against 0.55), each playing ``n`` matches; how large must ``n`` be for a two-sided test at level ``alpha`` to find
the difference with probability ``power``? The normal approximation for two independent proportions
(Fleiss, *Statistical Methods for Rates and Proportions*, eq. 4.14, without continuity correction)::

    n = (z(1 - alpha/2)·sqrt(2·p̄·(1 - p̄)) + z(power)·sqrt(p1·(1 - p1) + p2·(1 - p2)))² / detect²

with ``p1``, ``p2`` centred on ``base`` (default 0.5, where the variance and so ``n`` are largest). With ``k``
models, telling every adjacent pair of the ranking apart is ``k - 1`` tests: ``alpha`` is divided among them
(Bonferroni), the conservative choice. :func:`detectable` inverts the formula: the smallest difference ``n``
matches per model find.

What it assumes, and the leaderboard does not: matches independent, and one rate per model (a table game where a
model holds several seats of a table gives fewer independent results than seats; :func:`game_numbers` counts a
table's evaluated seats as independent, an optimistic count the command states).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

_NORMAL = NormalDist()


@dataclass(frozen=True)
class Requirement:
    """Matches per model (``per_model``) for one pair at ``alpha``; ``alpha_each``: the level each of the ranking's
    adjacent pairs is tested at (``alpha`` over ``k - 1``)."""

    detect: float
    base: float
    alpha: float
    alpha_each: float
    power: float
    models: int
    per_model: int


def _check(detect: float, base: float, alpha: float, power: float) -> None:
    if not 0 < detect < 1:
        raise ValueError(f"the difference to detect is a win rate between 0 and 1, got {detect}")
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError(f"alpha and power are between 0 and 1, got {alpha} and {power}")
    if not (0 < base - detect / 2 and base + detect / 2 < 1):
        raise ValueError(f"rates {base - detect / 2:.3f} and {base + detect / 2:.3f} must lie strictly between 0 and 1")


def matches_needed(detect: float, *, base: float = 0.5, alpha: float = 0.05, power: float = 0.8) -> int:
    """Matches per model for a two-sided test at ``alpha`` to find rates ``base ∓ detect/2`` apart with ``power``."""
    _check(detect, base, alpha, power)
    p1, p2 = base - detect / 2, base + detect / 2
    mean = (p1 + p2) / 2
    z_alpha = _NORMAL.inv_cdf(1 - alpha / 2)
    z_power = _NORMAL.inv_cdf(power)
    root = z_alpha * math.sqrt(2 * mean * (1 - mean)) + z_power * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(root * root / (detect * detect))


def requirement(detect: float, models: int, *, base: float = 0.5, alpha: float = 0.05,
                power: float = 0.8) -> Requirement:
    """Matches per model to separate every adjacent pair of ``models`` models (Bonferroni over ``models - 1``)."""
    if models < 2:
        raise ValueError(f"a comparison needs at least 2 models, got {models}")
    alpha_each = alpha / (models - 1)
    return Requirement(detect=detect, base=base, alpha=alpha, alpha_each=alpha_each, power=power, models=models,
                       per_model=matches_needed(detect, base=base, alpha=alpha_each, power=power))


def detectable(n: int, *, models: int = 2, base: float = 0.5, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest difference in win rate that ``n`` matches per model find (bisection on :func:`matches_needed`;
    1.0 when not even that)."""
    if n < 1:
        raise ValueError(f"matches per model must be at least 1, got {n}")
    alpha_each = alpha / max(1, models - 1)
    low, high = 1e-4, 2 * min(base, 1 - base) - 1e-9
    if matches_needed(high, base=base, alpha=alpha_each, power=power) > n:
        return 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if matches_needed(mid, base=base, alpha=alpha_each, power=power) <= n:
            high = mid
        else:
            low = mid
    return high


def game_numbers(per_model: int, evaluated_seats: int) -> int:
    """``--n`` (game numbers) that gives each model ``per_model`` results in a game whose matches have
    ``evaluated_seats`` evaluated seats (every model plays every evaluated seat once per game number), counting a
    table's seats as independent."""
    return math.ceil(per_model / max(1, evaluated_seats))
