"""Agreement between two rankings of the same models (GameArena section 4.5 and Appendix D).

Every function takes two rankings of the same items, best first. They raise ``ValueError`` when the item sets
differ, an item repeats, or there are fewer than two items.

* :func:`kendall_tau`: Kendall's tau (Eq. 4) with the one-sided z-test of Appendix D.1, kept to reproduce the
  paper's Table 7 (its variance makes small-n p-values far too small);
* :func:`kendall_tau_test`: Kendall's tau with an exact one-sided test (a normal approximation beyond
  ``EXACT_TAU_MAX_ITEMS`` items), the test to decide anything by;
* :func:`fewest_models` and :func:`fewest_matches`: how many models, and matches per model, a ranking needs before
  its agreement with another can be told from chance at all;
* :func:`rbo`: rank-biased overlap, extrapolated (Webber et al. 2010) or truncated (the paper's Eq. 5);
* :func:`rbo_permutation_test`: the permutation test of Appendix D.2;
* :func:`ranking_from_scores`: a deterministic best-first order from scores.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

ALPHA = 0.05
"""The significance level the floors (:func:`fewest_models`, :func:`fewest_matches`) are computed for."""

EXACT_TAU_MAX_ITEMS = 60
"""Up to this many items :func:`kendall_tau_test` counts the exact null distribution (9 ms at 60); beyond it the
normal approximation, whose error there is far below any p-value's rounding."""

TauMethod = Literal["exact", "permutation", "normal"]

_TIE_TOLERANCE = 1e-12
"""Null RBOs within this of the observed one count as ties (>=), so float rounding never splits a tie."""


@dataclass(frozen=True)
class KendallResult:
    """Kendall's tau between two rankings and its one-sided test against ``tau = 0``."""

    tau: float
    z: float
    p: float
    concordant: int
    discordant: int
    n: int


def _check_rankings(a: Sequence[Hashable], b: Sequence[Hashable]) -> None:
    if len(set(a)) != len(a) or len(set(b)) != len(b):
        raise ValueError("a ranking lists an item more than once")
    if set(a) != set(b):
        raise ValueError(f"the rankings rank different items: {sorted(map(str, set(a) ^ set(b)))}")
    if len(a) < 2:
        raise ValueError("rankings need at least two items")


def kendall_tau(a: Sequence[Hashable], b: Sequence[Hashable], *,
                variance: Literal["paper", "standard"] = "paper") -> KendallResult:
    """Kendall's tau (Eq. 4) and the one-sided z-test of Appendix D.1.

    ``tau = (concordant - discordant) / (n(n - 1)/2)``, where a pair of items is concordant when both rankings
    order it the same way. ``z = tau / sqrt(Var(tau))`` and ``p = 1 - Phi(z)`` (H1: tau > 0), with the normal
    CDF ``Phi`` from the error function (``1 - Phi(z) = erfc(z / sqrt 2) / 2``).

    ``variance="paper"`` uses ``Var(tau) = 2 / (n(n - 1))`` as printed in Appendix D.1; it reproduces the z
    column of Table 7. It is ``1 / C(n, 2)``, the variance if the ``C(n, 2)`` pair signs were independent, and
    it ignores the positive covariance between pairs sharing an item. ``variance="standard"`` uses the usual null
    variance ``2(2n + 5) / (9n(n - 1))`` (Kendall 1938), which is larger for every ``n > 2`` (for n = 5, 1/6
    instead of 1/10), so the paper's z-scores are inflated by ``sqrt((2n + 5)/9)`` (1.29 at n = 5) and its
    p-values too small. With n = 5 the normal approximation is itself crude either way: at n = 3 the paper's
    form gives p = 0.04 for tau = 1, where only one of the 3! = 6 orderings reaches tau = 1 (exact p = 1/6).
    Decide with :func:`kendall_tau_test`.
    """
    _check_rankings(a, b)
    n = len(a)
    position = {item: index for index, item in enumerate(b)}
    concordant = discordant = 0
    for first, second in combinations(a, 2):
        if position[first] < position[second]:
            concordant += 1
        else:
            discordant += 1
    pairs = n * (n - 1) / 2
    tau = (concordant - discordant) / pairs
    var = 2 / (n * (n - 1)) if variance == "paper" else 2 * (2 * n + 5) / (9 * n * (n - 1))
    z = tau / math.sqrt(var)
    p = 0.5 * math.erfc(z / math.sqrt(2))
    return KendallResult(tau=tau, z=z, p=p, concordant=concordant, discordant=discordant, n=n)


