"""Bradley-Terry ratings by maximum likelihood, with bootstrap intervals over matches.

**The model.** Each player ``i`` has a strength ``θ_i``; in a comparison of ``i`` with ``j`` the chance that ``i``
comes out ahead is ``sigma(θ_i - θ_j)`` (the logistic function). A comparison carries ``i``'s score (1 won, ½ drawn,
0 lost: a draw counts half a win each way, the usual extension) and a weight. The strengths maximise the weighted
log-likelihood minus a weak Gaussian prior ``λ/2·Σθ²`` (``PRIOR``), which keeps a player who won or lost every
comparison finite without moving the others measurably. They are reported on the Elo scale,
``1000 + θ·400/ln 10`` (a 400-point gap: 10-to-1 odds), centred so the mean of the ``anchor`` players is 1000.

**Why this model** (rather than OpenSkill or TrueSkill, the other choices a leaderboard has): both of those are
online updates whose result depends on the order the matches are fed in, so a bootstrap over matches would mix
order noise into the intervals; Bradley-Terry by maximum likelihood has one answer for a set of matches, takes
weights (every game weighted equally in the overall rating) and draws, and is what Chatbot Arena moved to for the
same reasons. The optimisation is scipy's L-BFGS-B with the analytic gradient; the likelihood is concave, so it
converges to the single optimum.

**Intervals.** A bootstrap over *matches*: a match's comparisons (every pair of seats of a table, a player against
the game) are resampled together, within each board (``MatchComparisons.board``: a game and configuration), so
seats of one table are never treated as independent. 95 % percentile intervals of each player's rating over
``resamples`` refits; the draws are kept (:class:`RatingFit.draws`) for differences between two players.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import minimize  # type: ignore[import-untyped]  # scipy ships no type stubs

PRIOR = 0.01
"""λ of the Gaussian prior on the strengths (in logits): a prior standard deviation of 10 logits."""
ELO_SCALE = 400.0 / math.log(10.0)
CENTRE = 1000.0
DEFAULT_RESAMPLES = 200


@dataclass(frozen=True)
class Comparison:
    """``first`` against ``second``: ``score`` is ``first``'s (1 won, 0.5 drawn, 0 lost), ``weight`` how much the
    comparison counts (a table's pairs share their match's weight)."""

    first: str
    second: str
    score: float
    weight: float = 1.0

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError(f"a comparison needs two players, got {self.first!r} twice")
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a comparison's score is between 0 and 1, got {self.score}")
        if self.weight <= 0:
            raise ValueError(f"a comparison's weight is above 0, got {self.weight}")


@dataclass(frozen=True)
class MatchComparisons:
    """The comparisons one match gives, resampled together; ``board`` is the game and configuration it counts for."""

    board: str
    match: str
    comparisons: tuple[Comparison, ...]

    @property
    def players(self) -> frozenset[str]:
        return frozenset(p for c in self.comparisons for p in (c.first, c.second))


@dataclass(frozen=True)
class RatedPlayer:
    """A player's rating with its bootstrap 95 % interval and the number of matches it played."""

    player: str
    rating: float
    low: float
    high: float
    matches: int

    def overlaps(self, other: RatedPlayer) -> bool:
        """Whether the two intervals overlap: the board shows the two as tied."""
        return self.low <= other.high and other.low <= self.high


@dataclass(frozen=True)
class RatingFit:
    """Ratings best first, with the bootstrap draws behind their intervals (``draws[player]``: one rating per
    resample, in resample order)."""

    rows: tuple[RatedPlayer, ...]
    draws: Mapping[str, tuple[float, ...]] = field(default_factory=dict)

    def row(self, player: str) -> RatedPlayer | None:
        return next((r for r in self.rows if r.player == player), None)

    def difference(self, first: str, second: str) -> tuple[float, float, float]:
        """``first``'s rating minus ``second``'s, with the 95 % percentile interval of the difference over the
        bootstrap draws (both ends equal the estimate when there were no resamples)."""
        a, b = self.row(first), self.row(second)
        if a is None or b is None:
            raise KeyError(f"no rating for {first if a is None else second!r}")
        estimate = a.rating - b.rating
        da, db = self.draws.get(first, ()), self.draws.get(second, ())
        if not da or len(da) != len(db):
            return estimate, estimate, estimate
        diffs = np.asarray(da) - np.asarray(db)
        low, high = np.percentile(diffs, [2.5, 97.5])
        return estimate, float(low), float(high)

    def separated(self, first: str, second: str) -> bool:
        """Whether the 95 % interval of the difference excludes 0."""
        _, low, high = self.difference(first, second)
        return low > 0 or high < 0


