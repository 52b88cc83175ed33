"""A run's rankings for comparison: ties are counted, and a ranking of nothing but ties is left out."""

from __future__ import annotations

from playeval.analysis import ModelResult, run_rankings


def _result(game: str, model: str, win_rate: float) -> ModelResult:
    return ModelResult(game=game, model=model, matches=3, wins=round(win_rate * 3), win_rate=win_rate,
                       win_rate_std=0.0, variants=1, avg_rounds=None, avg_rounds_std=None, forfeits=0,
                       opponent_forfeits=0, tokens=0, seconds=0.0)


def test_all_tied_rankings_are_left_out_and_partial_ties_counted() -> None:
    rates = {"akinator": (0.0, 0.0, 0.0), "bluffing": (2 / 3, 2 / 3, 1.0), "taboo": (0.0, 1 / 3, 2 / 3)}
    results = [_result(game, f"local/{model}", rate) for game, values in rates.items()
               for model, rate in zip("abc", values, strict=True)]
    rankings = run_rankings(results, [])
    assert "Akinator-Outcome" not in rankings  # 0.00 for everyone: an alphabetical order, nothing to compare
    assert rankings["Bluffing-Outcome"].order == ["local/c", "local/a", "local/b"]
    assert rankings["Bluffing-Outcome"].tied_pairs == 1  # a before b only by name
    assert rankings["Taboo-Outcome"].order == ["local/c", "local/b", "local/a"]
    assert rankings["Taboo-Outcome"].tied_pairs == 0
