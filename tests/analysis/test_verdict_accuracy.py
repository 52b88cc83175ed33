"""A two-sided verdict's balanced accuracy beside its accuracy: always "True" scores 0.5, not the share of true
statements, in the analysis, in ``playeval results`` and in the report."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis.cells import Mean, Rate
from playeval.analysis.verdict_accuracy import (
    TwoSidedVerdict,
    Verdict,
    VerdictRow,
    balanced_accuracy,
    verdict_rows,
    verdict_tables,
)
from playeval.cli.main import app
from playeval.core.events import SeatAssignment
from playeval.core.registry import default_registry
from playeval.engine import play_match
from playeval.games.akinator import Akinator
from playeval.games.bluffing import BLUFFER, QUESTIONER, Bluffing
from playeval.report.build import build_report
from playeval.report.render import write_report
from playeval.store import Store


def _always_true(true: int, false: int) -> tuple[Verdict, ...]:
    return (*(Verdict(truth=True, right=True) for _ in range(true)),
            *(Verdict(truth=False, right=False) for _ in range(false)))


def test_always_true_scores_the_share_of_true_statements_in_accuracy_and_half_in_balanced_accuracy() -> None:
    row = VerdictRow(game="bluffing", model="always-true", verdicts=_always_true(30, 10))
    assert row.accuracy.value == pytest.approx(0.75)
    assert row.on_true.value == 1.0 and row.on_false.value == 0.0 and row.said_true.value == 1.0
    balanced = row.balanced(resamples=200)
    assert balanced.mean == pytest.approx(0.5) and balanced.n == 40
    assert balanced.low is not None and balanced.high is not None and balanced.low <= 0.5 <= balanced.high


def test_balanced_accuracy_of_a_judge_that_reads_the_statement_and_of_a_forfeit() -> None:
    right = (Verdict(True, True), Verdict(True, True), Verdict(False, True), Verdict(True, False))
    assert balanced_accuracy(right) == pytest.approx((2 / 3 + 1) / 2)
    assert balanced_accuracy(_always_true(5, 0)) is None  # no false statement: no recall on false ones
    forfeit = Verdict(truth=False, right=False, given=False)
    assert not forfeit.said_true and Verdict(truth=False, right=False).said_true  # wrong on a false one: said True


def test_the_table_ranks_by_balanced_accuracy_and_says_why() -> None:
    rows = [VerdictRow("bluffing", "always-true", _always_true(30, 10)),
            VerdictRow("bluffing", "reads-it", (*_always_true(20, 0), *(Verdict(False, True) for _ in range(10))))]
    [table] = verdict_tables(rows, lambda game: game.capitalize(), resamples=100)
    assert table.title.startswith("Bluffing:")
    headings = [column.heading for column in table.columns]
    assert headings == ["model", "matches", "accuracy", "on true", "on false", "balanced acc.", "said True"]
    assert [row[0] for row in table.rows] == ["reads-it", "always-true"]
    last = table.rows[1]
    assert isinstance(last[2], Rate) and last[2].value == pytest.approx(0.75)
    assert isinstance(last[5], Mean) and last[5].mean == pytest.approx(0.5)
    assert "0.5" in table.caption and "always True" in table.caption


def test_only_games_with_a_two_sided_verdict_declare_one() -> None:
    assert isinstance(Bluffing(), TwoSidedVerdict) and Bluffing.verdict_seat == QUESTIONER
    assert not isinstance(Akinator(), TwoSidedVerdict)


async def _played(path: Path) -> str:
    """Twelve Bluffing matches: "baseline/naive" (always True) questions six, "mock/strong" (the scripted
    questioner, whose verdict is the truth) the other six."""
    game = Bluffing()
    with Store.open(f"sqlite:///{path}") as store:
        run = store.create_run("bluffing", 1, {"games": ["bluffing"], "models": ["baseline/naive", "mock/strong"],
                                               "opponent": "scripted", "n": 12})
        for index in range(12):
            spec = game.new_spec(1, index, random.Random(index))
            model = "baseline/naive" if index % 2 == 0 else "mock/strong"
            match_id = store.create_match(spec=spec, run_id=run, match_index=index, seats=[
                SeatAssignment(seat=QUESTIONER, player_kind="llm", model=model, evaluated=True),
                SeatAssignment(seat=BLUFFER, player_kind="scripted")])
            questioner = game.baseline_player("naive", QUESTIONER, spec) if model == "baseline/naive" else \
                game.scripted_player(QUESTIONER, spec)
            await play_match(game, spec, {QUESTIONER: questioner, BLUFFER: game.scripted_player(BLUFFER, spec)},
                             store, match_id)
    return run


async def test_a_runs_verdicts_are_read_from_the_store_and_shown_by_results_and_the_report(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    run = await _played(db)
    with Store.open(f"sqlite:///{db}") as store:
        rows = {row.model: row for row in verdict_rows(store, run, default_registry())}
        truths = [Bluffing().verdict_truth(match.spec) for match in store.run_matches(run)]
        data = build_report(store, run, default_registry())
    naive, strong = rows["baseline/naive"], rows["mock/strong"]
    assert naive.n == strong.n == 6
    true_share = sum(1 for truth in truths[0::2] if truth) / 6
    assert 0 < true_share < 1 and naive.accuracy.value == pytest.approx(true_share)
    assert balanced_accuracy(naive.verdicts) == pytest.approx(0.5) and balanced_accuracy(strong.verdicts) == 1.0

    result = CliRunner().invoke(app, ["results", run, "--db", f"sqlite:///{db}"], env={"COLUMNS": "220"})
    assert result.exit_code == 0, result.output
    assert "balanced acc." in result.output
    [line] = [line for line in result.output.splitlines() if line.lstrip().startswith("baseline/naive")
              and "[" in line]
    figures = line.split()
    assert figures[figures.index("6") + 1] == f"{true_share:.2f}" and "0.50" in figures  # accuracy, then 0.5

    assert [table.title for table in data.verdicts] == ["Bluffing: verdicts, accuracy and balanced accuracy"]
    files = write_report(data, tmp_path / "report")
    assert "balanced acc." in files.markdown.read_text("utf-8") and "balanced acc." in files.html.read_text("utf-8")
