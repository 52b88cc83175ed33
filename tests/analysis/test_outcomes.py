"""Outcome metrics: win rate with its spread across prompt variants, rounds, forfeits; one row per evaluated seat."""

from __future__ import annotations

import pytest

from playeval.analysis import MatchRow, overall_win_rates, summarize
from playeval.core.match import Outcome, SeatResult

TEAMS = {"north": "red", "south": "red", "east": "blue", "west": "blue"}


def row(model: str, variant: int, *, won: bool = False, rounds: int = 20, forfeit: str | None = None,
        status: str = "finished") -> MatchRow:
    if forfeit:
        outcome = Outcome(status="forfeit", reason="f", rounds=rounds, forfeit_seat=forfeit)
    elif status == "aborted":
        outcome = Outcome(status="aborted", reason="left", rounds=rounds)
    else:
        outcome = Outcome(status="finished", winners=("guesser" if won else "answerer",), reason="r", rounds=rounds)
    return MatchRow(game="akinator", level=1, model=model, seat="guesser", variant=variant, outcome=outcome,
                    tokens=100, seconds=2.0)


def team_outcome(winning: str | None, *, out: dict[str, str] | None = None, rounds: int = 3) -> Outcome:
    """A four-seat, two-team match: ``winning`` team (``None``: a draw); ``out`` seats left with a reason."""
    gone = out or {}
    results = tuple(SeatResult(seat=seat, team=team, won=team == winning, eliminated_round=2 if seat in gone else None,
                               elimination=gone.get(seat), forfeited=gone.get(seat, "").startswith("forfeit"))
                    for seat, team in TEAMS.items())
    winners = tuple(seat for seat, team in TEAMS.items() if team == winning)
    return Outcome(status="finished", winners=winners, winning_team=winning, reason="r", rounds=rounds,
                   results=results)


def seat_rows(outcome: Outcome, lineup: dict[str, str], match_id: str) -> list[MatchRow]:
    """One row per seat of a four-seat match, as ``analysis.seat_rows`` gives them."""
    return [MatchRow(game="council", level=1, model=model, seat=seat, variant=None, outcome=outcome, tokens=10,
                     seconds=1.0, match_id=match_id) for seat, model in lineup.items()]


def test_win_rate_and_its_spread_across_variants() -> None:
    rows = [row("a", 0, won=True, rounds=10), row("a", 0, rounds=20), row("a", 1, won=True, rounds=6),
            row("a", 1, won=True, rounds=8)]
    [result] = summarize(rows)
    assert result.win_rate == pytest.approx(0.75)
    # per variant: 0.5 and 1.0 -> population sd 0.25
    assert result.win_rate_std == pytest.approx(0.25)
    assert result.variants == 2
    assert result.avg_rounds == pytest.approx(11.0)
    # per variant rounds: 15 and 7 -> sd 4
    assert result.avg_rounds_std == pytest.approx(4.0)
    assert result.tokens == 400 and result.seconds == pytest.approx(8.0)
    assert result.team is None


def test_forfeits_are_losses_but_not_rounds_and_opponent_forfeits_do_not_count() -> None:
    rows = [row("a", 0, won=True, rounds=5), row("a", 0, forfeit="guesser", rounds=0),
            row("a", 0, forfeit="answerer", rounds=3), row("a", 0, status="aborted", rounds=2)]
    [result] = summarize(rows)
    assert result.matches == 4 and result.forfeits == 1 and result.opponent_forfeits == 1
    assert result.scored == 2 and result.aborted == 1
    assert result.win_rate == pytest.approx(0.5)  # one win of the two scored matches
    assert result.avg_rounds == pytest.approx(5.0)


def test_only_forfeits_leave_rounds_undefined_and_models_are_ranked() -> None:
    rows = [row("weak", 0, forfeit="guesser", rounds=0), row("strong", 0, won=True, rounds=4)]
    results = summarize(rows)
    assert [r.model for r in results] == ["strong", "weak"]
    assert results[1].avg_rounds is None and results[1].win_rate == 0.0


