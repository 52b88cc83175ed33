"""``playeval analyze judge``: a model (or a panel of models) measured as a game's judge on labelled cases, with
its calibration or without, and a calibration fitted (``--fit``).

See docs/judge-calibration.md for the case and calibration file formats and what the fit does.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from playeval.analysis.agreement import Agreement
from playeval.analysis.judge_calibration import (
    CaseVerdict,
    GroupMeasure,
    JudgeReport,
    ScaleFit,
    case_verdicts,
    fit_calibration,
    judge_report,
    member_agreement,
    panel_rows,
)
from playeval.analysis.judge_stats import DEFAULT_FOLDS, Interval, JudgeRates
from playeval.analysis.judges import JudgeCaseError, JudgeVerdict, case_asks, judge_verdicts
from playeval.cli.console import fail, print_table, stderr, stdout
from playeval.core.errors import PlayevalError
from playeval.core.game import JudgeCase, JudgedGame
from playeval.core.judge_cases import CaseFileError, read_cases
from playeval.core.registry import GameRegistry, default_registry
from playeval.models import ModelHub
from playeval.models.calibration import (
    Calibration,
    CalibrationError,
    find_calibration,
    model_identity,
    save_calibration,
)

BUILT_IN = "built-in"


@dataclass(frozen=True)
class CaseSet:
    """The cases of one game to judge."""

    game: str
    judged: JudgedGame
    cases: tuple[JudgeCase, ...]


def case_sets(registry: GameRegistry, game: str | None, cases_file: Path | None) -> list[CaseSet]:
    """The games and cases to measure on: the games' own sets (``game``: one of them), or a case file's cases
    grouped by game (``game``: only that game's). Every case's ask is built here, before any model is asked, so a
    bad case is one error naming it (``fail``)."""
    judged_ids = [g.id for g in registry if isinstance(g, JudgedGame)]
    if cases_file is None:
        if game is not None and (game not in registry.ids() or not isinstance(registry.get(game), JudgedGame)):
            fail(f"{game} has no judge calibration set; games with one: {', '.join(judged_ids) or 'none'}")
        chosen = [game] if game is not None else judged_ids
        if not chosen:
            fail("no installed game has a judge calibration set")
        sets = [CaseSet(game=g, judged=_judged(registry, g), cases=tuple(_judged(registry, g).judge_cases()))
                for g in chosen]
    else:
        try:
            labelled = read_cases(cases_file)
        except CaseFileError as err:
            fail(str(err))
        grouped: dict[str, list[JudgeCase]] = {}
        for item in labelled:
            if item.game not in registry.ids():
                fail(f"{cases_file}: case {item.case.id}: unknown game {item.game!r}; games with a judge: "
                     f"{', '.join(judged_ids) or 'none'}")
            if not isinstance(registry.get(item.game), JudgedGame):
                fail(f"{cases_file}: case {item.case.id}: {item.game} has no judge that can be measured; games "
                     f"with one: {', '.join(judged_ids) or 'none'}")
            grouped.setdefault(item.game, []).append(item.case)
        if game is not None:
            grouped = {g: found for g, found in grouped.items() if g == game}
        if not grouped:
            fail(f"{cases_file}: no case{f' for {game}' if game else ''}")
        sets = [CaseSet(game=g, judged=_judged(registry, g), cases=tuple(found)) for g, found in grouped.items()]
    where = f"{cases_file}: " if cases_file is not None else ""
    for case_set in sets:
        try:
            case_asks(case_set.judged, case_set.cases, name=case_set.game)
        except JudgeCaseError as err:
            fail(f"{where}{err}")
    return sets


def _judged(registry: GameRegistry, game: str) -> JudgedGame:
    found = registry.get(game)
    assert isinstance(found, JudgedGame)
    return found


def register_judge(app: typer.Typer) -> None:
    """Add ``judge`` to ``playeval analyze``."""
    app.command("judge")(judge_cmd)


def judge_cmd(
    model: str = typer.Option(..., "--model", "-m", help="The model to measure as a judge; several, comma-"
                                                         "separated, are each measured and voted as a panel."),
    game: str = typer.Option(None, "--game", help="One game (default: every game with a calibration set, or every "
                                                  "game of the --cases file)."),
    cases: Path = typer.Option(None, "--cases", help="A labelled-case file (JSON lines) to measure or fit on "
                                                    "instead of the games' own sets."),
    fit: bool = typer.Option(False, "--fit", help="Fit a calibration on the cases (cross-validated thresholds) and "
                                                  "save it."),
    folds: int = typer.Option(DEFAULT_FOLDS, "--folds", min=2, help="With --fit: folds of the cross-validation."),
    seed: int = typer.Option(0, "--seed", help="Seed of the folds and of the bootstrap intervals."),
    max_false_accept: float = typer.Option(None, "--max-false-accept", min=0.0, max=1.0,
                                           help="With --fit: fit each threshold for balanced accuracy among those "
                                                "accepting at most this share of wrong answers (e.g. 0.2)."),
    out: Path = typer.Option(None, "--out", help="With --fit: the file to write (default: the user calibration "
                                                 "directory, <model>.json)."),
    no_calibration: bool = typer.Option(False, "--no-calibration", help="Measure the model's own words only, "
                                                                       "even where a calibration applies."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
) -> None:
    """Measure a model as a game's judge on labelled cases: accuracy, false accepts, false rejects, balanced
    accuracy and the AUC of its probability of accepting, with its calibration (if one was fitted for this model)
    and without; or fit one (--fit)."""
    members = [m.strip() for m in model.split(",") if m.strip()]
    if not members:
        fail("--model names no model")
    if len(set(members)) != len(members):
        fail(f"--model names a model twice: {model}")
    if out is not None and not fit:
        fail("--out is where --fit writes its calibration; add --fit")
    if max_false_accept is not None and not fit:
        fail("--max-false-accept is a way to fit a calibration; add --fit")
    if out is not None and len(members) > 1:
        fail("--out writes one model's calibration; fit the models one at a time to choose their files")
    sets = case_sets(default_registry(), game, cases)
    calibrations: dict[str, tuple[Path, Calibration] | None] = {}
    if not fit and not no_calibration:
        for member in members:
            try:
                calibrations[member] = find_calibration(member)
            except CalibrationError as err:
                fail(str(err))
    try:
        verdicts = asyncio.run(_ask(members, sets, use_cache=not no_cache))
    except PlayevalError as err:
        fail(str(err))
    label = BUILT_IN if cases is None else cases.name
    if fit:
        _fit(members, verdicts, label=label, game=game, cases=cases, folds=folds, seed=seed, out=out,
             as_json=as_json, max_false_accept=max_false_accept)
        return
    reports: list[JudgeReport] = []
    for member in members:
        held = calibrations.get(member)
        rows: list[CaseVerdict] = []
        for game_id, found in verdicts[member].items():
            thresholds = held[1].thresholds(game_id) if held is not None else None
            rows.extend(case_verdicts(game_id, found, thresholds.by_kind if thresholds is not None else None))
        reports.append(judge_report(member, str(held[0]) if held is not None else None, rows, seed=seed))
    if len(members) == 1:
        if as_json:
            print(json.dumps({**reports[0].as_json(), "identity": _identity(members[0]), "cases_from": label}))
            return
        _print_report(reports[0], label, title=f"{members[0]} as a judge")
        _print_calibration_note(members[0], calibrations.get(members[0]), no_calibration, verdicts[members[0]],
                                label)
        _print_legend()
        return
    member_rows = [list(report.rows) for report in reports]
    panel = judge_report(",".join(members), None, panel_rows(member_rows), seed=seed)
    agreement = member_agreement(member_rows, seed=seed)
    if as_json:
        print(json.dumps({**panel.as_json(), "cases_from": label,
                          "members": {report.model: report.as_json() for report in reports},
                          "agreement": {game_id or "overall": _agreement_json(found)
                                        for game_id, found in agreement.items()}}))
        return
    for report in reports:
        _print_report(report, label, title=f"{report.model} as a judge")
        _print_calibration_note(report.model, calibrations.get(report.model), no_calibration,
                                verdicts[report.model], label)
    _print_report(panel, label, title=f"panel of {len(members)} ({', '.join(members)}): majority vote")
    _print_agreement(agreement, len(members))
    console = stdout()
    console.print("panel: the majority of the members' verdicts (each calibrated where its calibration applies); "
                  "a tie goes to the mean probability of accepting (>= 0.5 accepts) when every member gave one, "
                  "else it refuses. Its word columns vote the members' own words.")
    _print_legend()


async def _ask(members: Sequence[str], sets: Sequence[CaseSet], use_cache: bool
               ) -> dict[str, dict[str, list[JudgeVerdict]]]:
    """Every member's verdicts on every set, each game's cases in order."""
    found: dict[str, dict[str, list[JudgeVerdict]]] = {}
    async with ModelHub(use_cache=use_cache) as hub:
        judges = {member: hub.get(member) for member in members}  # unknown models fail before any call
        err = stderr()
        for member, judge in judges.items():
            found[member] = {}
            for case_set in sets:
                with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                              TimeElapsedColumn(), console=err, transient=True) as progress:
                    bar = progress.add_task(f"{member}: {case_set.game} cases", total=len(case_set.cases))

                    def advance(_: object, task: TaskID = bar) -> None:
                        progress.advance(task)

                    found[member][case_set.game] = await judge_verdicts(case_set.judged, judge,
                                                                        cases=case_set.cases, on_case=advance)
    return found


def _identity(address: str) -> str | None:
    try:
        return model_identity(address)
    except OSError:
        return None


# --- fitting ----------------------------------------------------------------------------------------------------


def _fit(members: Sequence[str], verdicts: dict[str, dict[str, list[JudgeVerdict]]], *, label: str,
         game: str | None, cases: Path | None, folds: int, seed: int, out: Path | None, as_json: bool,
         max_false_accept: float | None = None) -> None:
    results: list[dict[str, Any]] = []
    for member in members:
        command = " ".join(["playeval analyze judge --model", member, "--fit", f"--folds {folds}", f"--seed {seed}",
                            *([f"--game {game}"] if game else []), *([f"--cases {cases.name}"] if cases else []),
                            *([f"--max-false-accept {max_false_accept:g}"] if max_false_accept is not None else [])])
        calibration, fits = fit_calibration(member, verdicts[member], cases=label, command=command, folds=folds,
                                            seed=seed, max_false_accept=max_false_accept)
        try:
            saved = save_calibration(calibration, out)
        except CalibrationError as err:
            fail(str(err))
        report = judge_report(member, str(saved), [row for scale in fits for row in scale.rows], seed=seed)
        if as_json:
            results.append({**report.as_json(), "identity": calibration.identity, "cases_from": label,
                            "fit": [scale.entry.model_dump(mode="json") for scale in fits]})
            continue
        _print_fit(member, calibration, fits, folds)
        stdout().print(f"saved {saved} (for {calibration.identity}); measure with it: playeval analyze judge "
                       f"--model {member}{' --cases FILE' if cases else ''}", markup=False)
    if as_json:
        print(json.dumps(results[0] if len(results) == 1 else {"models": results}))


def _print_fit(member: str, calibration: Calibration, fits: Sequence[ScaleFit], folds: int) -> None:
    table = Table(title=f"{member}: thresholds fitted on {calibration.cases} cases", box=box.SIMPLE_HEAD,
                  padding=(0, 1))
    for column in ("game", "question", "cases", "AUC [95%]", "threshold", "word acc.", "word FA", "word FR",
                   "word bal.", "fitted acc.", "fitted FA", "fitted FR", "fitted bal.", "applied"):
        table.add_column(column, justify="left" if column in ("game", "question", "applied") else "right")
    for scale in fits:
        entry = scale.entry
        word = scale.validation.untuned if scale.validation is not None else None
        fitted = scale.validation.fitted if scale.validation is not None else None
        table.add_row(entry.game, entry.kind, str(entry.cases), _auc(entry.auc, entry.auc_low, entry.auc_high),
                      f"{entry.threshold:.3f}", *_rate_cells(word, entry.untuned), *_rate_cells(fitted, entry.fitted),
                      "yes" if entry.applied else "no")
    console = stdout()
    print_table(console, table)
    for scale in fits:
        if not scale.entry.applied:
            console.print(f"  {scale.entry.game}/{scale.entry.kind} not applied: {scale.entry.note}", markup=False)
    console.print(f"word: the model's own yes/no; fitted: a threshold on its probability of accepting, measured by "
                  f"{folds}-fold stratified cross-validation (each case judged by a threshold fitted without it; "
                  "folds cut to the rarer label's count). The threshold saved is fitted on every case. FA: false "
                  "accepts per wrong answer; FR: false rejects per right answer; bal.: balanced accuracy. Intervals: "
                  "Wilson for the rates, bootstrap over cases for balanced accuracy and AUC.")


_KEYS = ("accuracy", "false_accept", "false_reject", "balanced_accuracy")


def _rate_cells(rates: JudgeRates | None, saved: dict[str, float | None]) -> list[str]:
    """The four rates with their intervals where the cross-validation measured them, else as saved."""
    if rates is None:
        return [_pct(saved.get(key)) for key in _KEYS]
    return [_with_interval(getattr(rates, key), rates.intervals.get(key, (None, None))) for key in _KEYS]


# --- measuring --------------------------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _with_interval(value: float | None, interval: Interval) -> str:
    low, high = interval
    if value is None:
        return "n/a"
    if low is None or high is None:
        return f"{value:.1%}"
    return f"{value:.1%} [{low:.0%}, {high:.0%}]"


def _auc(auc: float | None, low: float | None, high: float | None) -> str:
    if auc is None:
        return "n/a"
    return f"{auc:.2f}" if low is None or high is None else f"{auc:.2f} [{low:.2f}, {high:.2f}]"


def _row(name: str, question: str, measured: GroupMeasure) -> list[str]:
    used: JudgeRates = measured.used
    return [name, question, str(measured.cases),
            *(_with_interval(getattr(used, key), used.intervals.get(key, (None, None))) for key in _KEYS),
            _pct(measured.untuned.balanced_accuracy), _auc(measured.auc, measured.auc_low, measured.auc_high),
            f"{measured.decided_by_threshold}/{measured.cases}", str(used.unreadable)]


def _print_report(report: JudgeReport, label: str, *, title: str) -> None:
    table = Table(title=f"{title}, on {label} cases", box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in ("game", "question", "cases", "accuracy [95%]", "false accept [95%]", "false reject [95%]",
                   "bal. acc. [95%]", "word bal.", "AUC [95%]", "by threshold", "unreadable"):
        table.add_column(column, justify="left" if column in ("game", "question") else "right")
    for game_id, measured in report.games.items():
        questions = report.questions[game_id]
        table.add_row(*_row(game_id, next(iter(questions)) if len(questions) == 1 else "all", measured))
        if len(questions) > 1:
            for question, by_question in questions.items():
                table.add_row(*_row("", question, by_question))
    if len(report.games) > 1:
        table.add_row(*_row("all", "", report.overall))
    print_table(stdout(), table)
    kinds: dict[str, list[bool]] = {}
    for row in report.rows:
        kinds.setdefault(f"{row.game}/{row.case.kind}", []).append(row.used is not None and row.used
                                                                    == row.case.correct)
    if kinds:
        stdout().print("  right/n by kind of case: " + ", ".join(f"{kind} {sum(found)}/{len(found)}"
                                                                 for kind, found in sorted(kinds.items())),
                       markup=False, soft_wrap=True)


def _print_calibration_note(member: str, held: tuple[Path, Calibration] | None, no_calibration: bool,
                            verdicts: dict[str, list[JudgeVerdict]], label: str) -> None:
    console = stdout()
    if no_calibration:
        console.print(f"{member}: --no-calibration: every verdict is the model's own word.", markup=False)
        return
    if held is None:
        console.print(f"{member}: no calibration fitted for this model (identity {_identity(member)}); every "
                      f"verdict is the model's own word (fit one: playeval analyze judge --model {member} --fit).",
                      markup=False)
        return
    path, calibration = held
    console.print(f"{member}: calibration {path} (fitted for {calibration.identity} on {calibration.cases} cases, "
                  f"{calibration.made_at}).", markup=False)
    if calibration.cases == label:
        console.print("  measured on the set it was fitted on, so the rates flatter it: the held-out rates --fit "
                      "printed are the honest ones.", markup=False)
    asked = {(game, verdict.question) for game, found in verdicts.items() for verdict in found}
    for game, question in sorted(asked):
        entry = calibration.entry(game, question)
        if entry is None:
            console.print(f"  {game}/{question}: no entry; the words decide.", markup=False)
        elif not entry.applied:
            console.print(f"  {game}/{question}: not applied: {entry.note}", markup=False)
        else:
            console.print(f"  {game}/{question}: threshold {entry.threshold:.3f} on the probability of accepting.",
                          markup=False)


def _print_agreement(agreement: dict[str, Agreement], members: int) -> None:
    method = "Cohen's kappa" if members == 2 else "Fleiss' kappa"
    table = Table(title=f"agreement between the members ({method}, on the verdicts used)", box=box.SIMPLE_HEAD,
                  padding=(0, 1))
    for column in ("game", "cases", "left out", "raw agreement", "kappa [95%]"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for game_id, found in agreement.items():
        if game_id == "" and len(agreement) == 2:
            continue  # one game: its row is the overall one
        kappa = "n/a" if found.kappa is None else f"{found.kappa:.2f}"
        if found.kappa is not None and found.low is not None and found.high is not None:
            kappa += f" [{found.low:.2f}, {found.high:.2f}]"
        table.add_row(game_id or "all", str(found.items), str(found.left_out), _pct(found.observed), kappa)
    print_table(stdout(), table)
    stdout().print("kappa: agreement beyond what each member's own rates give by chance (1: always agree, 0: no "
                   "better than chance); intervals: bootstrap over cases. Left out: cases some member's verdict "
                   "could not be read.")


def _agreement_json(found: Agreement) -> dict[str, Any]:
    return {"method": found.method, "cases": found.items, "left_out": found.left_out, "observed": found.observed,
            "kappa": found.kappa, "kappa_interval": [found.low, found.high]}


def _print_legend() -> None:
    stdout().print("false accept: wrong answers accepted, per wrong answer; false reject: right answers not accepted, "
                   "per right answer; bal. acc.: the mean of right answers accepted and wrong answers refused; an "
                   "unreadable verdict counts as wrong. The rates are those of the verdicts used (a calibrated "
                   "threshold where one applies, by threshold: how many it decided); word bal.: the model's own "
                   "words. Intervals: Wilson for the rates, bootstrap over cases for balanced accuracy and AUC "
                   "(the AUC of the probability of accepting; n/a without probabilities).")
