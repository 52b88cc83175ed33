"""A run's rankings for comparison: ties are counted, a ranking of nothing but ties is left out, and a model
that played for several teams is ranked once, by its win rate over all its seats."""

from __future__ import annotations

from playeval.analysis import ModelResult, run_rankings
from playeval.core.registry import default_registry


def _result(game: str, model: str, wins: int, scored: int = 3, team: str | None = None) -> ModelResult:
    return ModelResult(game=game, model=model, matches=scored, wins=wins, win_rate=wins / scored if scored else None,
                       variants=1, avg_rounds=None, forfeits=0,
                       opponent_forfeits=0, tokens=0, seconds=0.0, scored=scored, team=team)


def test_all_tied_rankings_are_left_out_and_partial_ties_counted() -> None:
    wins = {"akinator": (0, 0, 0), "bluffing": (2, 2, 3), "taboo": (0, 1, 2)}
    results = [_result(game, f"local/{model}", won) for game, values in wins.items()
               for model, won in zip("abc", values, strict=True)]
    rankings = run_rankings(results, [], default_registry())
    assert "Akinator-Outcome" not in rankings  # 0.00 for everyone: an alphabetical order, nothing to compare
    assert rankings["Bluffing-Outcome"].order == ["local/c", "local/a", "local/b"]
    assert rankings["Bluffing-Outcome"].tied_pairs == 1  # a before b only by name
    assert rankings["Taboo-Outcome"].order == ["local/c", "local/b", "local/a"]
    assert rankings["Taboo-Outcome"].tied_pairs == 0


def test_a_model_is_ranked_by_its_win_rate_across_teams() -> None:
    # a: 1 of 1 as red but 0 of 3 as blue (0.25 overall); b: 2 of 4 as red (0.5); c: 1 of 2 as blue, 0 of 3 as
    # red (0.2). Ranked by its best team, a would come first; by its rows, a model would appear twice.
    results = [_result("council", "a", 1, 1, "red"), _result("council", "a", 0, 3, "blue"),
               _result("council", "b", 2, 4, "red"), _result("council", "c", 1, 2, "blue"),
               _result("council", "c", 0, 3, "red")]
    ranking = run_rankings(results, [], default_registry())["Council-Outcome"]
    assert ranking.order == ["b", "a", "c"] and ranking.tied_pairs == 0