def test_a_four_seat_team_match_gives_a_result_per_model_and_team_and_counts_every_seat() -> None:
    # one match: "a" holds both red seats, "b" the blue ones; red wins
    rows = seat_rows(team_outcome("red"), {"north": "a", "east": "b", "south": "a", "west": "b"}, "m1")
    results = summarize(rows)
    assert [(r.model, r.team, r.matches, r.scored, r.wins) for r in results] == [
        ("a", "red", 2, 2, 2), ("b", "blue", 2, 2, 0)]  # a model in two seats of one match counts twice
    assert results[0].tokens == 20 and results[0].avg_rounds == 3.0


def test_teams_are_kept_apart_and_taken_together_on_request() -> None:
    lineup_one = {"north": "a", "east": "b", "south": "a", "west": "b"}
    lineup_two = {"north": "b", "east": "a", "south": "b", "west": "a"}
    rows = [*seat_rows(team_outcome("red"), lineup_one, "m1"), *seat_rows(team_outcome("red"), lineup_two, "m2"),
            *seat_rows(team_outcome(None), lineup_one, "m3")]
    by_team = {(r.model, r.team): (r.matches, r.wins) for r in summarize(rows)}
    assert by_team == {("a", "red"): (4, 2), ("a", "blue"): (2, 0), ("b", "red"): (2, 2), ("b", "blue"): (4, 0)}
    together = summarize(rows, by_team=False)
    assert {r.model: (r.team, r.matches, r.scored, r.wins) for r in together} == {"a": (None, 6, 6, 2),
                                                                                 "b": (None, 6, 6, 2)}
    assert [r.win_rate for r in together] == [pytest.approx(1 / 3)] * 2
    assert overall_win_rates(summarize(rows)) == {("council", "a"): pytest.approx(1 / 3),
                                                  ("council", "b"): pytest.approx(1 / 3)}


def test_a_seat_that_forfeits_loses_even_when_its_team_wins() -> None:
    outcome = team_outcome("red", out={"south": "forfeit: ran out of re-asks", "east": "voted out with 2 votes"})
    rows = seat_rows(outcome, {"north": "a", "east": "b", "south": "c", "west": "b"}, "m1")
    results = {r.model: r for r in summarize(rows)}
    assert (results["a"].wins, results["a"].forfeits) == (1, 0)
    assert (results["c"].wins, results["c"].scored, results["c"].forfeits, results["c"].win_rate) == (0, 1, 1, 0.0)
    assert (results["b"].wins, results["b"].scored, results["b"].forfeits) == (0, 2, 0)  # voted out: a loss, no forfeit
    assert [r.won for r in rows] == [True, False, False, False]


def test_aborted_and_opponent_forfeit_seats_are_not_scored_in_a_team_game() -> None:
    lineup = {"north": "a", "east": "b", "south": "a", "west": "b"}
    aborted = Outcome(status="aborted", reason="left", rounds=1)
    forfeit = Outcome(status="forfeit", reason="north ran out of re-asks", rounds=2, forfeit_seat="north")
    rows = [*seat_rows(aborted, lineup, "m1"), *seat_rows(forfeit, lineup, "m2"),
            *seat_rows(team_outcome("blue"), lineup, "m3")]
    results = {r.model: r for r in summarize(rows, by_team=False)}
    a, b = results["a"], results["b"]
    assert (a.matches, a.scored, a.aborted, a.forfeits, a.opponent_forfeits, a.wins) == (6, 3, 2, 1, 1, 0)
    assert (b.matches, b.scored, b.aborted, b.forfeits, b.opponent_forfeits, b.wins) == (6, 2, 2, 0, 2, 2)
    assert b.win_rate == 1.0 and a.win_rate == 0.0
    assert a.avg_rounds == 3.0  # only the match the rules finished
