"""The statistics of a judge's verdicts against labelled cases: rates with intervals, ROC AUC, and a threshold on
the probability of accepting fitted and measured by stratified cross-validation.

A case's label is whether the answer judged is right (``JudgeCase.correct``); a verdict accepts (``True``),
refuses (``False``) or could not be read (``None``, counted wrong everywhere). Balanced accuracy, the mean of the
share of right answers accepted and of wrong answers refused, is what a threshold is fitted to: plain accuracy
would reward a judge that says yes to a set with more right answers than wrong ones.

Intervals: Wilson score intervals for the proportions (accuracy, false accepts, false rejects); percentile
bootstrap over cases (seeded, so the same on every run) for balanced accuracy and ROC AUC. The AUC's interval is a
bootstrap rather than DeLong's: it needs no normal approximation, which the few dozen cases of a game's set do not
support, and a resample that lost one class is left out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from playeval.analysis.intervals import bootstrap_interval, wilson_interval

RATE_KEYS: tuple[str, ...] = ("accuracy", "false_accept", "false_reject", "balanced_accuracy")
DEFAULT_RESAMPLES = 1000
DEFAULT_FOLDS = 5

Interval = tuple[float | None, float | None]


@dataclass(frozen=True)
class JudgeRates:
    """How a judge's verdicts fare against the labels."""

    cases: int
    right_answers: int
    """Cases whose answer is right (``correct``)."""
    accepted_right: int
    wrong_answers: int
    accepted_wrong: int
    refused_wrong: int
    unreadable: int
    accuracy: float | None
    false_accept: float | None
    """Wrong answers accepted, per wrong answer."""
    false_reject: float | None
    """Right answers not accepted (refused or unreadable), per right answer."""
    balanced_accuracy: float | None
    """The mean of right answers accepted per right answer and wrong answers refused per wrong answer (an
    unreadable verdict is neither); ``None`` unless both kinds of answer are present."""
    intervals: dict[str, Interval] = field(default_factory=dict)
    """95% intervals by rate name (``RATE_KEYS``)."""

    def as_dict(self) -> dict[str, float | None]:
        """The four rates by name."""
        return {"accuracy": self.accuracy, "false_accept": self.false_accept, "false_reject": self.false_reject,
                "balanced_accuracy": self.balanced_accuracy}


def _balanced(labels: Sequence[bool], verdicts: Sequence[bool | None]) -> float | None:
    right = [v for label, v in zip(labels, verdicts, strict=True) if label]
    wrong = [v for label, v in zip(labels, verdicts, strict=True) if not label]
    if not right or not wrong:
        return None
    return (sum(v is True for v in right) / len(right) + sum(v is False for v in wrong) / len(wrong)) / 2


def judge_rates(labels: Sequence[bool], verdicts: Sequence[bool | None], *, resamples: int = DEFAULT_RESAMPLES,
                seed: int = 0) -> JudgeRates:
    """The rates of ``verdicts`` against ``labels`` (same order), with their 95% intervals."""
    if len(labels) != len(verdicts):
        raise ValueError(f"{len(labels)} labels but {len(verdicts)} verdicts")
    n = len(labels)
    pairs = list(zip(labels, verdicts, strict=True))
    right = [v for label, v in pairs if label]
    wrong = [v for label, v in pairs if not label]
    correct = sum(v is not None and v == label for label, v in pairs)
    accepted_right = sum(v is True for v in right)
    accepted_wrong = sum(v is True for v in wrong)
    refused_right = len(right) - accepted_right

    def balanced(sample: Sequence[tuple[bool, bool | None]]) -> float | None:
        return _balanced([label for label, _ in sample], [v for _, v in sample])

    intervals: dict[str, Interval] = {
        "accuracy": wilson_interval(correct, n),
        "false_accept": wilson_interval(accepted_wrong, len(wrong)),
        "false_reject": wilson_interval(refused_right, len(right)),
        "balanced_accuracy": bootstrap_interval(pairs, balanced, resamples=resamples, seed=seed)
        if right and wrong else (None, None),
    }
    return JudgeRates(
        cases=n, right_answers=len(right), accepted_right=accepted_right, wrong_answers=len(wrong),
        accepted_wrong=accepted_wrong, refused_wrong=sum(v is False for v in wrong),
        unreadable=sum(v is None for _, v in pairs),
        accuracy=correct / n if n else None,
        false_accept=accepted_wrong / len(wrong) if wrong else None,
        false_reject=refused_right / len(right) if right else None,
        balanced_accuracy=_balanced(labels, verdicts), intervals=intervals)


def roc_auc(labels: Sequence[bool], scores: Sequence[float]) -> float | None:
    """The ROC AUC of ``scores`` for ``labels``: the chance that a right answer scores above a wrong one, ties
    counting a half (the Mann-Whitney statistic, from average ranks). ``None`` without both kinds of answer."""
    if len(labels) != len(scores):
        raise ValueError(f"{len(labels)} labels but {len(scores)} scores")
    positives = sum(1 for label in labels if label)
    negatives = len(labels) - positives
    if not positives or not negatives:
        return None
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and scores[order[end + 1]] == scores[order[start]]:
            end += 1
        average = (start + end) / 2 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = average
        start = end + 1
    rank_sum = sum(rank for rank, label in zip(ranks, labels, strict=True) if label)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def auc_interval(labels: Sequence[bool], scores: Sequence[float], *, resamples: int = DEFAULT_RESAMPLES,
                 seed: int = 0) -> Interval:
    """The percentile bootstrap 95% interval of :func:`roc_auc`, resampling cases (see the module docstring)."""
    pairs = list(zip(labels, scores, strict=True))

    def auc(sample: Sequence[tuple[bool, float]]) -> float | None:
        return roc_auc([label for label, _ in sample], [score for _, score in sample])

    return bootstrap_interval(pairs, auc, resamples=resamples, seed=seed)


