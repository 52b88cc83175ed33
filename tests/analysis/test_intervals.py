"""The cluster bootstrap of a rate or a mean over matches (``cluster_rate_interval``, ``cluster_mean_interval``):
seats that share a table's fate are not independent trials, so the interval is that of the matches."""

from __future__ import annotations

import math

import pytest

from playeval.analysis.intervals import (
    bootstrap_interval,
    cluster_mean_interval,
    cluster_rate_interval,
    match_rate_interval,
    t_interval,
    wilson_interval,
)


def _share(sample: list[tuple[int, int]]) -> float:
    return sum(wins for wins, _ in sample) / sum(seats for _, seats in sample)


def test_three_seats_that_always_share_a_result_give_the_interval_of_the_matches() -> None:
    # ten matches, the model in three seats of each; the three always win or lose together (6 of 10 won)
    tables = [(3, 3)] * 6 + [(0, 3)] * 4
    one_seat = [(1, 1)] * 6 + [(0, 1)] * 4
    clustered = cluster_rate_interval(tables, seed=7)
    assert clustered == cluster_rate_interval(one_seat, seed=7)  # the same matches drawn: 10 trials, not 30
    assert clustered == bootstrap_interval(one_seat, _share, resamples=2000, seed=7)
    low, high = clustered
    seats_low, seats_high = wilson_interval(18, 30)  # what treating the 30 seats as independent would claim
    assert low is not None and high is not None and seats_low is not None and seats_high is not None
    assert high - low > seats_high - seats_low + 0.1
    assert high - low == pytest.approx(2 * 1.96 * math.sqrt(0.6 * 0.4 / 10), abs=0.05)  # the normal width at n=10
    assert low < 0.6 < high


def test_the_same_seed_gives_the_same_interval() -> None:
    tables = [(2, 3), (1, 3), (3, 3), (0, 3), (2, 3), (1, 2)]
    assert cluster_rate_interval(tables, seed=3) == cluster_rate_interval(tables, seed=3)
    low, high = cluster_rate_interval(tables)
    assert low is not None and high is not None and low < 9 / 17 < high


def test_matches_that_all_ended_alike_get_wilson_over_the_matches_not_a_point() -> None:
    assert cluster_rate_interval([(3, 3)] * 4) == wilson_interval(4, 4)
    assert cluster_rate_interval([(0, 2)] * 5) == wilson_interval(0, 5)
    low, high = cluster_rate_interval([(1, 2)] * 4)  # a model holding both sides of every table
    assert (low, high) == wilson_interval(2.0, 4) and low is not None and high is not None and low < 0.5 < high


def test_no_seat_gives_no_interval_and_bad_counts_are_refused() -> None:
    assert cluster_rate_interval([]) == (None, None)
    assert cluster_rate_interval([(0, 0)]) == (None, None)
    with pytest.raises(ValueError):
        cluster_rate_interval([(4, 3), (1, 3)])


def test_one_seat_per_match_is_wilson_over_the_matches_and_several_the_cluster_bootstrap() -> None:
    assert match_rate_interval([(1, 1), (0, 1), (1, 1)]) == wilson_interval(2, 3)
    tables = [(2, 2), (0, 2), (2, 2), (1, 2)]
    assert match_rate_interval(tables) == cluster_rate_interval(tables)
    assert match_rate_interval([]) == (None, None) == match_rate_interval([(0, 0)])


def _mean(sample: list[tuple[float, ...]]) -> float:
    return math.fsum(v for values in sample for v in values) / sum(len(values) for values in sample)


def test_a_clustered_mean_resamples_the_matches_with_a_seed() -> None:
    # eight matches, two seats each, the seats of a match alike: the interval of eight values, not sixteen
    tables = [[0.9, 0.9], [0.2, 0.2], [0.7, 0.7], [0.4, 0.4], [0.8, 0.8], [0.1, 0.1], [0.6, 0.6], [0.5, 0.5]]
    found = cluster_mean_interval(tables, seed=4)
    assert found == cluster_mean_interval(tables, seed=4)
    assert found == bootstrap_interval([tuple(values) for values in tables], _mean, resamples=2000, seed=4)
    assert found == cluster_mean_interval([values[:1] for values in tables], seed=4)  # one seat each: the same
    low, high = found
    seats_low, seats_high = t_interval([value for values in tables for value in values])
    assert low is not None and high is not None and seats_low is not None and seats_high is not None
    assert low < 0.525 < high and high - low > seats_high - seats_low  # sixteen seats would claim too much


def test_a_clustered_mean_the_same_in_every_match_is_wilson_over_the_matches() -> None:
    assert cluster_mean_interval([[1.0, 1.0], [1.0], [1.0, 1.0]]) == wilson_interval(3, 3)
    assert cluster_mean_interval([[0.5, 0.5], [0.25, 0.75]]) == wilson_interval(1.0, 2)
    assert cluster_mean_interval([]) == (None, None) == cluster_mean_interval([[], []])
    with pytest.raises(ValueError):
        cluster_mean_interval([[0.5, 1.5], [0.2]])
