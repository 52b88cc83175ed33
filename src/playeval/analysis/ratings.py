"""CK-Arena's team Elo (paper section 3.4 and appendix A) for any game of two teams, computed so seat order cannot
matter.

Games are taken in play order. Every model starts at 0. In a game, a team's rating is the mean of its seats'
model ratings (a model in two seats counts twice), plus the team's offset (a side's advantage, declared by the game:
Undercover's civilians get 400·log10(2) ≈ 120.4, the Elo difference at which equal teams are expected to score 2/3,
their observed advantage). A seat's expected score is its team's Elo expectation against the other team; its
actual score is given (the game declares it: Undercover's is 0.75·won + 0.15·survival + 0.10·vote_accuracy); its
change is K(n)·(actual - expected), with K(n) = 5 + 55·exp(-⌊n/12⌋/2.5) and n the games its model had played
before this game.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

K_MIN, K_MAX, K_TAU, K_BATCH = 5.0, 60.0, 2.5, 12


@dataclass(frozen=True)
class SeatResult:
    """One seat of one game, as the rating needs it: its model, its team, whether its team won, and its actual
    score in [0, 1]."""

    model: str
    team: str
    won: bool
    actual: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.actual <= 1.0:
            raise ValueError(f"a seat's actual score must be within [0, 1], not {self.actual}")


@dataclass(frozen=True)
class TeamRule:
    """The two teams of a game and the offset each gets (0 for a team not named in ``offsets``)."""

    teams: tuple[str, str]
    offsets: Mapping[str, float] = field(default_factory=dict)

    def offset(self, team: str) -> float:
        return self.offsets.get(team, 0.0)


def k_factor(games_played: int) -> float:
    """K(n) = 5 + 55·exp(-⌊n/12⌋/2.5): 60 for a new model, decaying per batch of twelve games."""
    return K_MIN + (K_MAX - K_MIN) * math.exp(-(games_played // K_BATCH) / K_TAU)


def expected(rating: float, other: float) -> float:
    """Elo's expected score of a side rated ``rating`` against one rated ``other``."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def _check_game(game: Sequence[SeatResult], number: int, rule: TeamRule) -> None:
    teams = {seat.team for seat in game}
    if teams != set(rule.teams):
        raise ValueError(f"game {number} needs seats of both teams {' and '.join(rule.teams)}, has "
                         f"{sorted(teams) or 'no seats'}")


def _play(ratings: dict[str, float], played: dict[str, int], game: Sequence[SeatResult], rule: TeamRule) -> None:
    """Apply one game's changes, all computed from the ratings before it."""
    teams: dict[str, float] = {}
    for team in rule.teams:
        teams[team] = statistics.fmean(ratings.get(seat.model, 0.0) for seat in game if seat.team == team)
        teams[team] += rule.offset(team)
    first, second = rule.teams
    changes: dict[str, list[float]] = {}
    for seat in game:
        other = second if seat.team == first else first
        hope = expected(teams[seat.team], teams[other])
        changes.setdefault(seat.model, []).append(k_factor(played.get(seat.model, 0)) * (seat.actual - hope))
    for model, moves in changes.items():
        ratings[model] = ratings.get(model, 0.0) + statistics.fmean(moves)
        played[model] = played.get(model, 0) + 1


def team_elo(games: Sequence[Sequence[SeatResult]], rule: TeamRule) -> dict[str, float]:
    """Every model's rating after ``games`` (in play order; see the module's note). ``ValueError`` for a game
    without seats of both teams."""
    ratings: dict[str, float] = {}
    played: dict[str, int] = {}
    for number, game in enumerate(games):
        _check_game(game, number, rule)
        _play(ratings, played, game, rule)
    return ratings


@dataclass(frozen=True)
class RatedModel:
    model: str
    rating: float
    low: float
    high: float
    """The bootstrap interval's bounds (percentiles of the resampled ratings)."""
    games: int


def elo_intervals(games: Sequence[Sequence[SeatResult]], rule: TeamRule, *, resamples: int = 1000,
                  level: float = 0.95, seed: int = 0) -> list[RatedModel]:
    """The leaderboard: each model's rating with a bootstrap interval, best first. Each resample draws as many
    games as there are, with replacement, and plays them in their original order; a model absent from a resample
    has no rating in it, and its interval is taken over the resamples it played in."""
    if resamples < 1 or not 0.0 < level < 1.0:
        raise ValueError("resamples must be at least 1 and level within (0, 1)")
    ratings = team_elo(games, rule)
    counts: dict[str, int] = {}
    for game in games:
        for model in {seat.model for seat in game}:
            counts[model] = counts.get(model, 0) + 1
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {model: [] for model in ratings}
    for _ in range(resamples):
        drawn = sorted(rng.randrange(len(games)) for _ in games)
        for model, rating in team_elo([games[index] for index in drawn], rule).items():
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


def order_check(games: Sequence[Sequence[SeatResult]], rule: TeamRule) -> OrderCheck:
    """The paper's stability check: ratings from the games in play order and in reverse order."""
    forward = team_elo(games, rule)
    reverse = team_elo(list(reversed(games)), rule)
    models = sorted(forward)
    a, b = [forward[model] for model in models], [reverse[model] for model in models]
    r: float | None = None
    if len(models) >= 2 and len(set(a)) > 1 and len(set(b)) > 1:
        r = statistics.correlation(a, b)
    return OrderCheck(forward=forward, reverse=reverse, pearson_r=r,
                      largest_difference=max((abs(x - y) for x, y in zip(a, b, strict=True)), default=0.0))
