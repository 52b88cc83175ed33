"""Outcome metrics: win rate with its spread across prompt variants, rounds, forfeits."""

from __future__ import annotations

import pytest

from playeval.analysis import MatchRow, summarize
from playeval.core.match import Outcome


def row(model: str, variant: int, *, won: bool = False, rounds: int = 20, forfeit: str | None = None,
        status: str = "finished") -> MatchRow:
    if forfeit:
        outcome = Outcome(status="forfeit", winner=None, reason="f", rounds=rounds, forfeit_seat=forfeit)
    elif status == "aborted":
        outcome = Outcome(status="aborted", winner=None, reason="left", rounds=rounds)
    else:
        outcome = Outcome(status="finished", winner="guesser" if won else "answerer", reason="r", rounds=rounds)
    return MatchRow(game="akinator", level=1, model=model, seat="guesser", variant=variant, outcome=outcome,
                    tokens=100, seconds=2.0)


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


def test_forfeits_are_losses_but_not_rounds_and_opponent_forfeits_do_not_count() -> None:
    rows = [row("a", 0, won=True, rounds=5), row("a", 0, forfeit="guesser", rounds=0),
            row("a", 0, forfeit="answerer", rounds=3), row("a", 0, status="aborted", rounds=2)]
    [result] = summarize(rows)
    assert result.matches == 4 and result.forfeits == 1 and result.opponent_forfeits == 1
    assert result.win_rate == pytest.approx(0.5)  # one win of the two scored matches
    assert result.avg_rounds == pytest.approx(5.0)


def test_only_forfeits_leave_rounds_undefined_and_models_are_ranked() -> None:
    rows = [row("weak", 0, forfeit="guesser", rounds=0), row("strong", 0, won=True, rounds=4)]
    results = summarize(rows)
    assert [r.model for r in results] == ["strong", "weak"]
    assert results[1].avg_rounds is None and results[1].win_rate == 0.0
