"""Rankings with tie groups and Kendall's tau-b with a test that keeps the ties, checked against every pairing."""

from __future__ import annotations

import math
from itertools import permutations

import pytest

from playeval.analysis import kendall_tau_test, opposed_pairs, ranking_tau_test, tied_rankings, tied_tau_test
from playeval.analysis.tied_rankings import entries, flatten, groups, levels, restrict


def _s(a: list[float], b: list[float]) -> int:
    """concordant - discordant of two level lists (lower is better)."""
    total = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            total += ((a[i] < a[j]) - (a[i] > a[j])) * ((b[i] < b[j]) - (b[i] > b[j]))
    return total


def _brute(a: dict[str, float], b: dict[str, float]) -> tuple[float, float, float]:
    """(tau-b, p, smallest p) by listing every pairing of the items with b's levels."""
    items = list(a)
    la, lb = [a[i] for i in items], [b[i] for i in items]
    pairs = len(items) * (len(items) - 1) // 2
    ties_a = sum(1 for i in range(len(la)) for j in range(i + 1, len(la)) if la[i] == la[j])
    ties_b = sum(1 for i in range(len(lb)) for j in range(i + 1, len(lb)) if lb[i] == lb[j])
    observed = _s(la, lb)
    null = [_s(la, list(perm)) for perm in permutations(lb)]
    best = max(null)
    tau = observed / math.sqrt((pairs - ties_a) * (pairs - ties_b))
    return tau, sum(v >= observed for v in null) / len(null), sum(v >= best for v in null) / len(null)


CASES = [
    ({"a": 0, "b": 1, "c": 1, "d": 2}, {"a": 0, "b": 1, "c": 2, "d": 3}),
    ({"a": 0, "b": 1, "c": 1, "d": 2, "e": 3}, {"a": 1, "b": 0, "c": 2, "d": 2, "e": 3}),
    ({"a": 0, "b": 0, "c": 1, "d": 1, "e": 2, "f": 2}, {"a": 0, "b": 1, "c": 0, "d": 2, "e": 1, "f": 2}),
    ({"a": 0, "b": 1, "c": 2, "d": 2, "e": 2, "f": 3, "g": 4}, {"a": 2, "b": 0, "c": 1, "d": 3, "e": 4, "f": 5,
                                                                "g": 5}),
]


@pytest.mark.parametrize(("a", "b"), CASES)
def test_exact_tau_b_test_against_every_pairing(a: dict[str, float], b: dict[str, float]) -> None:
    tau, p, smallest = _brute(a, b)
    test = tied_tau_test(a, b)
    assert test.method == "exact"
    assert test.tau == pytest.approx(tau) and test.p == pytest.approx(p) and test.smallest_p == pytest.approx(smallest)
    assert test.concordant + test.discordant + test.tied == len(a) * (len(a) - 1) // 2


def test_without_ties_it_is_the_strict_exact_test() -> None:
    a = {"a": 0, "b": 1, "c": 2, "d": 3, "e": 4}
    b = {"a": 0, "b": 2, "c": 1, "d": 3, "e": 4}
    assert tied_tau_test(a, b) == kendall_tau_test(list("abcde"), list("acbde"))
    assert ranking_tau_test(list("abcde"), list("acbde")).p == pytest.approx(5 / 120)


def test_seeded_permutations_estimate_the_exact_p(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = CASES[3]
    exact = _brute(a, b)[1]
    monkeypatch.setattr(tied_rankings, "EXACT_TIED_MAX_ITEMS", 5)
    test = tied_tau_test(a, b, permutations=20_000, seed=3)
    assert test.method == "permutation"
    assert test.p == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / 20_000))  # 4 standard errors
    assert tied_tau_test(a, b, permutations=20_000, seed=3) == test  # the seed decides the draws
    assert len({tied_tau_test(a, b, permutations=300, seed=seed).p for seed in range(5)}) > 1
    # an agreement no draw beats is never given p = 0
    assert tied_tau_test(a, a, permutations=50, seed=0).p >= 1 / 51


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="different items"):
        tied_tau_test({"a": 0, "b": 1}, {"a": 0, "c": 1})
    with pytest.raises(ValueError, match="at least two"):
        tied_tau_test({"a": 0}, {"a": 0})
    with pytest.raises(ValueError, match="orders nothing"):
        tied_tau_test({"a": 0, "b": 0, "c": 1}, {"a": 1, "b": 1, "c": 1})
    with pytest.raises(ValueError, match="permutation"):
        tied_tau_test({"a": 0, "b": 0, "c": 1}, {"a": 0, "b": 1, "c": 2}, permutations=0)
    with pytest.raises(ValueError, match="more than once"):
        groups(["a", ["b", "a"]])
    with pytest.raises(ValueError, match="empty"):
        groups(["a", []])


def test_tie_groups() -> None:
    ranking = ["c", ["b", "a"], "d"]
    assert groups(ranking) == [["c"], ["a", "b"], ["d"]]
    assert flatten(ranking) == ["c", "a", "b", "d"]
    assert levels(ranking) == {"c": 0, "a": 1, "b": 1, "d": 2}
    assert restrict(ranking, {"a", "d"}) == [["a"], ["d"]]
    assert entries(ranking) == ["c", ["a", "b"], "d"]
    assert opposed_pairs(ranking, ["d", "a", "b", "c"]) == [("c", "a"), ("c", "b"), ("c", "d"), ("a", "d"),
                                                            ("b", "d")]
    assert opposed_pairs(["a", "b"], [["a", "b"]]) == []  # a tie is no order, so nothing swapped
