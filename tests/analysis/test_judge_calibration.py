"""Fitting a judge's calibration (applied only when it earned it), measuring with it, and panels of judges."""

from __future__ import annotations

import random

import pytest

from playeval.analysis.judge_calibration import (
    case_verdicts,
    fit_calibration,
    fit_scale,
    judge_report,
    member_agreement,
    panel_rows,
    panel_verdict,
)
from playeval.analysis.judges import JudgeVerdict
from playeval.core import JudgeCase


def _verdicts(probs: list[float | None], words: list[bool | None], labels: list[bool],
              question: str = "verdict") -> list[JudgeVerdict]:
    return [JudgeVerdict(case=JudgeCase(id=f"c{n}", context={}, answer="a", correct=label, kind="k"),
                         accepted=word, question=question, p_accept=p)
            for n, (p, word, label) in enumerate(zip(probs, words, labels, strict=True))]


LABELS = [True] * 12 + [False] * 12
SEPARATING = [0.7 + i / 50 for i in range(12)] + [0.35 + i / 50 for i in range(12)]
"""Every right answer above every wrong one, but all above 0.5: the words (argmax) accept everything."""


def test_a_threshold_that_beats_the_word_is_applied() -> None:
    fit = fit_scale("math", "verdict", _verdicts(list(SEPARATING), [True] * 24, LABELS), folds=4)
    entry = fit.entry
    assert entry.applied and entry.note == "" and entry.cases == 24 and entry.auc == pytest.approx(1.0)
    assert 0.57 < entry.threshold < 0.7
    assert entry.untuned["false_accept"] == 1.0 and entry.fitted["false_accept"] == 0.0
    assert entry.fitted["balanced_accuracy"] == pytest.approx(1.0)
    assert all(row.threshold is not None for row in fit.rows) and [row.used for row in fit.rows] == LABELS


def test_a_threshold_is_not_applied_when_the_auc_interval_holds_one_half() -> None:
    rng = random.Random(3)
    fit = fit_scale("math", "verdict", _verdicts([rng.random() for _ in LABELS], [True] * 24, LABELS))
    assert not fit.entry.applied and "its interval holds 0.5" in fit.entry.note
    assert [row.used for row in fit.rows] == [True] * 24  # the words stand


def test_a_threshold_is_not_applied_when_the_word_is_as_good() -> None:
    fit = fit_scale("math", "verdict", _verdicts(list(SEPARATING), list(LABELS), LABELS))
    assert not fit.entry.applied and "does not beat the model's own word" in fit.entry.note


def test_no_probabilities_no_threshold() -> None:
    fit = fit_scale("math", "verdict", _verdicts([None] * 24, [True] * 24, LABELS))
    assert not fit.entry.applied and fit.entry.note.startswith("no probabilities") and fit.validation is None
    few = fit_scale("math", "verdict", _verdicts([0.9, 0.1, 0.8], [True, False, True], [True, False, True]))
    assert not few.entry.applied and "at least 2 of each" in few.entry.note


def test_a_calibration_per_game_and_question_and_its_thresholds() -> None:
    scales = _verdicts(list(SEPARATING), [True] * 24, LABELS, "novelty")
    calibration, fits = fit_calibration("mock/judge", {"undercover": scales, "math": _verdicts(
        [None] * 24, [True] * 24, LABELS)}, cases="built-in", command="test", folds=3)
    assert [(f.entry.game, f.entry.kind, f.entry.applied) for f in fits] == [("undercover", "novelty", True),
                                                                            ("math", "verdict", False)]
    assert calibration.identity == "mock/judge" and calibration.made_at.endswith("+00:00")
    assert calibration.thresholds("math") is None
    held = calibration.thresholds("undercover")
    assert held is not None and set(held.by_kind) == {"novelty"}
    rows = case_verdicts("undercover", scales, held.by_kind)
    report = judge_report("mock/judge", "x.json", rows, resamples=100)
    assert report.overall.used.accuracy == pytest.approx(1.0) and report.overall.untuned.accuracy == 0.5
    assert report.overall.decided_by_threshold == 24
    assert set(report.as_json()["games"]["undercover"]) >= {"cases", "accuracy", "false_accept", "false_reject",
                                                            "balanced_accuracy", "auc"}


def test_a_panel_votes_and_breaks_ties_by_its_mean_probability() -> None:
    assert panel_verdict([True, True, False], [None, None, None]) is True
    assert panel_verdict([True, False, None], [0.6, 0.3, 0.7]) is True  # tie, mean 0.53
    assert panel_verdict([True, False], [0.6, 0.2]) is False  # tie, mean 0.4
    assert panel_verdict([True, False], [0.9, None]) is False  # tie, a member gave no probability: refused
    labels = [True, True, False, False]
    a = case_verdicts("math", _verdicts([0.9, 0.8, 0.6, 0.1], [True, True, True, False], labels))
    b = case_verdicts("math", _verdicts([0.9, 0.3, 0.2, 0.1], [True, False, False, False], labels))
    c = case_verdicts("math", _verdicts([0.9, 0.8, 0.3, 0.2], [True, True, False, False], labels))
    panel = panel_rows([a, b, c])
    assert [row.used for row in panel] == [True, True, False, False]
    assert panel[1].p_accept == pytest.approx((0.8 + 0.3 + 0.8) / 3)
    found = member_agreement([a, b], resamples=100)
    # a and b agree on cases 0 and 3 only: p_o = 0.5; a accepts 3/4, b 1/4: p_e = 3/16 + 3/16 = 0.375
    assert found[""].method == "cohen" and found[""].kappa == pytest.approx((0.5 - 0.375) / 0.625)
    assert member_agreement([a, b, c], resamples=100)["math"].method == "fleiss"
    with pytest.raises(ValueError, match="different cases"):
        panel_rows([a, list(reversed(b))])


def test_a_false_accept_cap_applies_a_threshold_that_keeps_the_cap_where_the_word_breaks_it() -> None:
    """The word accepts a quarter of the wrong answers (balanced accuracy 0.875); no threshold beats that, so an
    uncapped fit is not applied, but under a 0.2 cap a threshold that accepts no wrong answer is, and says so."""
    from playeval.analysis.judge_calibration import fit_scale

    def verdict(n: int, correct: bool, p: float, word: bool) -> JudgeVerdict:
        return JudgeVerdict(case=JudgeCase(id=str(n), context={}, answer="a", correct=correct, kind="k"),
                            accepted=word, p_accept=p)

    verdicts = ([verdict(n, True, 0.5 if n < 10 else 0.9, True) for n in range(20)]
                + [verdict(20 + n, False, 0.1 if n < 14 else 0.6, n < 5) for n in range(20)])
    plain = fit_scale("g", "verdict", verdicts)
    assert not plain.entry.applied and "does not beat" in plain.entry.note
    capped = fit_scale("g", "verdict", verdicts, max_false_accept=0.2)
    assert capped.entry.applied and capped.entry.max_false_accept == 0.2
    assert capped.entry.fitted["false_accept"] <= 0.2 < capped.entry.untuned["false_accept"]
