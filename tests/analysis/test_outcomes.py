"""Outcome metrics: win rate with its 95% interval over matches, rounds, forfeits, the matches not scored and why;
one row per evaluated seat."""

from __future__ import annotations

import pytest

from playeval.analysis import MatchRow, overall_win_rates, summarize
from playeval.analysis.intervals import cluster_rate_interval, t_interval, wilson_interval
from playeval.analysis.outcomes import ABORTED, NO_RESULT, OPPONENT_FORFEIT, ROLE_FAILED, unscored_reason, unscored_text
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


def test_win_rate_has_a_wilson_interval_over_matches_and_rounds_a_t_interval() -> None:
    rows = [row("a", 0, won=True, rounds=10), row("a", 0, rounds=20), row("a", 1, won=True, rounds=6),
            row("a", 1, won=True, rounds=8)]
    [result] = summarize(rows)
    assert result.win_rate == pytest.approx(0.75) and result.variants == 2
    assert (result.win_low, result.win_high) == wilson_interval(3, 4)  # over the four matches, not two variants
    assert result.scored_matches == 4 and result.played == 4 and not result.clustered
    assert result.avg_rounds == pytest.approx(11.0)
    assert (result.rounds_low, result.rounds_high) == t_interval([10, 20, 6, 8], bounds=(0.0, float("inf")))
    assert result.tokens == 400 and result.seconds == pytest.approx(8.0)
    assert result.team is None and result.unscored == () and unscored_text(result) == "0"


def test_two_matches_split_by_prompt_give_an_interval_not_half_plus_or_minus_half() -> None:
    # the outside review's case: one win under each of two prompts read 0.50±0.50 as a spread across them
    [result] = summarize([row("a", 0, won=True), row("a", 1)])
    assert result.win_rate == 0.5 and result.scored_matches == 2
    assert result.win_low == pytest.approx(0.0945, abs=1e-4) and result.win_high == pytest.approx(0.9055, abs=1e-4)


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
    assert results[1].avg_rounds is None and results[1].win_rate == 0.0  # a forfeit is a loss, scored


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


def test_a_cell_where_nothing_was_scored_has_no_rate_and_says_why() -> None:
    # Dynamic Picnic with every match aborted because the game master's part failed: n/a, not 0.00
    failed = Outcome(status="aborted", reason="the game master's part failed: no valid example set", rounds=0)
    rows = [MatchRow(game="dynamic_picnic", level=1, model="a", seat="player", variant=0, outcome=failed, tokens=1,
                     seconds=0.1, match_id=f"m{index}") for index in range(3)]
    [result] = summarize(rows)
    assert result.win_rate is None and (result.win_low, result.win_high) == (None, None)
    assert result.scored == 0 and result.scored_matches == 0 and result.played == 3
    assert result.unscored == ((ROLE_FAILED, 3),) and unscored_text(result) == "3 role failed"
    assert result.avg_rounds is None


def test_every_reason_a_seat_is_not_scored() -> None:
    role = Outcome(status="aborted", reason="the judge (a role, not a player) gave no usable reply after format "
                                            "errors; last: no verdict", rounds=2)
    master = Outcome(status="aborted", reason="the game master wrote no rule the checks accept in 3 tries; last: x",
                     rounds=0)
    left = Outcome(status="aborted", reason="the person left the game", rounds=1)
    forfeit = Outcome(status="forfeit", reason="clue_giver forfeits", rounds=1, forfeit_seat="clue_giver")
    unresolved = Outcome(status="finished", reason="r", rounds=3,
                         results=(SeatResult(seat="guesser", won=None), SeatResult(seat="x", won=True)))
    assert [unscored_reason(outcome, "guesser") for outcome in (role, master, left, forfeit, unresolved)] == [
        ROLE_FAILED, ROLE_FAILED, ABORTED, OPPONENT_FORFEIT, NO_RESULT]
    assert unscored_reason(forfeit, "clue_giver") is None  # its own forfeit: a loss, scored
    won = Outcome(status="finished", winners=("guesser",), reason="r", rounds=3)
    assert unscored_reason(won, "guesser") is None and unscored_reason(won, "answerer") is None


def test_taboo_where_every_match_is_an_opponent_forfeit_is_not_scored_rather_than_lost() -> None:
    forfeit = Outcome(status="forfeit", reason="clue_giver forfeits after format errors", rounds=1,
                      forfeit_seat="clue_giver")
    rows = [MatchRow(game="taboo", level=1, model="a", seat="guesser", variant=0, outcome=forfeit, tokens=1,
                     seconds=0.1, match_id=f"m{index}") for index in range(3)]
    [result] = summarize(rows)
    assert result.win_rate is None and result.unscored == ((OPPONENT_FORFEIT, 3),) and result.opponent_forfeits == 3
    assert result.forfeits == 0


def test_nothing_scored_sorts_last_and_has_no_overall_rate() -> None:
    rows = [row("none", 0, forfeit="answerer"), row("weak", 0), row("strong", 0, won=True)]
    results = summarize(rows)
    assert [r.model for r in results] == ["strong", "weak", "none"]
    assert overall_win_rates(results) == {("akinator", "strong"): 1.0, ("akinator", "weak"): 0.0}


def test_a_model_in_several_seats_of_one_table_gets_the_interval_of_its_matches_not_its_seats() -> None:
    # four matches; "a" holds both red seats of each, and the two always share the team's result
    lineup = {"north": "a", "east": "b", "south": "a", "west": "b"}
    rows = [row for index, winner in enumerate(("red", "red", "red", "blue"))
            for row in seat_rows(team_outcome(winner), lineup, f"m{index}")]
    red = {(r.model, r.team): r for r in summarize(rows)}[("a", "red")]
    assert (red.wins, red.scored, red.scored_matches, red.played, red.clustered) == (6, 8, 4, 4, True)
    assert (red.win_low, red.win_high) == cluster_rate_interval([(2, 2)] * 3 + [(0, 2)])
    seat_wilson = wilson_interval(6, 8)
    assert red.win_low is not None and red.win_high is not None and seat_wilson[0] is not None
    assert red.win_high - red.win_low > seat_wilson[1] - seat_wilson[0]  # wider than eight independent seats
    assert red.avg_rounds == 3.0 and red.rounds_low == red.rounds_high == 3.0  # a match's rounds counted once
    # a model that won every table: Wilson over the 4 matches, not over the 8 seats
    won = {(r.model, r.team): r for r in summarize(
        [r for index in range(4) for r in seat_rows(team_outcome("red"), lineup, f"w{index}")])}[("a", "red")]
    assert (won.win_low, won.win_high) == wilson_interval(4, 4) != wilson_interval(8, 8)
