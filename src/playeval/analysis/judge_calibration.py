"""A judge's verdicts measured with and without its calibration, a calibration fitted from labelled cases, and a
panel of judges voting.

Each case's verdict is kept three ways: the model's own word (*untuned*), the verdict used (the word, or a
calibrated threshold on the probability of accepting where the model's calibration holds one for the game and
question), and the probability itself, from which the ROC AUC says how well the model's confidence separates
right answers from wrong ones at all.

Fitting (:func:`fit_scale`), per game and judge question: stratified k-fold cross-validation of the threshold that
maximises balanced accuracy (``judge_stats``), its held-out rates beside the word's, the AUC with a bootstrap
interval, and the final threshold fitted on every case. A threshold is applied only when it earned it: the AUC's
interval lies above 0.5 and the held-out balanced accuracy beats the word's; otherwise the entry is kept with
``applied=False`` and a note saying why, never dropped or used silently.

A panel (:func:`panel_rows`) votes case by case: the majority of its members' verdicts (each member calibrated if
it has a calibration); a tie is decided by the mean probability of accepting (at least 0.5 accepts) when every
member gave one, and is otherwise a refusal: an answer most of the panel did not accept is not accepted.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from playeval.analysis.agreement import Agreement, agreement
from playeval.analysis.judge_stats import (
    DEFAULT_FOLDS,
    DEFAULT_RESAMPLES,
    CrossValidation,
    JudgeRates,
    auc_interval,
    cross_validate,
    fit_threshold,
    judge_rates,
    roc_auc,
)
from playeval.analysis.judges import JudgeVerdict
from playeval.core.game import JudgeCase
from playeval.core.judge_panel import vote
from playeval.models.calibration import Calibration, CalibrationEntry, model_identity


@dataclass(frozen=True)
class CaseVerdict:
    """One case's verdict by one judge (or panel): the word, the verdict used, the probability and threshold."""

    game: str
    question: str
    case: JudgeCase
    word: bool | None
    used: bool | None
    p_accept: float | None
    threshold: float | None = None
    """The threshold that decided ``used`` (``None``: the word did)."""


def case_verdicts(game: str, verdicts: Sequence[JudgeVerdict], thresholds: Mapping[str, float] | None = None
                  ) -> list[CaseVerdict]:
    """A game's verdicts with ``thresholds`` (by question) applied where they hold."""
    held = thresholds or {}
    rows: list[CaseVerdict] = []
    for verdict in verdicts:
        threshold = held.get(verdict.question)
        applies = threshold is not None and verdict.p_accept is not None and verdict.accepted is not None
        rows.append(CaseVerdict(game=game, question=verdict.question, case=verdict.case, word=verdict.accepted,
                                used=verdict.decided(threshold), p_accept=verdict.p_accept,
                                threshold=threshold if applies else None))
    return rows