def fit_strengths(comparisons: Sequence[Comparison], players: Sequence[str], *,
                  prior: float = PRIOR) -> NDArray[np.float64]:
    """The maximum-likelihood strengths (logits) of ``players`` (in that order) from ``comparisons``."""
    index = {p: i for i, p in enumerate(players)}
    first = np.fromiter((index[c.first] for c in comparisons), dtype=np.int64, count=len(comparisons))
    second = np.fromiter((index[c.second] for c in comparisons), dtype=np.int64, count=len(comparisons))
    score = np.fromiter((c.score for c in comparisons), dtype=np.float64, count=len(comparisons))
    weight = np.fromiter((c.weight for c in comparisons), dtype=np.float64, count=len(comparisons))
    return _fit_arrays(first, second, score, weight, len(players), prior)


def _fit_arrays(first: NDArray[np.int64], second: NDArray[np.int64], score: NDArray[np.float64],
                weight: NDArray[np.float64], n_players: int, prior: float) -> NDArray[np.float64]:
    def objective(theta: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        diff = theta[first] - theta[second]
        # log sigma(d) = -log(1 + e^-d), computed stably by logaddexp
        log_p = -np.logaddexp(0.0, -diff)
        log_q = -np.logaddexp(0.0, diff)
        value = -float(np.sum(weight * (score * log_p + (1.0 - score) * log_q))) + 0.5 * prior * float(theta @ theta)
        p = np.exp(log_p)
        g = weight * (p - score)  # d(-loglik)/d(diff)
        grad = np.bincount(first, weights=g, minlength=n_players) - np.bincount(second, weights=g, minlength=n_players)
        return value, grad + prior * theta

    result = minimize(objective, np.zeros(n_players), jac=True, method="L-BFGS-B",
                      options={"maxiter": 500, "gtol": 1e-9})
    strengths: NDArray[np.float64] = np.asarray(result.x, dtype=np.float64)
    return strengths


def _elo(strengths: NDArray[np.float64], anchor_index: Sequence[int]) -> NDArray[np.float64]:
    centre = float(np.mean(strengths[list(anchor_index)])) if anchor_index else 0.0
    rated: NDArray[np.float64] = CENTRE + (strengths - centre) * ELO_SCALE
    return rated


def _weighted(matches: Sequence[MatchComparisons], equal_boards: bool) -> list[Comparison]:
    """Every comparison of ``matches``, reweighted so each board counts the same in total when ``equal_boards``
    (each board's weight scaled by the mean number of matches per board over its own, so the total weight, and
    so the prior's pull, stays that of the matches)."""
    counts: dict[str, int] = {}
    for m in matches:
        counts[m.board] = counts.get(m.board, 0) + 1
    mean = sum(counts.values()) / len(counts) if counts else 1.0
    out: list[Comparison] = []
    for m in matches:
        scale = mean / counts[m.board] if equal_boards else 1.0
        out.extend(Comparison(c.first, c.second, c.score, c.weight * scale) for c in m.comparisons)
    return out


def rate(matches: Sequence[MatchComparisons], *, anchor: Collection[str] | None = None, equal_boards: bool = False,
         resamples: int = DEFAULT_RESAMPLES, seed: int = 0, prior: float = PRIOR) -> RatingFit:
    """Ratings of every player in ``matches`` with bootstrap intervals over matches (resampled within boards).

    ``anchor``: the players whose mean rating is 1000 (default: all). ``equal_boards``: every board weighs the same
    however many matches it has (the overall rating across games). An empty ``matches`` gives no rows."""
    players = sorted({p for m in matches for p in m.players})
    if not players:
        return RatingFit(rows=())
    anchored = [i for i, p in enumerate(players) if anchor is None or p in anchor]
    point = _elo(fit_strengths(_weighted(matches, equal_boards), players, prior=prior), anchored)
    by_board: dict[str, list[MatchComparisons]] = {}
    for m in matches:
        by_board.setdefault(m.board, []).append(m)
    rng = random.Random(seed)
    draws: list[NDArray[np.float64]] = []
    for _ in range(resamples):
        sample = [group[rng.randrange(len(group))] for group in by_board.values() for _ in group]
        present = {p for m in sample for p in m.players}
        strengths = fit_strengths(_weighted(sample, equal_boards), players, prior=prior)
        # a player absent from a resample has no information there: its draw is its point estimate's place
        rated = _elo(strengths, [i for i in anchored if players[i] in present] or anchored)
        for i, p in enumerate(players):
            if p not in present:
                rated[i] = point[i]
        draws.append(rated)
    played = {p: sum(1 for m in matches if p in m.players) for p in players}
    rows: list[RatedPlayer] = []
    draw_map: dict[str, tuple[float, ...]] = {}
    for i, p in enumerate(players):
        if draws:
            column = np.asarray([d[i] for d in draws])
            low, high = (float(x) for x in np.percentile(column, [2.5, 97.5]))
            draw_map[p] = tuple(float(x) for x in column)
        else:
            low = high = float(point[i])
        rows.append(RatedPlayer(player=p, rating=float(point[i]), low=min(low, float(point[i])),
                                high=max(high, float(point[i])), matches=played[p]))
    rows.sort(key=lambda r: (-r.rating, r.player))
    return RatingFit(rows=tuple(rows), draws=draw_map)