def fit_threshold(labels: Sequence[bool], scores: Sequence[float], *, max_false_accept: float | None = None
                  ) -> float:
    """The threshold on ``scores`` (accept at or above it) that maximises balanced accuracy on these cases (plain
    accuracy when only one kind of answer is present). The candidates are the midpoints between consecutive
    distinct scores, so a threshold never sits on a case; among equally good ones the closest to 0.5 wins (the
    least departure from reading the probability as it is), then the lower. With one distinct score there is
    nothing to separate: 0.5.

    ``max_false_accept``: only thresholds that accept at most this share of the wrong answers are candidates (the
    highest, above every score, accepts none), for a judge whose false accepts cost more than its false rejects:
    in play most guesses are wrong, so a threshold fitted on a balanced set for balanced accuracy accepts more
    wrong guesses than its rates suggest."""
    if len(labels) != len(scores):
        raise ValueError(f"{len(labels)} labels but {len(scores)} scores")
    distinct = sorted(set(scores))
    candidates = [(low + high) / 2 for low, high in pairwise(distinct)]
    wrong = [score for score, label in zip(scores, labels, strict=True) if not label]
    if max_false_accept is not None and wrong:
        candidates.append(distinct[-1] + (1.0 - distinct[-1]) / 2 if distinct[-1] < 1.0 else 1.0)
        candidates = [t for t in candidates if sum(s >= t for s in wrong) / len(wrong) <= max_false_accept]
    if not candidates:
        return 0.5
    both = any(labels) and not all(labels)

    def score(threshold: float) -> float:
        verdicts: list[bool | None] = [s >= threshold for s in scores]
        if both:
            value = _balanced(labels, verdicts)
            assert value is not None
            return value
        return sum(v == label for v, label in zip(verdicts, labels, strict=True)) / len(labels)

    return max(candidates, key=lambda t: (score(t), -abs(t - 0.5), -t))


def stratified_folds(labels: Sequence[bool], folds: int, seed: int = 0) -> list[list[int]]:
    """Case indices split into ``folds`` folds holding right and wrong answers in about the same shares: each
    kind shuffled (``random.Random(seed)``) and dealt round the folds in turn, the wrong ones starting where the
    right ones stopped so the folds' sizes differ by at most one."""
    if folds < 2:
        raise ValueError(f"cross-validation needs at least 2 folds, got {folds}")
    rng = random.Random(seed)
    split: list[list[int]] = [[] for _ in range(folds)]
    position = 0
    for kind in (True, False):
        members = [index for index, label in enumerate(labels) if label is kind]
        rng.shuffle(members)
        for index in members:
            split[position % folds].append(index)
            position += 1
    return [sorted(fold) for fold in split]


@dataclass(frozen=True)
class CrossValidation:
    """A threshold measured on cases it was not fitted on: each fold's verdicts come from a threshold fitted on the
    other folds; the rates pool the held-out verdicts of every fold."""

    folds: int
    thresholds: tuple[float, ...]
    """The threshold fitted for each fold (on the others)."""
    verdicts: tuple[bool | None, ...]
    """Each case's held-out verdict (its word where it has no probability)."""
    fitted: JudgeRates
    untuned: JudgeRates
    """The model's own words on the same cases."""


def cross_validate(labels: Sequence[bool], scores: Sequence[float | None], words: Sequence[bool | None], *,
                   folds: int = DEFAULT_FOLDS, seed: int = 0, resamples: int = DEFAULT_RESAMPLES,
                   max_false_accept: float | None = None) -> CrossValidation:
    """Stratified k-fold cross-validation of :func:`fit_threshold` over the cases with a probability (``scores``;
    ``None``: the case keeps its ``words`` verdict in both columns). ``folds`` is cut to the number of cases of the
    rarer kind so every fold holds both; ``ValueError`` when that is fewer than two of either kind, or when a
    case's word could not be read (an unreadable reply is judged on its word: no threshold applies to it)."""
    if not len(labels) == len(scores) == len(words):
        raise ValueError("labels, scores and words must be as many")
    scored = [i for i, score in enumerate(scores) if score is not None and words[i] is not None]
    scored_labels = [labels[i] for i in scored]
    rarer = min(sum(scored_labels), len(scored_labels) - sum(scored_labels))
    if rarer < 2:
        raise ValueError(f"too few cases with a probability to cross-validate ({sum(scored_labels)} right, "
                         f"{len(scored_labels) - sum(scored_labels)} wrong; at least 2 of each are needed)")
    k = min(folds, rarer)
    verdicts: list[bool | None] = list(words)
    thresholds: list[float] = []
    for held in stratified_folds(scored_labels, k, seed):
        held_set = set(held)
        train = [scored[j] for j in range(len(scored)) if j not in held_set]
        threshold = fit_threshold([labels[i] for i in train], [_score(scores, i) for i in train],
                                  max_false_accept=max_false_accept)
        thresholds.append(threshold)
        for j in held:
            verdicts[scored[j]] = _score(scores, scored[j]) >= threshold
    return CrossValidation(folds=k, thresholds=tuple(thresholds), verdicts=tuple(verdicts),
                           fitted=judge_rates(labels, verdicts, resamples=resamples, seed=seed),
                           untuned=judge_rates(labels, words, resamples=resamples, seed=seed))


def _score(scores: Sequence[float | None], index: int) -> float:
    value = scores[index]
    assert value is not None
    return value