@dataclass(frozen=True)
class GroupMeasure:
    """The rates of a group of cases (a game, a question of a game, or all), of the verdicts used and of the
    words, and the AUC of the probabilities."""

    cases: int
    used: JudgeRates
    untuned: JudgeRates
    with_probability: int
    """Cases with a probability of accepting (those the AUC is over)."""
    decided_by_threshold: int
    auc: float | None
    auc_low: float | None
    auc_high: float | None

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` form: the rates used, the AUC, and the words' rates and the intervals beside them."""
        return {"cases": self.cases, **self.used.as_dict(), "auc": self.auc,
                "auc_interval": [self.auc_low, self.auc_high], "with_probability": self.with_probability,
                "decided_by_threshold": self.decided_by_threshold, "unreadable": self.used.unreadable,
                "intervals": {key: list(value) for key, value in self.used.intervals.items()},
                "untuned": self.untuned.as_dict()}


def measure(rows: Sequence[CaseVerdict], *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> GroupMeasure:
    """The measure of a group of case verdicts."""
    labels = [row.case.correct for row in rows]
    scored = [row for row in rows if row.p_accept is not None]
    auc = roc_auc([row.case.correct for row in scored], [_p(row) for row in scored])
    low, high = (auc_interval([row.case.correct for row in scored], [_p(row) for row in scored],
                              resamples=resamples, seed=seed) if auc is not None else (None, None))
    return GroupMeasure(cases=len(rows), used=judge_rates(labels, [row.used for row in rows], resamples=resamples,
                                                          seed=seed),
                        untuned=judge_rates(labels, [row.word for row in rows], resamples=resamples, seed=seed),
                        with_probability=len(scored), decided_by_threshold=sum(row.threshold is not None
                                                                               for row in rows),
                        auc=auc, auc_low=low, auc_high=high)


def _p(row: CaseVerdict) -> float:
    assert row.p_accept is not None
    return row.p_accept


@dataclass(frozen=True)
class JudgeReport:
    """A judge (or panel) measured: per game, per game and question, and over every case."""

    model: str
    calibration: str | None
    """The calibration file used (``None``: the words decided)."""
    games: dict[str, GroupMeasure]
    questions: dict[str, dict[str, GroupMeasure]]
    overall: GroupMeasure
    rows: tuple[CaseVerdict, ...] = field(repr=False, default=())

    def as_json(self) -> dict[str, Any]:
        return {"model": self.model, "calibration": self.calibration,
                "games": {game: {**measured.as_json(),
                                 "questions": {q: m.as_json() for q, m in self.questions[game].items()}}
                          for game, measured in self.games.items()},
                "overall": self.overall.as_json()}


def judge_report(model: str, calibration: str | None, rows: Sequence[CaseVerdict], *,
                 resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> JudgeReport:
    """The report of a judge's case verdicts (games in the order they come)."""
    by_game: dict[str, list[CaseVerdict]] = defaultdict(list)
    by_question: dict[str, dict[str, list[CaseVerdict]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        by_game[row.game].append(row)
        by_question[row.game][row.question].append(row)
    return JudgeReport(
        model=model, calibration=calibration,
        games={game: measure(group, resamples=resamples, seed=seed) for game, group in by_game.items()},
        questions={game: {q: measure(group, resamples=resamples, seed=seed) for q, group in sorted(qs.items())}
                   for game, qs in by_question.items()},
        overall=measure(rows, resamples=resamples, seed=seed), rows=tuple(rows))


# --- fitting ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScaleFit:
    """The fit of one game's question: the entry to save and the cross-validation behind it (``None`` when there
    were too few cases with a probability to run one)."""

    entry: CalibrationEntry
    validation: CrossValidation | None
    rows: tuple[CaseVerdict, ...]
    """The cases with the verdicts the entry stands for: held-out threshold verdicts when it is applied (each
    fitted without the case), the words when it is not."""


def fit_scale(game: str, question: str, verdicts: Sequence[JudgeVerdict], *, folds: int = DEFAULT_FOLDS,
              seed: int = 0, resamples: int = DEFAULT_RESAMPLES, max_false_accept: float | None = None) -> ScaleFit:
    """Fit the threshold of one game's question on its cases (see the module docstring)."""
    labels = [v.case.correct for v in verdicts]
    words = [v.accepted for v in verdicts]
    usable = [v for v in verdicts if v.p_accept is not None and v.accepted is not None]
    untuned = judge_rates(labels, words, resamples=resamples, seed=seed)
    words_rows = tuple(case_verdicts(game, verdicts))
    if not usable:
        entry = CalibrationEntry(game=game, kind=question, threshold=0.5, applied=False, cases=len(verdicts),
                                 note="no probabilities: the model gave none for these cases (a provider without "
                                      "token probabilities, or replies its grammar did not hold)",
                                 untuned=untuned.as_dict())
        return ScaleFit(entry=entry, validation=None, rows=words_rows)
    scores = [v.p_accept for v in usable]
    usable_labels = [v.case.correct for v in usable]
    auc = roc_auc(usable_labels, [_f(s) for s in scores])
    low, high = (auc_interval(usable_labels, [_f(s) for s in scores], resamples=resamples, seed=seed)
                 if auc is not None else (None, None))
    threshold = fit_threshold(usable_labels, [_f(s) for s in scores], max_false_accept=max_false_accept)
    common: dict[str, Any] = {"game": game, "kind": question, "threshold": threshold, "cases": len(verdicts),
                              "auc": auc, "auc_low": low, "auc_high": high, "untuned": untuned.as_dict(),
                              "max_false_accept": max_false_accept}
    try:
        validation = cross_validate(labels, [v.p_accept for v in verdicts], words, folds=folds, seed=seed,
                                    resamples=resamples, max_false_accept=max_false_accept)
    except ValueError as err:
        return ScaleFit(entry=CalibrationEntry(**common, applied=False, note=f"not fitted: {err}"),
                        validation=None, rows=words_rows)
    note = _refusal(auc, low, high, validation, max_false_accept)
    entry = CalibrationEntry(**{**common, "untuned": validation.untuned.as_dict()}, applied=not note, note=note,
                             fitted=validation.fitted.as_dict())
    rows = words_rows
    if entry.applied:
        rows = tuple(CaseVerdict(game=game, question=question, case=v.case, word=v.accepted, used=held,
                                 p_accept=v.p_accept,
                                 threshold=None if v.p_accept is None or v.accepted is None else threshold)
                     for v, held in zip(verdicts, validation.verdicts, strict=True))
    return ScaleFit(entry=entry, validation=validation, rows=rows)


def _f(value: float | None) -> float:
    assert value is not None
    return value


def _refusal(auc: float | None, low: float | None, high: float | None, validation: CrossValidation,
             max_false_accept: float | None = None) -> str:
    """Why a fitted threshold is not applied (empty: it is). With a false-accept cap, a threshold that keeps the
    held-out false accepts within it where the word does not earns its place even at a lower balanced accuracy."""
    if auc is None or low is None or high is None:
        return "the AUC cannot be measured (the cases with a probability are all right or all wrong)"
    said = f"AUC {auc:.2f} [{low:.2f}, {high:.2f}]"
    if high < 0.5:
        return f"{said}: below 0.5, the probability of accepting points the wrong way"
    if low <= 0.5:
        return f"{said}: its interval holds 0.5, so a threshold cannot be trusted"
    fitted, untuned = validation.fitted.balanced_accuracy, validation.untuned.balanced_accuracy
    if fitted is None or untuned is None:
        return "balanced accuracy cannot be measured on these cases"
    if max_false_accept is not None:
        held_fa, word_fa = validation.fitted.false_accept, validation.untuned.false_accept
        if held_fa is not None and held_fa > max_false_accept:
            return (f"held-out false accepts {held_fa:.3f} exceed the cap {max_false_accept:.3f} "
                    f"({validation.folds}-fold cross-validation)")
        if word_fa is not None and word_fa > max_false_accept:
            return ""  # the word breaks the cap and the threshold keeps it
    if fitted <= untuned:
        return (f"held-out balanced accuracy {fitted:.3f} does not beat the model's own word's {untuned:.3f} "
                f"({validation.folds}-fold cross-validation)")
    return ""


def fit_calibration(model: str, verdicts_by_game: Mapping[str, Sequence[JudgeVerdict]], *, cases: str,
                    command: str, folds: int = DEFAULT_FOLDS, seed: int = 0, resamples: int = DEFAULT_RESAMPLES,
                    identity: str | None = None, max_false_accept: float | None = None
                    ) -> tuple[Calibration, list[ScaleFit]]:
    """A calibration of ``model`` fitted per game and question, and the fits behind its entries."""
    fits: list[ScaleFit] = []
    for game, verdicts in verdicts_by_game.items():
        questions: dict[str, list[JudgeVerdict]] = defaultdict(list)
        for verdict in verdicts:
            questions[verdict.question].append(verdict)
        for question, group in sorted(questions.items()):
            fits.append(fit_scale(game, question, group, folds=folds, seed=seed, resamples=resamples,
                                  max_false_accept=max_false_accept))
    calibration = Calibration(model=model, identity=identity if identity is not None else model_identity(model),
                              made_at=datetime.now(UTC).isoformat(timespec="seconds"), command=command,
                              cases=cases, entries=[fit.entry for fit in fits])
    return calibration, fits


# --- panels -----------------------------------------------------------------------------------------------------


def panel_verdict(verdicts: Sequence[bool | None], probabilities: Sequence[float | None]) -> bool:
    """A panel's verdict: the majority of its members' (an unreadable verdict votes neither way); a tie goes to the
    mean probability of accepting (at least 0.5 accepts) when every member gave one, else it is a refusal -- the
    rule a match's panel decides by (``core.judge_panel.vote``)."""
    return vote(verdicts, probabilities).accepted


def panel_rows(members: Sequence[Sequence[CaseVerdict]]) -> list[CaseVerdict]:
    """The panel's verdict on each case its members judged (the same cases, in the same order): its word is the
    vote of the members' words, its verdict used the vote of the verdicts they used, its probability their mean
    when every member gave one."""
    if len(members) < 2:
        raise ValueError("a panel needs at least two members")
    rows: list[CaseVerdict] = []
    for per_case in zip(*members, strict=True):
        first = per_case[0]
        if any((row.game, row.case.id) != (first.game, first.case.id) for row in per_case):
            raise ValueError("the panel's members judged different cases")
        probabilities = [row.p_accept for row in per_case]
        mean = statistics.fmean(_f(p) for p in probabilities) if all(p is not None for p in probabilities) else None
        rows.append(CaseVerdict(game=first.game, question=first.question, case=first.case,
                                word=panel_verdict([row.word for row in per_case], probabilities),
                                used=panel_verdict([row.used for row in per_case], probabilities), p_accept=mean))
    return rows


def member_agreement(members: Sequence[Sequence[CaseVerdict]], *, resamples: int = DEFAULT_RESAMPLES,
                     seed: int = 0) -> dict[str, Agreement]:
    """The members' agreement on the verdicts they used, per game and over all cases (key ``""``): Cohen's kappa
    for two members, Fleiss' for more, with bootstrap intervals over cases."""
    by_game: dict[str, list[tuple[bool | None, ...]]] = defaultdict(list)
    every: list[tuple[bool | None, ...]] = []
    for per_case in zip(*members, strict=True):
        ratings = tuple(row.used for row in per_case)
        by_game[per_case[0].game].append(ratings)
        every.append(ratings)
    found = {game: agreement(items, resamples=resamples, seed=seed) for game, items in by_game.items()}
    found[""] = agreement(every, resamples=resamples, seed=seed)
    return found
