"""Stability between two sets of rankings: per shared scope, tau with its exact test, RBO and the swapped pairs;
models and scopes ranked on one side only are listed and left out."""

from __future__ import annotations

import json

import pytest

from playeval.analysis import format_stability, rbo, stability

A = {
    "overall": ["m1", "m2", "m3", "m4", "m5"],
    "akinator": ["m1", "m2", "m3", "m4"],
    "taboo": ["m2", "m1", "m3"],
    "bluffing": ["m1", "m2"],
}
B = {
    "overall": ["m1", "m3", "m2", "m5", "m4"],
    "akinator": ["m1", "m2", "m9", "m3", "m4"],
    "taboo": ["m3", "m1", "m2"],
    "undercover": ["m2", "m1"],
}


def test_each_shared_scope_is_compared_over_the_shared_models() -> None:
    found = stability(A, B, label_a="run-a", label_b="run-b")
    assert [s.scope for s in found.scopes] == ["overall", "akinator", "taboo"]  # overall first, then by name
    assert (found.scopes_only_a, found.scopes_only_b) == (("bluffing",), ("undercover",))
    overall, akinator, taboo = found.scopes
    # two swaps of ten pairs: tau = (8 - 2) / 10; orderings with at most 2 discordant pairs: 1 + 4 + 9 of 120
    assert overall.tau == pytest.approx(0.6) and overall.p == pytest.approx(14 / 120)
    assert overall.swapped == (("m2", "m3"), ("m4", "m5")) and overall.method == "exact"
    assert overall.rbo == pytest.approx(rbo(A["overall"], B["overall"]))
    assert overall.can_be_significant
    # m9 is ranked in B only: listed and left out, so the four shared models agree completely
    assert akinator.only_b == ("m9",) and akinator.only_a == ()
    assert akinator.order_b == (("m1",), ("m2",), ("m3",), ("m4",)) and akinator.tau == 1.0
    assert akinator.swapped == () and akinator.tied == 0
    assert akinator.p == pytest.approx(1 / 24) and akinator.rbo == pytest.approx(1.0)
    # three models: even a full agreement could not be significant; this one is a full reversal
    assert taboo.tau == -1.0 and taboo.p == pytest.approx(1.0) and not taboo.can_be_significant
    assert taboo.swapped == (("m2", "m1"), ("m2", "m3"), ("m1", "m3"))


def test_a_scope_sharing_fewer_than_two_models_has_no_tau() -> None:
    found = stability({"akinator": ["m1", "m2"]}, {"akinator": ["m2", "m3"]})
    [scope] = found.scopes
    assert (scope.tau, scope.p, scope.method, scope.rbo) == (None, None, None, None)
    assert (scope.order_a, scope.only_a, scope.only_b) == ((("m2",),), ("m1",), ("m3",))
    assert "n/a" in format_stability(found)


def test_the_table_lists_swaps_models_left_out_and_the_caveat() -> None:
    text = format_stability(stability(A, B, label_a="run-a", label_b="run-b"))
    lines = text.splitlines()
    assert lines[0] == "stability: run-a (A) vs run-b (B)"
    assert lines[1].split() == ["scope", "models", "tied", "tau", "p", "(tau)", "test", "RBO", "swapped"]
    assert lines[3].split() == ["overall", "5", "0", "0.60", "0.1167", "exact",
                                f"{rbo(A['overall'], B['overall']):.2f}", "2"]
    assert lines[4].split()[:5] == ["akinator", "4", "0", "1.00", "0.0417"]
    assert lines[5].split()[:6] == ["taboo", "3", "0", "-1.00", "1.0000", "*"]
    assert "overall: swapped (order in A, reversed in B): m2 > m3, m4 > m5" in lines
    assert "akinator: left out, ranked only in A: -; only in B: m9" in lines
    assert "scopes ranked on one side only: A: bluffing; B: undercover" in lines
    assert any(line.startswith("* even the best agreement these models and ties allow has p >= 0.05") for line in lines)
    assert "* even" not in format_stability(stability({"x": ["a", "b", "c", "d"]}, {"x": ["a", "b", "c", "d"]}))


def test_the_json_form() -> None:
    data = json.loads(json.dumps(stability(A, B, label_a="run-a", label_b="run-b").as_json()))
    assert (data["a"], data["b"], data["alpha"], data["needed_models"]) == ("run-a", "run-b", 0.05, 4)
    overall = data["scopes"][0]
    assert overall["scope"] == "overall" and overall["models"] == 5 and overall["test"] == "exact"
    assert overall["swapped"] == [["m2", "m3"], ["m4", "m5"]]
    assert overall["order_a"] == A["overall"] and overall["order_b"] == B["overall"]
    assert data["scopes"][1]["only_b"] == ["m9"] and data["scopes"][2]["can_be_significant"] is False
    assert (data["scopes_only_a"], data["scopes_only_b"]) == (["bluffing"], ["undercover"])


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="more than once"):
        stability({"x": ["a", "b", "a"]}, {"x": ["a", "b"]})
    with pytest.raises(ValueError):
        stability({"x": ["a", "b"]}, {"x": ["a", "b"]}, alpha=1.5)


def test_models_that_tie_agree_on_nothing() -> None:
    # Three models tied in both runs (equal win rates): ordered by name they would agree perfectly, tau = 1.
    tied = {"bluffing": [["mock/false", "mock/player", "mock/true"], "mock/garbage"]}
    [scope] = stability(tied, tied).scopes
    assert scope.tied == 3  # the three pairs inside the group (tied on both sides, counted once)
    assert scope.tau == 1.0 and scope.swapped == ()  # tau-b: the three pairs with garbage all agree
    # the null keeps the ties: 3! of the 4! pairings put garbage last on both sides, so p = 6/24
    assert scope.method == "exact" and scope.p == pytest.approx(0.25)
    assert not scope.can_be_significant
    assert "bluffing: with ties, A: (mock/false = mock/player = mock/true) > mock/garbage" in format_stability(
        stability(tied, tied))


def test_a_tie_on_one_side_is_not_a_swap() -> None:
    found = stability({"x": ["a", ["b", "c"], "d", "e"]}, {"x": ["a", "c", "b", "e", "d"]})
    [scope] = found.scopes
    assert scope.swapped == (("d", "e"),) and scope.tied == 1
    assert scope.order_a == (("a",), ("b", "c"), ("d",), ("e",))
    data = found.as_json()["scopes"][0]
    assert data["order_a"] == ["a", ["b", "c"], "d", "e"] and data["tied"] == 1


def test_a_side_tying_every_shared_model_has_no_tau() -> None:
    [scope] = stability({"x": [["a", "b"], "c"]}, {"x": ["b", "a", "d"]}).scopes
    assert scope.tau is None and scope.order_a == (("a", "b"),) and scope.tied == 1