@dataclass(frozen=True)
class TauTest:
    """Kendall's tau between two rankings and its one-sided p-value against chance (H1: tau > 0)."""

    tau: float
    """Kendall's tau; with ties, tau-b (ties on either side count for neither order)."""
    p: float
    method: TauMethod
    """``exact``: counted over all ``n!`` orderings; ``permutation``: estimated from seeded random orderings;
    ``normal``: the normal approximation (large ``n``)."""
    n: int
    concordant: int
    discordant: int
    smallest_p: float
    """The smallest p-value any ranking with the same ties could reach (``1/n!`` without ties): at or above the
    significance level, no agreement of these items can be told from chance."""
    tied: int = 0
    """Pairs tied in either ranking."""


def inversion_counts(n: int) -> list[int]:
    """``counts[d]``: how many of the ``n!`` orderings of ``n`` items have exactly ``d`` discordant pairs with a
    fixed ranking (the Mahonian numbers).

    This is the exact null distribution of Kendall's tau, the same numbers an enumeration of every ordering
    gives, built item by item: the ``k``-th item placed adds 0 to ``k - 1`` discordant pairs, one ordering each.
    """
    counts = [1]
    for size in range(2, n + 1):
        prefix = [0]
        for count in counts:
            prefix.append(prefix[-1] + count)
        last = len(counts) - 1
        counts = [prefix[min(d, last) + 1] - prefix[max(0, d - size + 1)] for d in range(len(counts) + size - 1)]
    return counts


def kendall_tau_test(a: Sequence[Hashable], b: Sequence[Hashable]) -> TauTest:
    """Kendall's tau and its one-sided p-value: the chance that a uniformly random ordering of the items agrees
    with ``a`` at least as well as ``b`` does.

    Up to ``EXACT_TAU_MAX_ITEMS`` items the p-value is exact: the share of the ``n!`` orderings with at most as
    many discordant pairs (:func:`inversion_counts`), so three models ranked identically give ``p = 1/6``, never
    less. Beyond, the normal approximation with Kendall's null variance of ``S = concordant - discordant``,
    ``n(n - 1)(2n + 5)/18``, and a continuity correction of 1 (``S`` moves in steps of 2).
    """
    k = kendall_tau(a, b)
    n = k.n
    if n <= EXACT_TAU_MAX_ITEMS:
        counts = inversion_counts(n)
        p = sum(counts[: k.discordant + 1]) / math.factorial(n)
        return TauTest(k.tau, min(1.0, p), "exact", n, k.concordant, k.discordant, 1 / math.factorial(n))
    s = k.concordant - k.discordant
    z = (s - 1) / math.sqrt(n * (n - 1) * (2 * n + 5) / 18)
    return TauTest(k.tau, 0.5 * math.erfc(z / math.sqrt(2)), "normal", n, k.concordant, k.discordant,
                   1 / math.factorial(n))


def fewest_models(alpha: float = ALPHA) -> int:
    """The fewest items two rankings need before their agreement can be significant at ``alpha`` at all.

    With ``k`` items the exact test's smallest p-value is ``1/k!`` (identical rankings): 1/6 for three models,
    1/24 for four, so at 5% four models is the floor. Raises ``ValueError`` unless ``0 < alpha < 1``.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    k = 2
    while 1 / math.factorial(k) >= alpha:
        k += 1
    return k


def fewest_matches(alpha: float = ALPHA) -> int:
    """The fewest scored matches per model below which a ranking by win rate cannot tell any two models apart.

    With ``m`` matches each, the most different two models can look is one winning all ``m`` and the other none.
    Fisher's exact test (one-sided) gives that table ``p = 1/C(2m, m)``: 1/20 = 0.05 at three matches, 1/70 at
    four. Below the returned ``m`` even that result is not significant at ``alpha``, so every order the run gives
    between two of its models is indistinguishable from chance, and comparing the ranking with another measures
    nothing. It is a floor, not enough: at the floor only the most lopsided pairs are separated. Raises
    ``ValueError`` unless ``0 < alpha < 1``.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    m = 1
    while 1 / math.comb(2 * m, m) >= alpha:
        m += 1
    return m


