"""The statistics of judge calibration: AUC, its interval, the threshold fit, stratified folds, held-out rates."""

from __future__ import annotations

import random

import pytest

from playeval.analysis.judge_stats import (
    auc_interval,
    cross_validate,
    fit_threshold,
    judge_rates,
    roc_auc,
    stratified_folds,
)


def test_roc_auc_known_values() -> None:
    assert roc_auc([True, True, False, False], [0.9, 0.8, 0.3, 0.1]) == pytest.approx(1.0)
    assert roc_auc([True, True, False, False], [0.1, 0.3, 0.8, 0.9]) == pytest.approx(0.0)
    # right 0.9, 0.2 against wrong 0.8, 0.1: three of four pairs ordered right
    assert roc_auc([True, True, False, False], [0.9, 0.2, 0.8, 0.1]) == pytest.approx(0.75)
    # a tie counts a half: right 0.5, 0.7 against wrong 0.5: (0.5 + 1) / 2
    assert roc_auc([True, True, False], [0.5, 0.7, 0.5]) == pytest.approx(0.75)
    assert roc_auc([True, True], [0.2, 0.9]) is None


def test_the_auc_interval() -> None:
    labels = [True] * 20 + [False] * 20
    separable = [0.6 + i / 100 for i in range(20)] + [0.1 + i / 100 for i in range(20)]
    assert auc_interval(labels, separable, resamples=300) == (pytest.approx(1.0), pytest.approx(1.0))
    rng = random.Random(7)
    noise = [rng.random() for _ in labels]
    low, high = auc_interval(labels, noise, resamples=500)
    auc = roc_auc(labels, noise)
    assert low is not None and high is not None and auc is not None
    assert low < 0.5 < high and low <= auc <= high
    assert auc_interval(labels, noise, resamples=500) == (low, high)  # seeded


def test_a_threshold_fit_on_a_separable_set_and_its_ties() -> None:
    labels = [True, True, True, False, False, False]
    assert fit_threshold(labels, [0.9, 0.8, 0.7, 0.4, 0.3, 0.2]) == pytest.approx(0.55)
    # candidates 0.2 and 0.7 both give balanced accuracy 0.75: the one closer to 0.5 wins
    assert fit_threshold([False, True, False, True], [0.1, 0.3, 0.5, 0.9]) == pytest.approx(0.7)
    assert fit_threshold([True, False], [0.4, 0.4]) == 0.5  # nothing to separate


def test_stratified_folds_hold_both_kinds() -> None:
    labels = [True] * 7 + [False] * 8
    folds = stratified_folds(labels, 3, seed=1)
    assert sorted(i for fold in folds for i in fold) == list(range(15))
    assert max(map(len, folds)) - min(map(len, folds)) <= 1
    assert all(any(labels[i] for i in fold) and not all(labels[i] for i in fold) for fold in folds)
    assert stratified_folds(labels, 3, seed=1) == folds and stratified_folds(labels, 3, seed=2) != folds


def test_rates_count_an_unreadable_verdict_wrong() -> None:
    rates = judge_rates([True, True, False, False], [True, None, True, None])
    assert rates.accuracy == pytest.approx(0.25) and rates.unreadable == 2
    assert rates.false_accept == pytest.approx(0.5) and rates.false_reject == pytest.approx(0.5)
    assert rates.balanced_accuracy == pytest.approx(0.25)  # right accepted 1/2, wrong refused 0/2
    low, high = rates.intervals["accuracy"]
    assert low is not None and high is not None and low < 0.25 < high


def test_cross_validation_measures_held_out_cases() -> None:
    labels = [True] * 10 + [False] * 10
    scores: list[float | None] = [0.6 + i / 30 for i in range(10)] + [0.05 + i / 30 for i in range(10)]
    lenient: list[bool | None] = [True] * 20  # the word accepts everything
    result = cross_validate(labels, scores, lenient, folds=5)
    assert result.folds == 5 and len(result.thresholds) == 5
    assert all(0.35 < t < 0.6 for t in result.thresholds)
    assert result.untuned.balanced_accuracy == pytest.approx(0.5) and result.untuned.false_accept == 1.0
    assert result.fitted.accuracy == pytest.approx(1.0) and result.fitted.false_accept == 0.0

    # a right answer scored below every wrong one is refused by any threshold the other folds give
    odd = list(scores)
    odd[0] = 0.01
    held = cross_validate(labels, odd, lenient, folds=5)
    assert held.verdicts[0] is False and held.fitted.false_reject == pytest.approx(0.1)

    # a case without a probability keeps its word in both columns
    missing = list(scores)
    missing[19] = None
    kept = cross_validate(labels, missing, lenient, folds=5)
    assert kept.verdicts[19] is True and kept.fitted.false_accept == pytest.approx(0.1)


def test_cross_validation_refuses_too_few_cases() -> None:
    with pytest.raises(ValueError, match="at least 2 of each"):
        cross_validate([True, True, False], [0.9, 0.8, 0.1], [True, True, False])


def test_folds_are_cut_to_the_rarer_kind() -> None:
    labels = [True] * 8 + [False] * 3
    scores: list[float | None] = [0.9] * 8 + [0.1] * 3
    assert cross_validate(labels, scores, [True] * 11, folds=5).folds == 3


def test_a_false_accept_cap_keeps_the_threshold_above_the_wrong_answers_it_may_not_accept() -> None:
    """Balanced accuracy alone picks 0.35 here (one wrong answer of four accepted); capped at no false accept,
    the threshold must clear every wrong answer, and with nothing allowed above the top score it accepts none."""
    labels = [True, True, True, False, False, False, False]
    scores = [0.9, 0.6, 0.4, 0.5, 0.3, 0.2, 0.1]
    assert fit_threshold(labels, scores) == pytest.approx(0.35)
    assert fit_threshold(labels, scores, max_false_accept=0.25) == pytest.approx(0.35)
    assert fit_threshold(labels, scores, max_false_accept=0.0) == pytest.approx(0.55)
    everything_wrong_high = [True, False]
    assert fit_threshold(everything_wrong_high, [0.2, 0.9], max_false_accept=0.0) == pytest.approx(0.95)
