"""Bradley-Terry ratings: the fit recovers known strengths, draws and weights count as documented, and the
bootstrap over matches keeps a table's seats together."""

from __future__ import annotations

import math
import random

import pytest

from playeval.analysis.bradley_terry import (
    CENTRE,
    ELO_SCALE,
    Comparison,
    MatchComparisons,
    fit_strengths,
    rate,
)


def _simulated(strengths: dict[str, float], per_pair: int, seed: int) -> list[MatchComparisons]:
    rng = random.Random(seed)
    players = sorted(strengths)
    matches: list[MatchComparisons] = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            p = 1 / (1 + math.exp(-(strengths[a] - strengths[b])))
            for k in range(per_pair):
                won = rng.random() < p
                matches.append(MatchComparisons("g", f"{a}-{b}-{k}", (Comparison(a, b, 1.0 if won else 0.0),)))
    return matches


def test_recovers_the_order_and_the_gaps_of_known_strengths() -> None:
    truth = {"a": 1.0, "b": 0.0, "c": -1.0}
    fit = rate(_simulated(truth, 400, seed=3), resamples=0)
    assert [r.player for r in fit.rows] == ["a", "b", "c"]
    a, b, c = (fit.row(p) for p in "abc")
    assert a is not None and b is not None and c is not None
    assert a.rating - b.rating == pytest.approx(ELO_SCALE, rel=0.15)
    assert b.rating - c.rating == pytest.approx(ELO_SCALE, rel=0.15)
    assert (a.rating + b.rating + c.rating) / 3 == pytest.approx(CENTRE)


def test_a_draw_is_half_a_win_each_way() -> None:
    draws = [Comparison("x", "y", 0.5)] * 10
    strengths = fit_strengths(draws, ["x", "y"])
    assert strengths[0] == pytest.approx(strengths[1], abs=1e-6)
    one_sided = fit_strengths([Comparison("x", "y", 1.0)] * 3 + [Comparison("x", "y", 0.0)], ["x", "y"])
    assert one_sided[0] - one_sided[1] == pytest.approx(math.log(3), rel=0.02)


def test_a_perfect_record_stays_finite() -> None:
    strengths = fit_strengths([Comparison("x", "y", 1.0)] * 5, ["x", "y"])
    assert math.isfinite(strengths[0]) and strengths[0] > strengths[1]


def test_equal_boards_weigh_a_small_game_as_much_as_a_large_one() -> None:
    big = [MatchComparisons("big", f"b{k}", (Comparison("x", "y", 1.0),)) for k in range(90)]
    small = [MatchComparisons("small", f"s{k}", (Comparison("x", "y", 0.0),)) for k in range(10)]
    pooled = rate(big + small, resamples=0)
    equal = rate(big + small, resamples=0, equal_boards=True)
    assert pooled.rows[0].player == "x" and pooled.rows[0].rating > pooled.rows[1].rating + 200
    x, y = equal.row("x"), equal.row("y")
    assert x is not None and y is not None and abs(x.rating - y.rating) < 1


def test_intervals_cover_the_truth_at_about_their_nominal_rate() -> None:
    truth = {"a": 0.6, "b": 0.0}
    covered = 0
    runs = 40
    for seed in range(runs):
        fit = rate(_simulated(truth, 60, seed=seed), resamples=100, seed=seed)
        _, low, high = fit.difference("a", "b")
        covered += low <= 0.6 * ELO_SCALE <= high
    assert covered / runs >= 0.85


def test_a_table_is_resampled_as_one_match() -> None:
    """Six comparisons of one table that always go the same way: resampled as one unit, the interval is as wide as
    one match's evidence allows; resampled as six independent comparisons it would be far narrower."""
    table = [MatchComparisons("t", f"m{k}", tuple(Comparison("x", "y", float(k % 2)) for _ in range(6)))
             for k in range(8)]
    fit = rate(table, resamples=200, seed=1)
    _, low, high = fit.difference("x", "y")
    assert high - low > 400
    assert not fit.separated("x", "y")


def test_bad_comparisons_are_refused() -> None:
    with pytest.raises(ValueError, match="two players"):
        Comparison("x", "x", 1.0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        Comparison("x", "y", 2.0)
