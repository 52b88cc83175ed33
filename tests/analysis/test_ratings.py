"""CK-Arena's team Elo, as Undercover declares it: the paper's formulas, checked by hand, and independence of seat
order."""

from __future__ import annotations

import itertools
import math
import random
import statistics

import pytest

from playeval.analysis.ratings import (
    SeatResult,
    TeamRule,
    elo_intervals,
    expected,
    k_factor,
    order_check,
    team_elo,
)
from playeval.analysis.sides import elo_rule
from playeval.core.info import TWO_THIRDS_OFFSET, TeamAnalysis, TeamElo, TeamInfo
from playeval.games.undercover import CIVILIAN, UNDERCOVER, Undercover

assert Undercover.teams is not None
RULE = elo_rule(Undercover.teams)
CIVILIAN_OFFSET = RULE.offset(CIVILIAN)


def undercover_elo(games: list[list[SeatResult]]) -> dict[str, float]:
    return team_elo(games, RULE)


def _seat(model: str, team: str, won: bool, survival: float, votes: float) -> SeatResult:
    return SeatResult(model=model, team=team, won=won, actual=0.75 * won + 0.15 * survival + 0.10 * votes)


def civ(model: str, won: bool, survival: float = 1.0, votes: float = 1.0) -> SeatResult:
    return _seat(model, CIVILIAN, won, survival, votes)


def und(model: str, won: bool, survival: float = 1.0, votes: float = 1.0) -> SeatResult:
    return _seat(model, UNDERCOVER, won, survival, votes)


def test_undercover_declares_the_papers_rule() -> None:
    assert Undercover.teams is not None and Undercover.teams.elo is not None
    assert RULE == TeamRule(teams=(CIVILIAN, UNDERCOVER), offsets={CIVILIAN: TWO_THIRDS_OFFSET, UNDERCOVER: 0.0})
    assert dict(Undercover.teams.elo.weights) == {"won": 0.75, "survival": 0.15, "vote_accuracy": 0.10}


def test_the_offset_makes_equal_civilians_expect_two_thirds_and_k_decays_per_twelve_games() -> None:
    assert CIVILIAN_OFFSET == pytest.approx(120.41, abs=0.01)
    assert expected(CIVILIAN_OFFSET, 0.0) == pytest.approx(2 / 3)
    assert k_factor(0) == k_factor(11) == 60.0
    assert k_factor(12) == pytest.approx(5 + 55 * math.exp(-1 / 2.5))
    assert k_factor(144) == pytest.approx(5 + 55 * math.exp(-12 / 2.5)) and k_factor(144) < 5.5


def test_one_game_worked_by_hand() -> None:
    # new models: K = 60; civilians expect 2/3, the undercover 1/3
    game = [civ("A", True), civ("A", True), civ("B", True, 0.0, 0.5), civ("B", True, 0.0, 0.5),
            und("C", False, 0.0, 0.0), und("C", False, 1.0, 0.0)]
    ratings = undercover_elo([game])
    assert ratings["A"] == pytest.approx(60 * (1.0 - 2 / 3))  # 20: every seat scored 1
    assert ratings["B"] == pytest.approx(60 * (0.75 + 0.05 - 2 / 3))  # 8: won, died, half its votes right
    assert ratings["C"] == pytest.approx(60 * (statistics.fmean([0.0, 0.15]) - 1 / 3))  # the mean of its seats


def test_the_second_game_uses_the_team_means_of_the_ratings_before_it() -> None:
    first = [civ("A", True), civ("A", True), civ("A", True), civ("A", True), und("B", False, 0, 0),
             und("B", False, 0, 0)]
    second = [civ("B", False, 0, 0), civ("B", False, 0, 0), civ("A", False, 0, 0), civ("A", False, 0, 0),
              und("A", True), und("B", True)]
    a, b = 20.0, -20.0
    ratings = undercover_elo([first, second])
    civilians, undercover = (a + b) / 2 + CIVILIAN_OFFSET, (a + b) / 2
    hope_civ, hope_und = expected(civilians, undercover), expected(undercover, civilians)
    assert ratings["A"] == pytest.approx(a + 60 * statistics.fmean([-hope_civ, -hope_civ, 1 - hope_und]))
    assert ratings["B"] == pytest.approx(b + 60 * statistics.fmean([-hope_civ, -hope_civ, 1 - hope_und]))


