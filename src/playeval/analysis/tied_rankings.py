"""Rankings in which models may tie, and Kendall's tau-b with a test that respects the ties.

A ranking is best first; an entry is a model or a group of models that tie: ``["a", ["b", "c"], "d"]``. Win rates
over a few matches tie often, and ordering tied models by name would make two runs "agree" on the alphabet: three
models tied in both runs would look like a perfect, significant agreement. Here a tie is no order at all.

:func:`tied_tau_test` takes each item's level (0 best, equal levels tied). Without ties it is
``ranking.kendall_tau_test`` (exact, or the normal approximation for many items). With ties the null keeps both
rankings' ties and pairs the items at random: counted over all ``n!`` pairings up to ``EXACT_TIED_MAX_ITEMS``
items, estimated from seeded random pairings beyond.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from itertools import permutations as all_orderings
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from playeval.analysis.ranking import TauTest, kendall_tau_test, ranking_from_scores

Item = TypeVar("Item", bound=Hashable)
RankEntry = str | Sequence[str]
Ranking = Sequence[RankEntry]
"""Best first; an entry is one item, or a group of items tied at that place."""

EXACT_TIED_MAX_ITEMS = 8
"""Up to this many items a tied ranking's null is counted over every pairing (8! = 40,320)."""

PERMUTATIONS = 10_000
"""Random pairings for the estimated null: the p-value's standard error is at most 0.005, and 0.002 near 0.05."""

_BATCH = 1_000


def groups(ranking: Ranking) -> list[list[str]]:
    """The ranking as tie groups, best first, each group's models by name. Raises ``ValueError`` for a model
    listed twice or an empty group."""
    out: list[list[str]] = []
    seen: set[str] = set()
    for entry in ranking:
        group = [entry] if isinstance(entry, str) else list(entry)
        if not group:
            raise ValueError("a ranking has an empty tie group")
        for model in group:
            if model in seen:
                raise ValueError(f"a ranking lists {model!r} more than once")
            seen.add(model)
        out.append(sorted(group))
    return out


def restrict(ranking: Ranking, keep: set[str]) -> list[list[str]]:
    """The tie groups of ``ranking`` holding only the models in ``keep`` (groups left empty are dropped)."""
    return [kept for group in groups(ranking) if (kept := [m for m in group if m in keep])]


def flatten(ranking: Ranking) -> list[str]:
    """Every model of ``ranking``, best first, tied ones by name (for measures that need a strict order)."""
    return [model for group in groups(ranking) for model in group]


def levels(ranking: Ranking) -> dict[str, int]:
    """Each model's level: the index of its tie group, 0 for the best."""
    return {model: level for level, group in enumerate(groups(ranking)) for model in group}


def entries(ranking: Ranking) -> list[str | list[str]]:
    """The ranking as plain JSON: a model alone as its name, a tie group as a list of names."""
    return [group[0] if len(group) == 1 else group for group in groups(ranking)]


def tie_groups(scores: Mapping[str, float], *, higher_is_better: bool = True) -> list[str | list[str]]:
    """The names of ``scores`` best first, models with equal scores as one tie group (by name). Raises
    ``ValueError`` for a NaN score."""
    ranking_from_scores(scores)  # refuses NaN
    by_score: dict[float, list[str]] = {}
    for model, score in scores.items():
        by_score.setdefault(score, []).append(model)
    sign = -1.0 if higher_is_better else 1.0
    return [group[0] if len(group) == 1 else sorted(group)
            for _, group in sorted(by_score.items(), key=lambda item: sign * item[0])]


def _signs(values: NDArray[np.float64], first: NDArray[np.intp], second: NDArray[np.intp]) -> NDArray[np.int8]:
    """+1 where the first item of a pair ranks better (a lower level), -1 where worse, 0 for a tie; per row."""
    return np.sign(values[..., second] - values[..., first]).astype(np.int8)


def _null_sums(sign_a: NDArray[np.int8], b: NDArray[np.float64], first: NDArray[np.intp], second: NDArray[np.intp],
               exact: bool, draws: int, seed: int) -> Iterator[NDArray[np.int64]]:
    """``S = concordant - discordant`` of ``a`` against every pairing (``exact``) or ``draws`` random ones."""
    if exact:
        orderings = np.array(list(all_orderings(range(len(b)))), dtype=np.intp)
        yield (_signs(b[orderings], first, second).astype(np.int64) * sign_a).sum(axis=1)
        return
    rng = np.random.default_rng(seed)
    left = draws
    while left > 0:
        size = min(_BATCH, left)
        shuffled = rng.permuted(np.tile(b, (size, 1)), axis=1)
        yield (_signs(shuffled, first, second).astype(np.int64) * sign_a).sum(axis=1)
        left -= size


