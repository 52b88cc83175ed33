"""A run's rankings for comparison: ties are counted, a ranking of nothing but ties is left out, a model that
played for several teams is ranked once, by its win rate over all its seats; and a comparison that cannot be told
from chance (too few models, too few matches per model) is refused with the reason."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from playeval.analysis import MatchRow, ModelResult, compare, load_rankings, run_rankings, scored_matches
from playeval.core.errors import ConfigError
from playeval.core.match import Outcome, OutcomeStatus
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


def test_three_models_in_the_same_order_are_refused_not_significant() -> None:
    # The reported case: three models ranked alike from one match each printed p = 0.04. Now refused, saying why.
    order = ["local/qwen2.5-coder-1.5b", "local/gemma-3-270m", "local/smollm2-135m"]
    found = compare({"Bluffing-Outcome": order}, {"parameters": order},
                    matches={"Bluffing-Outcome": dict.fromkeys(order, 1)})
    assert found.rows == [] and (found.needed_models, found.needed_matches) == (4, 4)
    [refusal] = found.refused
    assert (refusal.ours, refusal.theirs) == ("Bluffing-Outcome", "parameters")
    assert "share 3 models; at least 4 are needed" in refusal.reason and "p = 1/6" in refusal.reason


def test_too_few_matches_per_model_are_refused_naming_the_model_and_the_need() -> None:
    order = ["a", "b", "c", "d"]
    played = {"a": 5, "b": 3, "c": 6, "d": 4}
    found = compare({"Taboo-Outcome": order}, {"x": order}, matches={"Taboo-Outcome": played})
    assert found.rows == []
    assert found.refused[0].reason.startswith("Taboo-Outcome: b has 3 scored matches; at least 4 per model")
    one = compare({"Taboo-Outcome": order}, {"x": order}, matches={"Taboo-Outcome": {**played, "b": 1}})
    assert "b has 1 scored match;" in one.refused[0].reason


def test_enough_models_and_matches_are_compared_with_the_exact_test() -> None:
    order = ["a", "b", "c", "d", "e"]
    theirs = {"same": order, "one swap": ["a", "c", "b", "d", "e"], "two shared": ["a", "b", "zz"]}
    found = compare({"Akinator-Outcome": order}, theirs, matches={"Akinator-Outcome": dict.fromkeys(order, 4)})
    rows = {row.theirs: row for row in found.rows}
    assert set(rows) == {"same", "one swap"}
    assert rows["same"].p == pytest.approx(1 / 120) and rows["same"].method == "exact"
    assert rows["one swap"].tau == pytest.approx(0.8) and rows["one swap"].p == pytest.approx(5 / 120)
    assert rows["same"].fewest_matches == 4
    assert [r.theirs for r in found.refused] == ["two shared"]  # two models: refused; none shared: left out
    # a ranking from elsewhere carries no counts: not checked for matches
    assert compare({"file": order}, {"same": order}).rows[0].fewest_matches is None


def test_run_rankings_carry_the_matches_each_model_played() -> None:
    results = [_result("taboo", m, w, scored=s) for m, w, s in (("a", 1, 2), ("b", 2, 5), ("c", 0, 6))]
    seats = run_rankings(results, [], default_registry())["Taboo-Outcome"]
    assert seats.matches == {"a": 2, "b": 5, "c": 6}  # without match counts, the scored seats
    counted = run_rankings(results, [], default_registry(),
                           matches={("taboo", "a"): 1, ("taboo", "b"): 4, ("taboo", "c"): 3, ("bluffing", "a"): 9})
    assert counted["Taboo-Outcome"].matches == {"a": 1, "b": 4, "c": 3}


def _row(model: str, match_id: str, status: OutcomeStatus, seat: str = "guesser") -> MatchRow:
    outcome = Outcome(status=status, winners=("guesser",) if status == "finished" else (), reason="test", rounds=3,
                      forfeit_seat="answerer" if status == "forfeit" else None)
    return MatchRow(game="akinator", level=1, model=model, seat=seat, variant=0, outcome=outcome, tokens=0,
                    seconds=0.0, match_id=match_id)


def test_scored_matches_count_a_table_once_and_leave_out_what_was_not_scored() -> None:
    rows = [_row("a", "m1", "finished"), _row("a", "m1", "finished", seat="answerer"), _row("a", "m2", "finished"),
            _row("a", "m3", "aborted"), _row("a", "m4", "forfeit"), _row("b", "m1", "finished"),
            _row("b", "", "finished"), _row("b", "", "finished")]
    assert scored_matches(rows) == {("akinator", "a"): 2, ("akinator", "b"): 3}


def test_tied_models_are_a_tie_not_an_order_by_name() -> None:
    # four models, two of them tied in the run: the best agreement possible is matched by 2 of the 24 pairings
    four = compare({"Taboo-Outcome": ["a", ["b", "c"], "d"]}, {"x": ["a", "b", "c", "d"]})
    assert four.rows == [] and "even the best agreement of these 4 models has p = 0.0833" in four.refused[0].reason
    five = compare({"Taboo-Outcome": ["a", ["b", "c"], "d", "e"]}, {"x": ["a", "c", "b", "d", "e"]})
    [row] = five.rows
    assert row.method == "exact" and row.p == pytest.approx(2 / 120)  # the swap of b and c is no disagreement
    assert row.tau == pytest.approx(9 / math.sqrt(9 * 10))  # tau-b: 9 concordant, 1 tied, 0 discordant
    results = [_result("taboo", m, w) for m, w in (("a", 3), ("b", 1), ("c", 1), ("d", 0))]
    ranking = run_rankings(results, [], default_registry())["Taboo-Outcome"]
    assert ranking.ranking == ["a", ["b", "c"], "d"] and ranking.order == ["a", "b", "c", "d"]


def test_rankings_from_a_file_keep_their_ties(tmp_path: Path) -> None:
    path = tmp_path / "rankings.json"
    path.write_text(json.dumps({"list": ["a", ["b", "c"], "d"], "ranks": {"a": 1, "b": 2, "c": 2, "d": 3}}))
    assert load_rankings(path) == {"list": ["a", ["b", "c"], "d"], "ranks": ["a", ["b", "c"], "d"]}
    for bad in ({"twice": ["a", ["b", "a"]]}, {"empty group": ["a", []]}, {"numbers": [1, 2]}):
        path.write_text(json.dumps(bad))
        with pytest.raises(ConfigError, match=next(iter(bad))):
            load_rankings(path)