def test_seat_order_inside_a_game_changes_nothing() -> None:
    rng = random.Random(3)
    models = ["m1", "m2", "m3", "m4"]
    games = []
    for _ in range(30):
        seats = [civ(rng.choice(models), rng.random() < 0.6, rng.random(), rng.random()) for _ in range(4)]
        seats += [und(rng.choice(models), rng.random() < 0.4, rng.random(), rng.random()) for _ in range(2)]
        games.append(seats)
    base = undercover_elo(games)
    for permutation in itertools.islice(itertools.permutations(range(6)), 0, 720, 97):
        shuffled = [[game[index] for index in permutation] for game in games]
        assert undercover_elo(shuffled) == pytest.approx(base)


def test_a_model_in_several_seats_counts_one_game() -> None:
    filler = [civ("A", True), civ("A", True), civ("A", True), civ("A", True), und("B", False, 0, 0),
              und("B", False, 0, 0)]
    twelve = undercover_elo([filler] * 12)
    last = [civ("A", True), civ("C", True), civ("C", True), civ("C", True), und("B", False, 0, 0),
            und("D", False, 0, 0)]
    ratings = undercover_elo([*[filler] * 12, last])
    civilians = statistics.fmean([twelve["A"], 0.0, 0.0, 0.0]) + CIVILIAN_OFFSET
    undercover = statistics.fmean([twelve["B"], 0.0])
    # A held four seats in each of twelve games: it has played 12 games (K(12)), not 48 (K(48))
    assert ratings["A"] == pytest.approx(twelve["A"] + k_factor(12) * (1 - expected(civilians, undercover)))
    assert k_factor(12) != k_factor(48)
    assert ratings["C"] == pytest.approx(60 * (1 - expected(civilians, undercover)))  # a new model: K = 60


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="both teams"):
        undercover_elo([[civ("A", True), civ("B", True)]])
    with pytest.raises(ValueError, match="actual score"):
        civ("A", True, survival=1.5, votes=1.0)
    with pytest.raises(ValueError, match="add up to 1"):
        TeamElo(weights=(("won", 0.5),))
    with pytest.raises(ValueError, match="exactly two teams"):
        TeamAnalysis(teams=tuple(TeamInfo(name=n, label=n) for n in "abc"), elo=TeamElo())
    with pytest.raises(ValueError, match="undeclared measures: survival"):
        TeamAnalysis(teams=(TeamInfo(name="a", label="a"), TeamInfo(name="b", label="b")),
                     elo=TeamElo(weights=(("won", 0.5), ("survival", 0.5))))


def test_a_team_without_an_offset_is_plain_elo() -> None:
    plain = TeamRule(teams=("red", "blue"))
    game = [SeatResult("A", "red", True, 1.0), SeatResult("B", "blue", False, 0.0)]
    assert team_elo([game], plain) == pytest.approx({"A": 30.0, "B": -30.0})  # both expect 1/2, K = 60


def test_the_leaderboard_has_bootstrap_intervals_around_the_ratings_and_the_order_check() -> None:
    rng = random.Random(7)
    strength = {"strong": 0.8, "middle": 0.5, "weak": 0.2}
    games = []
    for _ in range(120):
        seats = rng.sample(list(strength) * 2, 6)
        civilians, undercover = seats[:4], seats[4:]
        civ_power = sum(strength[m] for m in civilians) / 4
        und_power = sum(strength[m] for m in undercover) / 2
        civ_won = rng.random() < 0.5 + civ_power - und_power
        games.append([civ(m, civ_won, rng.random(), strength[m]) for m in civilians]
                     + [und(m, not civ_won, rng.random(), strength[m]) for m in undercover])
    board = elo_intervals(games, RULE, resamples=200, seed=1)
    assert [row.model for row in board] == ["strong", "middle", "weak"]
    assert all(row.low <= row.rating <= row.high and row.low < row.high for row in board)
    assert all(row.games == sum(1 for game in games if any(s.model == row.model for s in game)) for row in board)
    check = order_check(games, RULE)
    assert check.forward == pytest.approx(undercover_elo(games))
    assert check.pearson_r is not None and check.pearson_r > 0.9
    assert check.largest_difference == pytest.approx(max(abs(check.forward[m] - check.reverse[m])
                                                         for m in strength))
    assert check.largest_difference > 0  # the orders differ, so the ratings do
