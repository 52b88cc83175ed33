"""The next round of a run that stops when its order is known goes to the least certain pair, in the games that
tell most about it."""

from __future__ import annotations

from playeval.analysis.allocation import Allocation, adjacent_pairs, next_round, uniform_round
from playeval.analysis.bradley_terry import RatedPlayer, RatingFit


def _fit() -> RatingFit:
    rows = (RatedPlayer("a", 1200, 1150, 1250, 10), RatedPlayer("b", 1000, 950, 1050, 10),
            RatedPlayer("game:x", 990, 900, 1100, 20), RatedPlayer("c", 980, 930, 1030, 10))
    draws = {"a": (1200.0,) * 10, "b": tuple(1000.0 + d for d in (-30, -20, -10, 0, 10, 20, 30, 40, 50, 60)),
             "c": (980.0,) * 10, "game:x": (990.0,) * 10}
    return RatingFit(rows=rows, draws=draws)


def test_pairs_skip_players_that_are_not_models() -> None:
    pairs = adjacent_pairs(_fit(), ["a", "b", "c"])
    assert [(p.better, p.worse) for p in pairs] == [("a", "b"), ("b", "c")]
    assert pairs[0].separated and not pairs[1].separated
    assert pairs[1].swap == 0.1


def test_the_round_goes_to_the_open_pair_and_the_widest_game() -> None:
    pairs = adjacent_pairs(_fit(), ["a", "b", "c"])
    widths = {"g1": {("b", "c"): 100.0}, "g2": {("b", "c"): 400.0}}
    played = {"g1": {("b", "c"): 4}, "g2": {("b", "c"): 4}}
    chosen = next_round(pairs, ["g1", "g2"], [], widths, played, {"g1": 7, "g2": 3}, ["a", "b", "c"], size=4)
    assert chosen == [Allocation("g2", 3, ("b", "c")), Allocation("g2", 4, ("b", "c"))]


def test_a_table_game_seats_every_model() -> None:
    pairs = adjacent_pairs(_fit(), ["a", "b", "c"])
    chosen = next_round(pairs, ["uc"], ["uc"], {}, {}, {}, ["a", "b", "c"], size=1)
    assert chosen == [Allocation("uc", 0, ("a", "b", "c"))]


def test_nothing_when_every_pair_is_separated() -> None:
    rows = (RatedPlayer("a", 1200, 1150, 1250, 10), RatedPlayer("b", 1000, 950, 1050, 10))
    fit = RatingFit(rows=rows, draws={"a": (1200.0,) * 5, "b": (1000.0,) * 5})
    assert next_round(adjacent_pairs(fit, ["a", "b"]), ["g"], [], {}, {}, {}, ["a", "b"], size=4) == []


def test_uniform_round() -> None:
    assert uniform_round(["g", "h"], ["a", "b"], {"h": 2}) == [Allocation("g", 0, ("a", "b")),
                                                              Allocation("h", 2, ("a", "b"))]
