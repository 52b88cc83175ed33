"""What the overall rating weighs, and what tells boards apart: games weigh the same however many boards or
baselines they have; a held-out secret set and another opponent are boards of their own."""

from __future__ import annotations

import random

from playeval.analysis.boards import board_key, opponent_players
from playeval.analysis.bradley_terry import Comparison, MatchComparisons, rate
from playeval.core.events import SeatAssignment
from playeval.core.registry import default_registry

MODELS = {"a", "b"}


def _vs_game(board: str, game: str, player: str, won: bool, k: int) -> MatchComparisons:
    return MatchComparisons(board=board, match=f"{board}-{player}-{k}", game=game,
                            comparisons=(Comparison(player, f"game:{board}", 1.0 if won else 0.0),))


def _game(board: str, game: str, a_wins: int, b_wins: int, n: int = 10) -> list[MatchComparisons]:
    return ([_vs_game(board, game, "a", k < a_wins, k) for k in range(n)]
            + [_vs_game(board, game, "b", k < b_wins, k) for k in range(n)])


def _gap(matches: list[MatchComparisons]) -> float:
    fit = rate(matches, anchor=MODELS, equal_boards=True, resamples=0)
    a, b = fit.row("a"), fit.row("b")
    assert a is not None and b is not None
    return a.rating - b.rating


def test_baseline_matches_do_not_change_the_models_weights() -> None:
    base = _game("g1", "g1", 8, 2) + _game("g2", "g2", 3, 7)
    baselines = [_vs_game("g1", "g1", f"baseline/{name}", k % 2 == 0, k) for name in ("random", "naive", "passive")
                 for k in range(10)]
    assert abs(_gap(base) - _gap(base + baselines)) < 1e-6


def test_a_game_with_two_boards_weighs_as_one_game() -> None:
    one = _game("g1", "g1", 8, 2) + _game("g2", "g2", 3, 7)
    split = (_game("g1 [set=set1]", "g1", 8, 2) + _game("g1 [set=set2]", "g1", 8, 2)
             + _game("g2", "g2", 3, 7))
    assert abs(_gap(one) - _gap(split)) < 1.0


def test_a_named_set_the_spec_does_not_record_is_a_board_of_its_own() -> None:
    game = default_registry().get("undercover")
    params = game.new_spec(1, 3, random.Random(3), secret_set="half1").params
    first = board_key(game, level=1, params=params, secret_set="half1")
    second = board_key(game, level=1, params=params, secret_set="half2")
    assert first != second and first.secret_set == "half1"


def test_the_opponent_is_part_of_the_board() -> None:
    game = default_registry().get("akinator")
    scripted = (SeatAssignment(seat="guesser", player_kind="llm", model="mock/a"),
                SeatAssignment(seat="answerer", player_kind="scripted"))
    model = (SeatAssignment(seat="guesser", player_kind="llm", model="mock/a"),
             SeatAssignment(seat="answerer", player_kind="llm", model="local/x"))
    keys = [board_key(game, level=1, params={}, opponents=opponent_players(seats, {"guesser"}))
            for seats in (scripted, model)]
    assert keys[0] != keys[1]
    assert ("answerer seat", "scripted") in keys[0].roles and ("answerer seat", "local/x") in keys[1].roles


def test_a_model_below_the_random_baseline_is_marked_below_chance() -> None:
    from playeval.analysis.boards import Boards
    from playeval.analysis.leaderboard import board_lines, build_leaderboard
    from playeval.analysis.played import PlayedMatch, PlayedSeat
    from playeval.core.match import Outcome, SeatResult

    def played(player: str, won: bool, k: int) -> PlayedMatch:
        key = board_key(default_registry().get("bluffing"), level=1, params={})
        outcome = Outcome(status="finished", reason="verdict", rounds=1,
                          winners=("questioner",) if won else (),
                          results=(SeatResult(seat="questioner", won=won),))
        return PlayedMatch(id=f"{player}-{k}", board=key, outcome=outcome,
                           seats=(PlayedSeat(seat="questioner", kind="llm", model=player, evaluated=True),),
                           source="run", copy=None, order=("t", f"{player}-{k}"))

    matches = [played("mock/bad", False, k) for k in range(30)]
    matches += [played("baseline/random", k % 2 == 0, k) for k in range(30)]
    board = build_leaderboard(matches, Boards(default_registry()), resamples=20)
    result = board.boards[0]
    assert result.below_chance == ("mock/bad",) and result.not_above_chance == ()
    assert any(line.player == "mock/bad" and "below" in line.mark for line in board_lines(result))
    assert board.to_json()["below_chance"] == {result.name: ["mock/bad"]}
