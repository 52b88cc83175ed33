"""The report and the command line name a match's result the same way (an outside review found every lost
guess-the-rule match labelled "draw" in the report while the command line said "lost")."""

from __future__ import annotations

from playeval.cli.console import outcome_label
from playeval.core.match import Outcome, SeatResult
from playeval.report.build import result_label


def test_a_match_its_only_player_lost_is_a_loss_in_both() -> None:
    lost = Outcome(status="finished", rounds=5, reason="no accepted guess within 20 turns",
                   results=(SeatResult(seat="player", won=False, score=0.1),))
    assert not lost.drawn
    assert result_label(lost, "player") == "loss" and outcome_label(lost, "player") == "lost"


def test_a_match_nobody_won_and_no_seat_was_scored_is_a_draw_in_both() -> None:
    drawn = Outcome(status="finished", rounds=3, reason="both ran out of turns")
    assert drawn.drawn
    assert result_label(drawn, "a") == "draw" and outcome_label(drawn, "a") == "draw"
    won = Outcome(status="finished", rounds=3, winners=("a",), reason="a guessed it")
    assert not won.drawn and result_label(won, "b") == "loss" and outcome_label(won, "a") == "won"


def test_a_table_that_nobody_won_is_a_draw_even_with_each_seats_result() -> None:
    """A team game's draw gives every seat a result (none won): a draw, not a loss for each."""
    drawn = Outcome(status="finished", rounds=4, reason="a draw: the votes tied",
                    results=(SeatResult(seat="north", team="red", won=False),
                             SeatResult(seat="south", team="blue", won=False)))
    assert drawn.drawn and result_label(drawn, "north") == "draw" and outcome_label(drawn, "south") == "draw"
