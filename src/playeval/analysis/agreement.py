"""How far raters agree beyond chance: Cohen's kappa for two, Fleiss' kappa for more, with bootstrap intervals.

Raw agreement flatters raters who mostly say the same thing (two judges that accept 90% of guesses agree on at
least 80% of them by chance alone); kappa subtracts the agreement their own rates would give by chance. A panel
of judges is only worth its cost when its members disagree sometimes, and a judge only replaces another when
they agree well: both questions are read off these numbers.

Ratings are any hashable labels (``True``/``False`` verdicts, a scale's words). Every item must be rated by every
rater; :func:`agreement` leaves out items some rater did not rate (``None``) and says how many it kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from playeval.analysis.intervals import bootstrap_interval

__all__ = ["Agreement", "agreement", "bootstrap_interval", "cohen_kappa", "fleiss_kappa", "observed_agreement"]


def _rectangular(ratings: Sequence[Sequence[Hashable]]) -> int:
    raters = len(ratings[0]) if ratings else 0
    if any(len(item) != raters for item in ratings):
        raise ValueError("every item must be rated by the same number of raters")
    return raters


def observed_agreement(ratings: Sequence[Sequence[Hashable]]) -> float | None:
    """The share of pairs of raters, over all items, that gave an item the same label (``None``: no item, or fewer
    than two raters). For two raters, the share of items they agree on."""
    raters = _rectangular(ratings)
    if not ratings or raters < 2:
        return None
    pairs = raters * (raters - 1)
    return sum(sum(n * (n - 1) for n in Counter(item).values()) / pairs for item in ratings) / len(ratings)


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters over the same items: ``(p_o - p_e) / (1 - p_e)``, with ``p_e`` the agreement
    expected from each rater's own label rates. ``None`` when undefined: no item, or both raters gave one and the
    same label throughout (``p_e = 1``)."""
    if len(first) != len(second):
        raise ValueError(f"the raters rated {len(first)} and {len(second)} items; they must rate the same items")
    n = len(first)
    if n == 0:
        return None
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    rates_a, rates_b = Counter(first), Counter(second)
    expected = sum(rates_a[label] * rates_b[label] for label in rates_a) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def fleiss_kappa(ratings: Sequence[Sequence[Hashable]]) -> float | None:
    """Fleiss' kappa of a fixed number of raters (two or more) over items: ``ratings[i]`` holds item ``i``'s labels,
    one per rater. ``(P - P_e) / (1 - P_e)`` with ``P`` the mean pairwise agreement per item and ``P_e`` the sum of
    the squared overall label shares. ``None`` when undefined: no item, or every label the same (``P_e = 1``)."""
    raters = _rectangular(ratings)
    if not ratings:
        return None
    if raters < 2:
        raise ValueError("Fleiss' kappa needs at least two raters per item")
    mean_agreement = observed_agreement(ratings)
    assert mean_agreement is not None
    shares = Counter(label for item in ratings for label in item)
    total = len(ratings) * raters
    expected = sum((count / total) ** 2 for count in shares.values())
    if expected >= 1.0:
        return None
    return (mean_agreement - expected) / (1.0 - expected)


@dataclass(frozen=True)
class Agreement:
    """Raters' agreement over the items all of them rated."""

    method: Literal["cohen", "fleiss"]
    raters: int
    items: int
    """Items rated by every rater (those the kappa is over)."""
    left_out: int
    """Items some rater did not rate."""
    observed: float | None
    """Raw agreement (see :func:`observed_agreement`)."""
    kappa: float | None
    low: float | None
    high: float | None
    """The kappa's percentile bootstrap interval over items."""


def agreement(ratings: Sequence[Sequence[Hashable | None]], *, resamples: int = 1000, level: float = 0.95,
              seed: int = 0) -> Agreement:
    """The agreement of raters: ``ratings[i]`` holds item ``i``'s labels, one per rater in a fixed order (``None``:
    not rated; such items are left out). Cohen's kappa for two raters, Fleiss' for more, each with a bootstrap
    interval over items (seeded: the same every run)."""
    raters = _rectangular(ratings)
    if ratings and raters < 2:
        raise ValueError("agreement needs at least two raters")
    full: list[tuple[Hashable, ...]] = [tuple(item) for item in ratings if all(label is not None for label in item)]
    method: Literal["cohen", "fleiss"] = "cohen" if raters == 2 else "fleiss"

    def statistic(items: Sequence[Sequence[Hashable]]) -> float | None:
        if method == "cohen":
            return cohen_kappa([item[0] for item in items], [item[1] for item in items])
        return fleiss_kappa(items)

    low, high = bootstrap_interval(full, statistic, resamples=resamples, level=level, seed=seed)
    return Agreement(method=method, raters=raters, items=len(full), left_out=len(ratings) - len(full),
                     observed=observed_agreement(full), kappa=statistic(full), low=low, high=high)