def _agreements(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[float]:
    """``A_d = |a[:d] ∩ b[:d]| / d`` for ``d = 1..n``."""
    seen_a: set[Hashable] = set()
    seen_b: set[Hashable] = set()
    overlap = 0
    values: list[float] = []
    for depth, (x, y) in enumerate(zip(a, b, strict=True), start=1):
        if x == y:
            overlap += 1
        else:
            overlap += (x in seen_b) + (y in seen_a)
        seen_a.add(x)
        seen_b.add(y)
        values.append(overlap / depth)
    return values


def rbo(a: Sequence[Hashable], b: Sequence[Hashable], p: float = 0.9, *, extrapolated: bool = True) -> float:
    """Rank-biased overlap of two rankings with persistence ``p``; agreement ``A_d = |a[:d] ∩ b[:d]| / d``.

    ``extrapolated=True`` (default) is Webber, Moffat and Zobel's (2010) RBO_ext evaluated at depth
    ``k = n``: ``A_k p^k + ((1 - p)/p) sum_{d=1..k} A_d p^d``. It is 1 for identical rankings and it is the form
    that reproduces the paper's RBO values (Table 4: 0.86 for Akinator-Outcome vs Chatbot Arena).

    ``extrapolated=False`` is the truncated sum printed as the paper's Eq. 5,
    ``(1 - p) sum_{d=1..n} A_d p^{d-1}``, a lower bound that never reaches 1 for finite ``n``
    (identical rankings of 5 items score ``1 - p^5``).

    Raises ``ValueError`` unless ``0 < p < 1``.
    """
    _check_rankings(a, b)
    if not 0 < p < 1:
        raise ValueError(f"persistence p must be in (0, 1), got {p}")
    agreements = _agreements(a, b)
    if extrapolated:
        k = len(agreements)
        weighted = sum(value * p**depth for depth, value in enumerate(agreements, start=1))
        return agreements[-1] * p**k + (1 - p) / p * weighted
    return (1 - p) * sum(value * p ** (depth - 1) for depth, value in enumerate(agreements, start=1))


def rbo_permutation_test(a: Sequence[Hashable], b: Sequence[Hashable], p: float = 0.9, n: int = 1000,
                         seed: int = 0) -> float:
    """One-sided permutation p-value of ``rbo(a, b, p)`` (Appendix D.2).

    Keeps ``a`` fixed, draws ``n`` uniformly random orderings of the items with ``random.Random(seed)`` (never
    the global generator) and returns ``#{null RBO >= observed RBO} / n`` (null values within 1e-12 of the
    observed one count as ties). Uses the extrapolated RBO, as the paper's values do. The result is a Monte Carlo
    estimate of the exact p-value over all ``len(a)!`` orderings, with standard error
    ``sqrt(p(1 - p)/n)``. Raises ``ValueError`` when ``n < 1``.
    """
    observed = rbo(a, b, p)
    if n < 1:
        raise ValueError(f"need at least one permutation, got n={n}")
    rng = random.Random(seed)
    items = list(b)
    extreme = 0
    for _ in range(n):
        if rbo(a, rng.sample(items, len(items)), p) >= observed - _TIE_TOLERANCE:
            extreme += 1
    return extreme / n


def ranking_from_scores(scores: Mapping[str, float], *, higher_is_better: bool = True) -> list[str]:
    """The names of ``scores`` ordered best first; tied scores are ordered by name so the order is deterministic.

    Raises ``ValueError`` for a NaN score, which has no place in an order.
    """
    for name, score in scores.items():
        if math.isnan(score):
            raise ValueError(f"score of {name!r} is NaN")
    sign = -1.0 if higher_is_better else 1.0
    return sorted(scores, key=lambda name: (sign * scores[name], name))