def tied_tau_test(a: Mapping[Item, float], b: Mapping[Item, float], *, permutations: int = PERMUTATIONS,
                  seed: int = 0) -> TauTest:
    """Kendall's tau-b of two rankings given as levels (lower is better, equal is tied) and its one-sided
    p-value: the chance that a random pairing of the items, each ranking keeping its ties, agrees at least as well.

    ``tau_b = (C - D) / sqrt((P - T_a)(P - T_b))``, with ``P`` pairs and ``T_a``, ``T_b`` the pairs tied in each
    ranking. Every pairing has the same ties, so the test compares ``S = C - D``. Without ties this is
    ``kendall_tau_test``. With ties: exact up to ``EXACT_TIED_MAX_ITEMS`` items, else ``permutations`` pairings
    drawn with ``numpy.random.default_rng(seed)`` and ``p = (extreme + 1)/(permutations + 1)`` (never 0, and valid
    for a Monte Carlo test). ``smallest_p`` is the p-value of the best agreement the ties allow (``b``'s levels laid
    along ``a``'s order). Raises ``ValueError`` for different items, fewer than two, a ranking in which every
    item ties (it orders nothing), or ``permutations < 1``.
    """
    if set(a) != set(b):
        raise ValueError(f"the rankings rank different items: {sorted(map(str, set(a) ^ set(b)))}")
    items = list(a)
    n = len(items)
    if n < 2:
        raise ValueError("rankings need at least two items")
    if len(set(a.values())) == 1 or len(set(b.values())) == 1:
        raise ValueError("a ranking in which every item ties orders nothing")
    if permutations < 1:
        raise ValueError(f"need at least one permutation, got {permutations}")
    if len(set(a.values())) == n and len(set(b.values())) == n:
        order_a: list[Item] = sorted(items, key=a.__getitem__)
        order_b: list[Item] = sorted(items, key=b.__getitem__)
        return kendall_tau_test(order_a, order_b)
    first, second = np.triu_indices(n, 1)
    level_a = np.array([a[item] for item in items], dtype=np.float64)
    level_b = np.array([b[item] for item in items], dtype=np.float64)
    sign_a = _signs(level_a, first, second).astype(np.int64)
    sign_b = _signs(level_b, first, second).astype(np.int64)
    products = sign_a * sign_b
    concordant, discordant = int((products > 0).sum()), int((products < 0).sum())
    tau = (concordant - discordant) / math.sqrt(int((sign_a != 0).sum()) * int((sign_b != 0).sum()))
    along_a = np.empty(n, dtype=np.float64)
    along_a[np.argsort(level_a, kind="stable")] = np.sort(level_b)
    best = int((sign_a * _signs(along_a, first, second)).sum())
    exact = n <= EXACT_TIED_MAX_ITEMS
    observed = concordant - discordant
    at_least = at_best = total = 0
    for sums in _null_sums(sign_a.astype(np.int8), level_b, first, second, exact, permutations, seed):
        at_least += int((sums >= observed).sum())
        at_best += int((sums >= best).sum())
        total += len(sums)
    if exact:
        p, smallest = at_least / total, at_best / total
    else:
        p, smallest = (at_least + 1) / (total + 1), (at_best + 1) / (total + 1)
    return TauTest(tau, p, "exact" if exact else "permutation", n, concordant, discordant, smallest,
                   int((products == 0).sum()))


def ranking_tau_test(a: Ranking, b: Ranking, *, permutations: int = PERMUTATIONS, seed: int = 0) -> TauTest:
    """:func:`tied_tau_test` of two rankings written with tie groups (the same models on both sides)."""
    return tied_tau_test(levels(a), levels(b), permutations=permutations, seed=seed)


def opposed_pairs(a: Ranking, b: Ranking) -> list[tuple[str, str]]:
    """The pairs the rankings order oppositely, ``(x, y)`` with ``x`` above ``y`` in ``a`` and below it in ``b``,
    in ``a``'s order. A pair tied on either side is not opposed: a tie is no order."""
    level_a, level_b = levels(a), levels(b)
    order = flatten(a)
    return [(x, y) for i, x in enumerate(order) for y in order[i + 1:]
            if level_a[x] < level_a[y] and level_b[x] > level_b[y]]
