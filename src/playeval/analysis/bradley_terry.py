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
same reasons. The fit is Newton's method in numpy with the exact gradient and Hessian; the penalised likelihood is
strictly concave, so it converges to its single optimum in a few steps.

**Intervals.** A bootstrap over *matches*: a match's comparisons (every pair of seats of a table, a player against
the game) are resampled together, within each board (``MatchComparisons.board``: a game and configuration), so
seats of one table are never treated as independent. 95 % percentile intervals of each player's rating over
``resamples`` refits; the draws are kept (:class:`RatingFit.draws`) for differences between two players. Two
players are *separated* when the interval of their difference excludes 0 (:meth:`RatingFit.separated`); the
leaderboard shows two players tied by the stricter rule that their own intervals overlap.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

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
    game: str = ""
    """The game the board belongs to (default: the board itself): the overall rating weighs games equally, a
    game's weight shared among its boards (a Set 1 and a Set 2 run of one game count as one game)."""

    @property
    def group(self) -> str:
        return self.game or self.board

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
        bootstrap draws in which both played (both ends equal the estimate when there were none)."""
        a, b = self.row(first), self.row(second)
        if a is None or b is None:
            raise KeyError(f"no rating for {first if a is None else second!r}")
        estimate = a.rating - b.rating
        da, db = np.asarray(self.draws.get(first, ())), np.asarray(self.draws.get(second, ()))
        if not da.size or da.size != db.size:
            return estimate, estimate, estimate
        diffs = (da - db)[np.isfinite(da) & np.isfinite(db)]
        if not diffs.size:
            return estimate, estimate, estimate
        low, high = np.percentile(diffs, [2.5, 97.5])
        return estimate, float(low), float(high)

    def separated(self, first: str, second: str) -> bool:
        """Whether the two players are told apart at 95 %: the interval of their difference excludes 0.

        This is the pairwise test, and the rule a run that stops when its order is known stops by. The leaderboard
        marks a tie by a stricter rule, the two players' own intervals overlapping (:meth:`RatedPlayer.overlaps`):
        each player's interval also carries the noise of the centre (the models' mean rating), which cancels in a
        difference, so a pair can be separated and still be shown tied. A run's last line says so."""
        _, low, high = self.difference(first, second)
        return low > 0 or high < 0


def fit_strengths(comparisons: Sequence[Comparison], players: Sequence[str], *,
                  prior: float = PRIOR) -> NDArray[np.float64]:
    """The maximum-likelihood strengths (logits) of ``players`` (in that order) from ``comparisons``."""
    arrays = _Arrays.of(comparisons, {p: i for i, p in enumerate(players)})
    return _fit_arrays(arrays.first, arrays.second, arrays.score, arrays.weight, len(players), prior)


@dataclass(frozen=True)
class _Arrays:
    """Comparisons as columns: player indexes, scores, weights, and the match (row of ``matches``) each came from."""

    first: NDArray[np.int64]
    second: NDArray[np.int64]
    score: NDArray[np.float64]
    weight: NDArray[np.float64]
    match: NDArray[np.int64]

    @classmethod
    def of(cls, comparisons: Sequence[Comparison], index: Mapping[str, int],
           match: Sequence[int] | None = None) -> _Arrays:
        count = len(comparisons)
        return cls(first=np.fromiter((index[c.first] for c in comparisons), dtype=np.int64, count=count),
                   second=np.fromiter((index[c.second] for c in comparisons), dtype=np.int64, count=count),
                   score=np.fromiter((c.score for c in comparisons), dtype=np.float64, count=count),
                   weight=np.fromiter((c.weight for c in comparisons), dtype=np.float64, count=count),
                   match=np.asarray(match if match is not None else [0] * count, dtype=np.int64))


def _fit_arrays(first: NDArray[np.int64], second: NDArray[np.int64], score: NDArray[np.float64],
                weight: NDArray[np.float64], n_players: int, prior: float) -> NDArray[np.float64]:
    """Newton's method on the penalised log-likelihood (concave, so one optimum), halving a step that does not
    improve it. Plain numpy on vectors and an ``n_players``-square system: no threads are started for it."""
    theta = np.zeros(n_players)

    def objective(t: NDArray[np.float64]) -> float:
        diff = t[first] - t[second]
        # log sigma(d) = -log(1 + e^-d), computed stably by logaddexp
        loglik = -(score * np.logaddexp(0.0, -diff) + (1.0 - score) * np.logaddexp(0.0, diff))
        return -float(np.sum(weight * loglik)) + 0.5 * prior * float(np.sum(t * t))

    value = objective(theta)
    for _ in range(100):
        diff = theta[first] - theta[second]
        p = 0.5 * (1.0 + np.tanh(0.5 * diff))  # sigma(d), stable at both ends
        g = weight * (p - score)
        grad: NDArray[np.float64] = (np.bincount(first, weights=g, minlength=n_players)
                                     - np.bincount(second, weights=g, minlength=n_players) + prior * theta)
        h = weight * p * (1.0 - p)
        hessian = np.diag(np.bincount(first, weights=h, minlength=n_players)
                          + np.bincount(second, weights=h, minlength=n_players) + prior)
        np.subtract.at(hessian, (first, second), h)
        np.subtract.at(hessian, (second, first), h)
        step = np.linalg.solve(hessian, grad)
        scale = 1.0
        while True:
            candidate = theta - scale * step
            new_value = objective(candidate)
            if new_value <= value + 1e-12 or scale < 1e-6:
                break
            scale *= 0.5
        theta, improvement, value = candidate, value - new_value, new_value
        if float(np.max(np.abs(scale * step))) < 1e-9 or improvement < 1e-12:
            break
    return theta


