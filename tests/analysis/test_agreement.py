"""Agreement beyond chance: kappas against hand-computed values, their bootstrap intervals, and refusals."""

from __future__ import annotations

import pytest

from playeval.analysis.agreement import agreement, bootstrap_interval, cohen_kappa, fleiss_kappa, observed_agreement


def test_cohen_kappa_against_a_hand_computed_table() -> None:
    # 50 items: both yes 20, first yes second no 5, first no second yes 10, both no 15.
    first = [True] * 20 + [True] * 5 + [False] * 10 + [False] * 15
    second = [True] * 20 + [False] * 5 + [True] * 10 + [False] * 15
    # p_o = 35/50 = 0.7; p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.2 / 0.5
    assert cohen_kappa(first, second) == pytest.approx(0.4)
    assert cohen_kappa(first, first) == pytest.approx(1.0)
    assert cohen_kappa([True, False], [False, True]) == pytest.approx(-1.0)
    assert cohen_kappa([True, True], [True, True]) is None and cohen_kappa([], []) is None
    with pytest.raises(ValueError, match="same items"):
        cohen_kappa([True], [True, False])


def test_fleiss_kappa_against_hand_computed_values() -> None:
    # Three raters, four items: per-item agreement 1, 1/3, 1, 1/3 (mean 2/3); yes share 1/2 so P_e = 1/2.
    small = [("y", "y", "y"), ("y", "y", "n"), ("n", "n", "n"), ("y", "n", "n")]
    assert observed_agreement(small) == pytest.approx(2 / 3)
    assert fleiss_kappa(small) == pytest.approx(1 / 3)
    # Fleiss (1971)'s worked example as usually cited: 10 items, 14 raters, 5 categories, kappa 0.210.
    counts = [(0, 0, 0, 0, 14), (0, 2, 6, 4, 2), (0, 0, 3, 5, 6), (0, 3, 9, 2, 0), (2, 2, 8, 1, 1),
              (7, 7, 0, 0, 0), (3, 2, 6, 3, 0), (2, 5, 3, 2, 2), (6, 5, 2, 1, 0), (0, 2, 2, 3, 7)]
    items = [[category for category, n in enumerate(row) for _ in range(n)] for row in counts]
    assert fleiss_kappa(items) == pytest.approx(0.2099, abs=5e-4)
    assert fleiss_kappa([("y", "y", "y")]) is None
    with pytest.raises(ValueError, match="same number of raters"):
        fleiss_kappa([("y", "y"), ("y", "y", "n")])


def test_agreement_picks_the_kappa_and_leaves_out_unrated_items() -> None:
    two = agreement([(True, True), (False, False), (True, False), (None, True), (False, False), (True, True)],
                    resamples=200)
    assert two.method == "cohen" and two.items == 5 and two.left_out == 1 and two.raters == 2
    assert two.kappa == pytest.approx(cohen_kappa([True, False, True, False, True], [True, False, False, False,
                                                                                     True]))
    assert two.low is not None and two.high is not None and two.low <= two.kappa <= two.high
    three = agreement([("y", "y", "y"), ("y", "y", "n"), ("n", "n", "n"), ("y", "n", "n")], resamples=200)
    assert three.method == "fleiss" and three.kappa == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="two raters"):
        agreement([("y",)])


def test_the_bootstrap_interval_is_seeded_and_covers_the_statistic() -> None:
    values = [float(n) for n in range(100)]

    def mean(sample: object) -> float:
        assert isinstance(sample, list)
        return sum(sample) / len(sample)

    low, high = bootstrap_interval(values, mean, resamples=500, seed=3)
    assert low is not None and high is not None and low < 49.5 < high and high - low < 25
    assert bootstrap_interval(values, mean, resamples=500, seed=3) == (low, high)
    assert bootstrap_interval([], mean) == (None, None)
    assert bootstrap_interval([1.0], lambda _: None) == (None, None)
