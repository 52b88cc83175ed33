"""Where the next matches of a run that stops when its answer is known should go (``--until-separated``).

After each round the run refits the overall rating (every game weighted equally, :mod:`analysis.bradley_terry`)
and asks, for every adjacent pair of its ranking, whether the 95 % bootstrap interval of their difference excludes
0. If
every pair is separated, the run stops. Otherwise the next round is played by the models whose order is not
known yet: those of the unseparated adjacent pairs (a model separated from both its neighbours sits out, its place
settled). They play new setups together (the same game number, so they meet the same secrets), spread over the
games by Neyman allocation: a pair's overall difference is a mean over games, each estimated from ``n_g``
matches with a per-match variance ``v_g = r_a(1 - r_a) + r_b(1 - r_b)`` (``r``: their win rates there, smoothed
as ``(wins + 1) / (n + 2)``), and that mean's variance ``Σ v_g / n_g`` falls most by adding a match where
``v_g / (n_g (n_g + 1))`` is largest (``v_g`` averaged over the unseparated pairs, ``n_g`` the fewest matches
any of them played there). So a game all of them always win (or always lose), which says nothing about their
order, gets few matches, and one where they are coin flips gets many.

A uniform round (:func:`uniform_round`), every model in every game, is the comparison: the validity run reports
how many matches each needs to reach the same separation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from playeval.analysis.bradley_terry import RatingFit

_UNSEEN_VARIANCE = 0.5
"""The per-match variance a game is given for a pair that has not played it yet (the most two rates can have)."""


@dataclass(frozen=True)
class Allocation:
    """Play game number ``number`` of ``game`` with ``models`` (all of a table game's models: its rotations)."""

    game: str
    number: int
    models: tuple[str, ...]


@dataclass(frozen=True)
class PairState:
    """An adjacent pair of the overall ranking: the difference with its interval, how often the draws swap them,
    whether they are separated (the difference's interval excludes 0: ``RatingFit.separated``) and whether the
    leaderboard would still show them tied (their own intervals overlap)."""

    better: str
    worse: str
    difference: float
    low: float
    high: float
    swap: float
    separated: bool
    shown_tied: bool = False


def adjacent_pairs(fit: RatingFit, models: Sequence[str]) -> list[PairState]:
    """The adjacent pairs of ``fit``'s ranking of ``models`` (others in the fit, such as a game's stand-in
    opponent or a baseline, are left out), best first."""
    ranked = [row.player for row in fit.rows if row.player in models]
    pairs: list[PairState] = []
    for better, worse in pairwise(ranked):
        difference, low, high = fit.difference(better, worse)
        both = [(x, y) for x, y in zip(fit.draws.get(better, ()), fit.draws.get(worse, ()), strict=False)
                if math.isfinite(x) and math.isfinite(y)]
        swap = sum(1 for x, y in both if x < y) / len(both) if both else 0.5
        a, b = fit.row(better), fit.row(worse)
        pairs.append(PairState(better=better, worse=worse, difference=difference, low=low, high=high, swap=swap,
                               separated=fit.separated(better, worse),
                               shown_tied=a is not None and b is not None and a.overlaps(b)))
    return pairs


def next_round(pairs: Sequence[PairState], games: Sequence[str], table_games: Sequence[str],
               per_game_variance: Mapping[str, Mapping[tuple[str, str], float]],
               played: Mapping[str, Mapping[tuple[str, str], int]], next_number: Mapping[str, int],
               all_models: Sequence[str], size: int) -> list[Allocation]:
    """The allocations of the next round, at least one and about ``size`` matches, for the models whose order is
    not known yet (an empty list when every pair is separated).

    The models of the unseparated adjacent pairs play; a model separated from both its neighbours sits the round
    out (its place in the order is settled). Games are taken greedily by Neyman allocation (see the module's note)
    on the unseparated pairs' mean per-match variance ``per_game_variance[game][pair]`` (missing: not played) and
    the fewest matches any such pair played there, ``played[game][pair]``; ``next_number[game]``: the first game
    number not used yet. A table game's allocation seats ``all_models`` (its rotations)."""
    open_pairs = [p for p in pairs if not p.separated]
    if not open_pairs:
        return []
    keys = [(p.better, p.worse) for p in open_pairs]
    active = tuple(m for m in all_models if any(m in key for key in keys))
    counts = {g: min(played.get(g, {}).get(key, 0) for key in keys) for g in games}
    variances = {g: sum(per_game_variance.get(g, {}).get(key, _UNSEEN_VARIANCE) for key in keys) / len(keys)
                 for g in games}
    numbers = dict(next_number)
    chosen: list[Allocation] = []
    matches = 0
    while matches < size or not chosen:
        def gain(game: str) -> float:
            n = counts[game]
            return variances[game] / (n * (n + 1)) if n else float("inf")

        game = max(games, key=lambda g: (gain(g), -games.index(g)))
        models = tuple(all_models) if game in table_games else active
        chosen.append(Allocation(game=game, number=numbers.get(game, 0), models=models))
        numbers[game] = numbers.get(game, 0) + 1
        counts[game] += 1
        matches += len(models)
    return chosen


def uniform_round(games: Sequence[str], models: Sequence[str], next_number: Mapping[str, int]) -> list[Allocation]:
    """One game number of every game with every model: what a run of ``--n`` plays per game number."""
    return [Allocation(game=g, number=next_number.get(g, 0), models=tuple(models)) for g in games]
