"""CK-Arena's team Elo for Undercover (paper section 3.4 and appendix A), computed so seat order cannot matter.

Games are taken in play order. Every model starts at 0. In a game, a team's rating is the mean of its seats'
model ratings (a model in two seats counts twice), and the civilians get the offset ``CIVILIAN_OFFSET`` =
400·log10(2) ≈ 120.4, the Elo difference at which equal teams are expected to score 2/3, the civilians' observed
advantage. A seat's expected score is its team's Elo expectation against the other team; its actual score is
0.75·won + 0.15·survival + 0.10·vote_accuracy; its change is K(n)·(actual - expected), with
K(n) = 5 + 55·exp(-⌊n/12⌋/2.5) and n the games its model had played before this game.

Unlike the seed's code, which updated the players one after another inside a game (so a later seat saw the earlier
seats' new ratings and seat order changed the result), every change of a game is computed from the ratings before
it, and a model in several seats moves by the mean of its seats' changes and counts one game.

``elo_intervals`` adds bootstrap intervals (games resampled with replacement, kept in play order) and
``order_check`` the paper's stability check: the ratings from the games in play order against those from the
reversed order, with their Pearson correlation and the largest difference.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

CIVILIAN: Final = "civilian"
UNDERCOVER: Final = "undercover"
Role = Literal["civilian", "undercover"]

CIVILIAN_OFFSET = 400 * math.log10(2)
"""Elo points added to the civilians' team rating: equal teams then expect 2/3 for the civilians."""
WEIGHTS = (0.75, 0.15, 0.10)
"""(won, survival, vote accuracy) in a seat's actual score."""
K_MIN, K_MAX, K_TAU, K_BATCH = 5.0, 60.0, 2.5, 12


@dataclass(frozen=True)
class SeatResult:
    """One seat of one Undercover game, as the rating needs it (all three measures in [0, 1])."""

    model: str
    role: Role
    won: bool
    survival: float
    vote_accuracy: float

    def __post_init__(self) -> None:
        if self.role not in (CIVILIAN, UNDERCOVER):
            raise ValueError(f"role must be {CIVILIAN!r} or {UNDERCOVER!r}, not {self.role!r}")
        for name in ("survival", "vote_accuracy"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be within [0, 1], not {value}")

    @property
    def actual(self) -> float:
        won, survival, votes = WEIGHTS
        return won * float(self.won) + survival * self.survival + votes * self.vote_accuracy


def k_factor(games_played: int) -> float:
    """K(n) = 5 + 55·exp(-⌊n/12⌋/2.5): 60 for a new model, decaying per batch of twelve games."""
    return K_MIN + (K_MAX - K_MIN) * math.exp(-(games_played // K_BATCH) / K_TAU)


def expected(rating: float, other: float) -> float:
    """Elo's expected score of a side rated ``rating`` against one rated ``other``."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def _check_game(game: Sequence[SeatResult], number: int) -> None:
    roles = {seat.role for seat in game}
    if roles != {CIVILIAN, UNDERCOVER}:
        raise ValueError(f"game {number} needs seats of both roles, has {sorted(roles) or 'no seats'}")


def _play(ratings: dict[str, float], played: dict[str, int], game: Sequence[SeatResult]) -> None:
    """Apply one game's changes, all computed from the ratings before it."""
    teams: dict[str, float] = {}
    for role in (CIVILIAN, UNDERCOVER):
        teams[role] = statistics.fmean(ratings.get(seat.model, 0.0) for seat in game if seat.role == role)
    teams[CIVILIAN] += CIVILIAN_OFFSET
    changes: dict[str, list[float]] = {}
    for seat in game:
        other = UNDERCOVER if seat.role == CIVILIAN else CIVILIAN
        hope = expected(teams[seat.role], teams[other])
        changes.setdefault(seat.model, []).append(k_factor(played.get(seat.model, 0)) * (seat.actual - hope))
    for model, moves in changes.items():
        ratings[model] = ratings.get(model, 0.0) + statistics.fmean(moves)
        played[model] = played.get(model, 0) + 1


def undercover_elo(games: Sequence[Sequence[SeatResult]]) -> dict[str, float]:
    """Every model's rating after ``games`` (in play order; see the module's note). ``ValueError`` for a game
    without both roles or a seat with a measure outside [0, 1]."""
    ratings: dict[str, float] = {}
    played: dict[str, int] = {}
    for number, game in enumerate(games):
        _check_game(game, number)
        _play(ratings, played, game)
    return ratings


@dataclass(frozen=True)
class RatedModel:
    model: str
    rating: float
    low: float
    high: float
    """The bootstrap interval's bounds (percentiles of the resampled ratings)."""
    games: int


def elo_intervals(games: Sequence[Sequence[SeatResult]], *, resamples: int = 1000, level: float = 0.95,
                  seed: int = 0) -> list[RatedModel]:
    """The leaderboard: each model's rating with a bootstrap interval, best first. Each resample draws as many
    games as there are, with replacement, and plays them in their original order; a model absent from a resample
    has no rating in it, and its interval is taken over the resamples it played in."""
    if resamples < 1 or not 0.0 < level < 1.0:
        raise ValueError("resamples must be at least 1 and level within (0, 1)")
    ratings = undercover_elo(games)
    counts: dict[str, int] = {}
    for game in games:
        for model in {seat.model for seat in game}:
            counts[model] = counts.get(model, 0) + 1
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {model: [] for model in ratings}
    for _ in range(resamples):
        drawn = sorted(rng.randrange(len(games)) for _ in games)
        for model, rating in undercover_elo([games[index] for index in drawn]).items():
            samples[model].append(rating)
    rows: list[RatedModel] = []
    tail = (1.0 - level) / 2.0
    for model, rating in ratings.items():
        values = sorted(samples[model])
        low = values[min(len(values) - 1, int(tail * len(values)))] if values else rating
        high = values[max(0, math.ceil((1.0 - tail) * len(values)) - 1)] if values else rating
        rows.append(RatedModel(model=model, rating=rating, low=low, high=high, games=counts[model]))
    return sorted(rows, key=lambda row: (-row.rating, row.model))


@dataclass(frozen=True)
class OrderCheck:
    forward: dict[str, float]
    reverse: dict[str, float]
    pearson_r: float | None
    """``None`` with fewer than two models or no spread in either order."""
    largest_difference: float


def order_check(games: Sequence[Sequence[SeatResult]]) -> OrderCheck:
    """The paper's stability check: ratings from the games in play order and in reverse order."""
    forward = undercover_elo(games)
    reverse = undercover_elo(list(reversed(games)))
    models = sorted(forward)
    a, b = [forward[model] for model in models], [reverse[model] for model in models]
    r: float | None = None
    if len(models) >= 2 and len(set(a)) > 1 and len(set(b)) > 1:
        r = statistics.correlation(a, b)
    return OrderCheck(forward=forward, reverse=reverse, pearson_r=r,
                      largest_difference=max((abs(x - y) for x, y in zip(a, b, strict=True)), default=0.0))