def _elo(strengths: NDArray[np.float64], anchor_index: Sequence[int]) -> NDArray[np.float64]:
    centre = float(np.mean(strengths[list(anchor_index)])) if anchor_index else 0.0
    rated: NDArray[np.float64] = CENTRE + (strengths - centre) * ELO_SCALE
    return rated


def _board_scale(matches: Sequence[MatchComparisons], counted: Sequence[bool], counts: NDArray[np.float64],
                 equal_boards: bool) -> NDArray[np.float64]:
    """Per match, the factor that makes every game weigh the same in total when ``equal_boards``, a game's weight
    shared equally among its boards; ones otherwise. A board's weight is spread over its ``counted`` matches (those
    of an anchored player, the models: a game that declares more baselines does not weigh its models' matches
    less), each drawn ``counts`` times in the sample; the scale keeps the total weight that of those matches, so the
    prior's pull stays what it was."""
    if not equal_boards:
        return np.ones(len(matches))
    per_board: dict[str, float] = defaultdict(float)
    for match, count, anchored in zip(matches, counts, counted, strict=True):
        if anchored:
            per_board[match.board] += float(count)
    boards_of: dict[str, set[str]] = defaultdict(set)
    for match in matches:
        if per_board.get(match.board):
            boards_of[match.group].add(match.board)
    total = sum(per_board.values())
    if not total or not boards_of:
        return np.ones(len(matches))
    share = total / len(boards_of)
    return np.asarray([share / len(boards_of[m.group]) / per_board[m.board] if per_board.get(m.board) else 0.0
                       for m in matches])


def rate(matches: Sequence[MatchComparisons], *, anchor: Collection[str] | None = None, equal_boards: bool = False,
         resamples: int = DEFAULT_RESAMPLES, seed: int = 0, prior: float = PRIOR) -> RatingFit:
    """Ratings of every player in ``matches`` with bootstrap intervals over matches (resampled within boards).

    ``anchor``: the players whose mean rating is 1000 (default: all). ``equal_boards``: every game weighs the same
    however many matches it has (the overall rating across games). An empty ``matches`` gives no rows.

    A resample is a count per match (how often it was drawn), so each refit reweights the same columns instead of
    building comparisons again; a player absent from a resample has no draw there (``nan``), and its interval is
    taken over the resamples it played in."""
    players = sorted({p for m in matches for p in m.players})
    if not players:
        return RatingFit(rows=())
    index = {p: i for i, p in enumerate(players)}
    flat = [c for m in matches for c in m.comparisons]
    arrays = _Arrays.of(flat, index, [k for k, m in enumerate(matches) for _ in m.comparisons])
    boards = [m.board for m in matches]
    anchored = [i for i, p in enumerate(players) if anchor is None or p in anchor]
    counted = [anchor is None or any(p in anchor for p in m.players) for m in matches]

    def fit(counts: NDArray[np.float64]) -> NDArray[np.float64]:
        per_match = counts * _board_scale(matches, counted, counts, equal_boards)
        weight = arrays.weight * per_match[arrays.match]
        keep = weight > 0
        return _fit_arrays(arrays.first[keep], arrays.second[keep], arrays.score[keep], weight[keep],
                           len(players), prior)

    point = _elo(fit(np.ones(len(matches))), anchored)
    groups: dict[str, list[int]] = defaultdict(list)
    for k, board in enumerate(boards):
        groups[board].append(k)
    membership = np.zeros((len(matches), len(players)), dtype=bool)
    membership[arrays.match, arrays.first] = True
    membership[arrays.match, arrays.second] = True
    rng = random.Random(seed)
    draws = np.empty((resamples, len(players)))
    for r in range(resamples):
        counts = np.zeros(len(matches))
        for group in groups.values():
            for _ in group:
                counts[group[rng.randrange(len(group))]] += 1
        present = (counts[:, None] * membership).sum(axis=0) > 0
        rated = _elo(fit(counts), [i for i in anchored if present[i]] or anchored)
        draws[r] = np.where(present, rated, np.nan)  # a resample without the player says nothing about it
    played = membership.sum(axis=0)
    rows: list[RatedPlayer] = []
    draw_map: dict[str, tuple[float, ...]] = {}
    for i, p in enumerate(players):
        estimate = float(point[i])
        column = draws[:, i]
        if resamples and np.isfinite(column).any():
            low, high = (float(x) for x in np.nanpercentile(column, [2.5, 97.5]))
            draw_map[p] = tuple(float(x) for x in column)
        else:
            low = high = estimate
        rows.append(RatedPlayer(player=p, rating=estimate, low=min(low, estimate), high=max(high, estimate),
                                matches=int(played[i])))
    rows.sort(key=lambda r: (-r.rating, r.player))
    return RatingFit(rows=tuple(rows), draws=draw_map)
